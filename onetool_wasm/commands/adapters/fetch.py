"""fetch: the host's fetch adapter; text, JSON or bytes by content type."""
from __future__ import annotations

import re
from typing import Any
from ...result import JSON, OCTET, TEXT, CommandResult, err, ok_bytes, printable
from ..json_text import format_js_number
from ..json_text import to_json_text
from ..helpers import check_materialized, missing_adapter_error
from ._common import _call, _field, error_message, redacted
from ...redaction import context_secrets, redact
from ...textutil import looks_binary
from ..spec import CommandContext, CommandSpec


_NOT_FOUND = re.compile(r"\bnot found\b", re.IGNORECASE)


def is_not_found(error: BaseException) -> bool:
    """ENOENT/NOT_FOUND codes, HTTP 404, FileNotFoundError/KeyError, or 'not found' said."""
    if isinstance(error, (FileNotFoundError, KeyError)):
        return True
    if getattr(error, "code", None) in ("ENOENT", "NOT_FOUND"):
        return True
    if any(getattr(error, name, None) == 404 for name in ("status", "statusCode", "status_code")):
        return True
    return _NOT_FOUND.search(error_message(error)) is not None


def render_payload(ctx: CommandContext, resource: str, payload: Any, content_type: str | None) -> CommandResult:
    """Bytes as they are, objects and arrays as pretty JSON, anything else as text."""
    if isinstance(payload, (bytes, bytearray, memoryview)):
        data = bytes(payload)
        check_materialized(ctx, "fetch", resource, len(data))
        if not looks_binary(data):  # text: secrets hidden; binary is held back from the model
            data = redacted(ctx, data.decode("utf-8", "replace")).encode("utf-8")
        return ok_bytes(data, content_type or OCTET)
    if isinstance(payload, (dict, list, tuple)):
        text, content_type = to_json_text(redact(payload, context_secrets(ctx))), JSON
    elif payload is None or isinstance(payload, bool):
        text = {None: "null", True: "true", False: "false"}[payload]
    elif isinstance(payload, float):
        text = format_js_number(payload)
    else:
        text = str(payload)
    data = redacted(ctx, printable(text)).encode("utf-8")
    check_materialized(ctx, "fetch", resource, len(data))
    return ok_bytes(data, content_type or TEXT)


async def cmd_fetch(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.adapters.fetch is None:
        return missing_adapter_error("fetch", "fetch")
    resource = args[0]
    try:
        response = await _call(ctx.adapters.fetch, "fetch", resource)
    except Exception as error:  # the host's adapter failed: report it, never crash
        failure = _fetch_failure(resource, error)
        return err(redacted(ctx, failure.stderr), failure.exit_code)
    if response is None:
        return err(f"fetch: adapter error: the fetch adapter returned nothing for {resource}")
    content_type = _field(response, "content_type", "contentType")
    try:
        return render_payload(ctx, resource, _field(response, "payload"), str(content_type) if content_type else None)
    except (TypeError, ValueError, RecursionError) as error:
        return err(redacted(ctx, f"fetch: adapter error: the payload of {resource} cannot be shown as JSON "
                                 f"({error_message(error)})"))


def _fetch_failure(resource: str, error: BaseException) -> CommandResult:
    if is_not_found(error):
        return err(f"fetch: resource not found: {resource}")
    return err(f"fetch: adapter error: {error_message(error)}")


FETCH = CommandSpec(
    name="fetch",
    summary="Call your configured fetch tool and return text or JSON.",
    usage="fetch <resource>",
    details=("Resource identifiers and payloads come from the configured adapter. "
             "This command renders the returned text, JSON, or bytes for the runtime.\n"
             "Examples:\n  fetch order:123\n  fetch crm/customer/acme | json get owner.email"),
    group="adapters",
    handler=cmd_fetch,
    accepts_stdin=False, min_args=1, max_args=1, conformance_args=("res:1",),
    kind="read", requires_adapter="fetch",
)


COMMANDS = [FETCH]
