"""The `api` command and one command per provider namespace (`petstore listPets status=sold`).

Not a built-in of the presets (no COMMANDS list here): a runtime registers these when it
is given providers. Every call goes through the gate: policy, JSON Schema validation,
consent, then the operation; results are redacted JSON (content type application/json).
"""
from __future__ import annotations

from typing import Any, Sequence

from ..catalog.calls import denial, describe, gated_call
from ..catalog.inputs import InputError, parse_input
from ..catalog.operations import Operation
from ..catalog.results import dump
from ..catalog.services import LookupFailed, OperationCatalog
from ..policy import GUIDED, Policy, infer_kind
from ..redaction import redact
from ..result import JSON, CommandResult, err, ok
from .helpers import usage_error
from .spec import CommandContext, CommandSpec

API_USAGE = ("api services | api operations [namespace] | api describe <namespace:operation> | "
             "api call <namespace:operation> [json | key=value ...]")
GROUP = "api"


def policy_of(ctx: CommandContext) -> Policy:
    """The runtime's policy; without one, operations follow guided mode."""
    return Policy.coerce(getattr(ctx, "policy", None)) or GUIDED


def operation_kind(op: Operation) -> str:
    return op.kind or infer_kind(op.name)


# --- listing -------------------------------------------------------------------------------

def services_text(catalog: OperationCatalog) -> str:
    providers = catalog.providers()
    width = max(len(p.namespace) for p in providers)
    lines = ["Services:"]
    for provider in providers:
        count = len(provider.operations)
        summary = f"{provider.summary} " if provider.summary else ""
        lines.append(f"  {provider.namespace.ljust(width)} — {summary}({count} operation{'s' if count != 1 else ''})")
    return "\n".join([*lines, "", "Use: api operations <namespace>"]) + "\n"


def operations_text(ctx: CommandContext, catalog: OperationCatalog, namespace: str | None) -> str:
    operations = catalog.operations(namespace)
    policy = policy_of(ctx)
    width = max([len(op.ref) for op in operations] or [0])
    title = f"{catalog.provider(namespace).namespace} operations:" if namespace else "Operations:"
    lines = [title]
    for op in operations:
        decision = policy.decide(op.namespace, op.name, op.kind)
        note = {"confirm": " (needs confirmation)", "deny": " (denied by policy)"}.get(decision.verdict, "")
        lines.append(f"  {op.ref.ljust(width)}  {decision.kind.ljust(9)} — {op.summary or op.name}{note}")
    if not operations:
        lines.append("  (no operations)")
    lines += ["", "Use: api describe <namespace:operation>",
              "Call: api call <namespace:operation> [json | key=value ...]"]
    return "\n".join(lines) + "\n"


def describe_value(ctx: CommandContext, op: Operation) -> dict[str, Any]:
    return describe(policy_of(ctx), op)


# --- calling -------------------------------------------------------------------------------

async def call_operation(ctx: CommandContext, catalog: OperationCatalog, label: str, op: Operation,
                         args: Sequence[str], stdin: bytes) -> CommandResult:
    """Policy, validation, consent, then the operation (catalog/calls.py: the same steps as
    the typed tools of a layout); every refusal says why and runs nothing."""
    policy = policy_of(ctx)
    refused = denial(policy, op, label)
    if refused is not None:
        return err(refused)
    try:
        value = parse_input(list(args), stdin, op.input_schema, op.ref)
    except InputError as error:
        return err(f"{label}: {error}")
    outcome = await gated_call(catalog, op, value, policy, getattr(ctx, "confirm", None), label)
    if not outcome.ok:
        return err(outcome.text)
    notes = [f"{label}: {op.ref}: {outcome.note}"] if outcome.note else []
    if outcome.problems:
        notes.append(f"{label}: {op.ref}: the result does not match its output schema: " + "; ".join(outcome.problems))
    return CommandResult(outcome.text.encode("utf-8"), "\n".join(notes), 0, JSON)


# --- the commands --------------------------------------------------------------------------

def make_api_command(catalog: OperationCatalog) -> CommandSpec:
    async def handler(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
        try:
            return await _api(ctx, catalog, args, stdin)
        except LookupFailed as error:
            return err(f"api: {error}")

    def kind(args: Sequence[str]) -> str:
        if len(args) >= 2 and args[0] == "call":
            try:
                return operation_kind(catalog.find(args[1]))
            except LookupFailed:
                return "read"
        return "read"

    return CommandSpec(
        name="api", group=GROUP, handler=handler, kind=kind, usage=API_USAGE,
        summary="Discover and call the API operations registered with this runtime.",
        details=("Input is a JSON object (argument or stdin) or key=value pairs, read by the schema's types. "
                 "Results print as JSON, so `| json get <field>` works. Writes may need a human's "
                 "confirmation; the policy may deny some operations.\n"
                 "Examples:\n  api services\n  api operations petstore\n  api describe petstore:getPet\n"
                 "  api call petstore:getPet id=2\n  api call petstore:listPets '{\"status\": \"sold\"}'\n"
                 "  api call petstore:listPets status=sold | json get 0.name"),
        accepts_stdin=True, min_args=1, max_args=None, conformance_args=("services",))


async def _api(ctx: CommandContext, catalog: OperationCatalog, args: list[str], stdin: bytes) -> CommandResult:
    sub, rest = args[0], args[1:]
    if sub == "services" and not rest:
        return ok(services_text(catalog)) if catalog.providers() else ok("(no services registered)\n")
    if sub == "operations" and len(rest) <= 1:
        return ok(operations_text(ctx, catalog, rest[0] if rest else None))
    if sub == "describe" and len(rest) == 1:
        return ok(dump(redact(describe_value(ctx, catalog.find(rest[0])), catalog.secrets())), JSON)
    if sub == "call" and rest:
        return await call_operation(ctx, catalog, "api", catalog.find(rest[0]), rest[1:], stdin)
    if sub in ("services", "operations", "describe", "call"):
        return usage_error(f"api {sub}", _sub_usage(sub))
    return err(f"api: unknown subcommand: {sub}. Usage: {API_USAGE}")


def _sub_usage(sub: str) -> str:
    return {"services": "api services", "operations": "api operations [namespace]",
            "describe": "api describe <namespace:operation>",
            "call": "api call <namespace:operation> [json | key=value ...]"}[sub]


def make_namespace_command(catalog: OperationCatalog, namespace: str) -> CommandSpec:
    provider = catalog.provider(namespace)
    names = [op.name for op in provider.operations]

    async def handler(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
        try:
            if not args:
                return ok(operations_text(ctx, catalog, namespace))
            op = catalog.find(f"{namespace}:{args[0]}")
        except LookupFailed as error:
            return err(f"{namespace}: {error}")
        return await call_operation(ctx, catalog, namespace, op, args[1:], stdin)

    def kind(args: Sequence[str]) -> str:
        op = provider.get(args[0]) if args else None
        return operation_kind(op) if op is not None else "read"

    examples = "\n".join(f"  {namespace} {name}" for name in names[:3])
    return CommandSpec(
        name=namespace, group=GROUP, handler=handler, kind=kind,
        usage=f"{namespace} <operation> [json | key=value ...]",
        summary=provider.summary or f"Call {namespace} operations (same as api call {namespace}:<operation>).",
        details=(f"Operations: {', '.join(names) or '(none)'}. With no arguments, lists them. "
                 f"Input and output as for `api call`; see `api describe {namespace}:<operation>`.\n"
                 f"Examples:\n  {namespace}\n{examples}"),
        accepts_stdin=True, min_args=0, max_args=None, conformance_args=())


def make_commands(catalog: OperationCatalog, taken: Sequence[str]) -> list[CommandSpec]:
    """`api` and a command per namespace whose name is free (else reach it via `api call`)."""
    taken_names = set(taken) | {"api"}
    commands = [make_api_command(catalog)]
    for provider in catalog.providers():
        if provider.namespace not in taken_names:
            commands.append(make_namespace_command(catalog, provider.namespace))
            taken_names.add(provider.namespace)
    return commands


# --- the tool description ------------------------------------------------------------------

INLINE_LIMIT = 30


def catalog_description(catalog: OperationCatalog) -> list[str]:
    """Namespaces and operations inline while small (<= 30 operations), else where to look."""
    count = catalog.operation_count()
    providers = catalog.providers()
    if count > INLINE_LIMIT:
        return [f"API operations: {count} in {len(providers)} services "
                f"({', '.join(p.namespace for p in providers)}).",
                "  - run 'api services' and 'api operations <namespace>' to list them",
                "  - run 'api describe <namespace:operation>' for an input schema"]
    lines = ["API operations (run: api call <namespace:operation> key=value ...; "
             "input schema: api describe <namespace:operation>):"]
    for provider in providers:
        lines.append(f"  {provider.namespace}" + (f" — {provider.summary}" if provider.summary else ""))
        lines += [f"    {op.name} — {op.summary or op.name}" for op in provider.operations]
    return lines
