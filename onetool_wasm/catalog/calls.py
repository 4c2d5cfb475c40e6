"""One call of an operation, whichever way it comes in: the `api` command, a namespace
command, or a typed tool of a layout (layouts.py). Same steps, same messages:

    policy (deny) -> input validation -> consent (pass_gate) -> edited input validated
    -> the operation -> output checked against its output schema -> redacted JSON

The caller turns the outcome into its own shape (a CommandResult, a tool result).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..policy import Policy
from ..redaction import redact, redact_text
from .gate import pass_gate
from .operations import InvalidInput, Operation, OperationDenied, OperationError
from .results import dump, encode_result, to_json_value
from .services import OperationCatalog
from .validation import format_problems, validate


@dataclass(frozen=True)
class CallOutcome:
    ok: bool
    text: str                       # the result as JSON text, or the error message (both redacted)
    value: Any = None               # the redacted JSON value `text` shows (cut like it when cut)
    note: str = ""                  # set when the result was cut to fit the catalog's limit
    problems: tuple[str, ...] = ()  # how the result fails the operation's output schema


def prefixed(label: str, body: str) -> str:
    return f"{label}: {body}" if label else body


def denial(policy: Policy, op: Operation, label: str = "") -> str | None:
    """The refusal when the policy denies `op` outright (checked before the input is read)."""
    decision = policy.decide(op.namespace, op.name, op.kind)
    if decision.verdict == "deny":
        return prefixed(label, f"{op.ref} denied by policy ({decision.reason}); nothing was run")
    return None


async def gated_call(catalog: OperationCatalog, op: Operation, value: Any, policy: Policy,
                     confirm: Callable[..., Any] | None, label: str = "") -> CallOutcome:
    """Policy, validation, consent, then the operation; every refusal says why and runs nothing."""
    refused = denial(policy, op, label)
    if refused is not None:
        return CallOutcome(False, refused)
    problems = validate(op.input_schema, value)
    if problems:
        return CallOutcome(False, prefixed(label, format_problems(f"invalid input for {op.ref}", problems,
                                                                  op.input_schema)))
    secrets = catalog.secrets()
    outcome = await pass_gate(policy, confirm, namespace=op.namespace, name=op.name, kind=op.kind, input=value,
                              summary=op.summary, input_schema=op.input_schema, secrets=secrets)
    if not outcome.allowed:
        return CallOutcome(False, prefixed(label, redact_text(outcome.refusal, secrets)))
    if outcome.edited:
        problems = validate(op.input_schema, outcome.input)
        if problems:
            title = f"edited input for {op.ref} is invalid; nothing was run"
            return CallOutcome(False, prefixed(label, format_problems(title, problems, op.input_schema)))
    return await invoke(catalog, op, outcome.input, label)


async def invoke(catalog: OperationCatalog, op: Operation, value: dict[str, Any], label: str = "") -> CallOutcome:
    secrets = catalog.secrets()
    try:
        result = await op.invoke(value)
    except InvalidInput as error:
        schema = json.dumps(op.input_schema, indent=2, ensure_ascii=False)
        body = f"{op.ref} rejected the input: {error.message}{_details(error.details)}\nInput schema:\n{schema}"
        return CallOutcome(False, redact_text(prefixed(label, body), secrets))
    except OperationDenied as error:
        body = f"{op.ref} was refused: {error.message}{_details(error.details)}"
        return CallOutcome(False, redact_text(prefixed(label, body), secrets))
    except OperationError as error:
        body = f"{op.ref} failed: {error.message}{_details(error.details)}"
        return CallOutcome(False, redact_text(prefixed(label, body), secrets))
    except Exception as error:  # a provider's bug still fails only this call, and says what
        return CallOutcome(False, redact_text(prefixed(label, f"{op.ref} failed: {type(error).__name__}: {error}"),
                                              secrets))
    plain = to_json_value(result)
    problems = tuple(str(problem) for problem in validate(op.output_schema, plain))  # before redaction
    hints = list((op.input_schema.get("properties") or {}).keys())
    encoded = encode_result(plain, catalog.max_result_bytes, hints, secrets)  # redacted before any cut
    return CallOutcome(True, encoded.text, json.loads(encoded.text), encoded.note, problems)


def _details(details: Any) -> str:
    if details is None or details == "":
        return ""
    text = details if isinstance(details, str) else dump(redact(details)).strip()
    return f"\nDetails: {text}"


def describe(policy: Policy, op: Operation) -> dict[str, Any]:
    """What `api describe` and the `describe_operation` tool show (redact before display)."""
    decision = policy.decide(op.namespace, op.name, op.kind)
    value: dict[str, Any] = {"ref": op.ref, "summary": op.summary, "description": op.description,
                             "kind": decision.kind, "verdict": decision.verdict, "reason": decision.reason,
                             "inputSchema": op.input_schema}
    if op.output_schema is not None:
        value["outputSchema"] = op.output_schema
    value["example"] = example_call(op)
    return value


def example_call(op: Operation) -> str:
    """`api call petstore:getPet id=<integer>` from the required properties."""
    properties = op.input_schema.get("properties") or {}
    required = [name for name in op.input_schema.get("required") or [] if name in properties]
    pairs = [f"{name}=<{_type_label(properties[name])}>" for name in required]
    return " ".join(["api call", op.ref, *pairs])


def _type_label(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, Mapping) else None
    if isinstance(schema, Mapping) and "enum" in schema:
        return "|".join(str(v) for v in schema["enum"])
    return "|".join(kind) if isinstance(kind, list) else (kind or "value")
