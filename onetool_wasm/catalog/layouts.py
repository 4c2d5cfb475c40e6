"""The operations as typed tools for a model API, in one of three layouts.

* `generic`: three catalog tools whatever the number of operations: `list_operations`,
  `describe_operation` and `call_operation` ({"operation": "ns:op", "input": {...}});
* `flat`: one tool per operation, named `namespace__operation`, its input schema the
  operation's, its output schema the operation's (wrapped in {"result": ...} when it is not
  an object schema, since structured content is an object);
* `auto`: `flat` up to 30 operations (AUTO_FLAT_LIMIT), `generic` beyond.

Every layout calls through `handle_tool(name, arguments)`, which takes the same path as the
`api` command (catalog/calls.py): policy, input validation, consent, the operation, the
output checked against its schema, redaction with the providers' secrets. A result is text
(the JSON a model reads) and, for a tool with an output schema, the same value as
structured content; a result that does not match its schema is an error that says why.

    tools = OperationTools.for_runtime(runtime, layout="auto")
    definitions = tools.definitions("openai")            # or "anthropic", "mcp", ...
    result = await tools.handle_tool(name, arguments)    # .text, .structured, .is_error
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..policy import GUIDED, Policy
from ..redaction import redact, redact_text
from .calls import CallOutcome, describe, gated_call
from .operations import Operation
from .results import encode_result
from .services import LookupFailed, OperationCatalog
from .validation import format_problems, validate

LAYOUTS = ("generic", "flat", "auto")
AUTO_FLAT_LIMIT = 30
FORMATS = ("openai", "openai-responses", "anthropic", "mcp")
_NAME_LIMIT = 64  # OpenAI's limit on function names (MCP allows 128)

_REF = {"type": "string", "description": "The operation, as namespace:operation (see list_operations)."}
_LIST_INPUT = {
    "type": "object",
    "properties": {"namespace": {"type": "string", "description": "Only this service's operations."},
                   "query": {"type": "string", "description": "Only operations whose name or summary has this "
                                                               "text (case-insensitive)."}},
    "additionalProperties": False,
}
_LIST_OUTPUT = {
    "type": "object",
    "properties": {
        "services": {"type": "array", "items": {"type": "object", "properties": {
            "namespace": {"type": "string"}, "summary": {"type": "string"}, "operations": {"type": "integer"}}}},
        "operations": {"type": "array", "items": {"type": "object", "properties": {
            "operation": {"type": "string"}, "summary": {"type": "string"}, "kind": {"type": "string"},
            "verdict": {"type": "string"}}}},
    },
    "required": ["services", "operations"],
}
_DESCRIBE_INPUT = {"type": "object", "properties": {"operation": _REF}, "required": ["operation"],
                   "additionalProperties": False}
_DESCRIBE_OUTPUT = {
    "type": "object",
    "properties": {"ref": {"type": "string"}, "summary": {"type": "string"}, "description": {"type": "string"},
                   "kind": {"type": "string"}, "verdict": {"type": "string"}, "reason": {"type": "string"},
                   "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"},
                   "example": {"type": "string"}},
    "required": ["ref", "kind", "verdict", "inputSchema"],
}
_CALL_INPUT = {
    "type": "object",
    "properties": {"operation": _REF,
                   "input": {"type": "object", "description": "The operation's input, as its input schema says "
                                                             "(see describe_operation)."}},
    "required": ["operation"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class LayoutTool:
    """A tool of a layout: a catalog tool (`operation` None) or one operation (flat)."""
    name: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None = None
    annotations: Mapping[str, Any] | None = None
    operation: Operation | None = field(default=None, compare=False)
    wrapped: bool = False  # the output schema is {"result": <the operation's>}

    def definition(self, format: str = "mcp") -> dict[str, Any]:
        """The tool in the shape a model API expects (as tooldef.build_tool_definition)."""
        if format == "mcp":
            value: dict[str, Any] = {"name": self.name, "description": self.description,
                                     "inputSchema": dict(self.input_schema)}
            if self.output_schema is not None:
                value["outputSchema"] = dict(self.output_schema)
            if self.annotations:
                value["annotations"] = dict(self.annotations)
            return value
        if format == "openai":
            return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                     "parameters": dict(self.input_schema)}}
        if format == "openai-responses":
            return {"type": "function", "name": self.name, "description": self.description,
                    "parameters": dict(self.input_schema)}
        if format == "anthropic":
            return {"name": self.name, "description": self.description, "input_schema": dict(self.input_schema)}
        raise ValueError(f"unknown tool definition format: {format} (use one of {', '.join(FORMATS)})")


@dataclass(frozen=True)
class ToolCallResult:
    text: str                            # what the model reads (JSON, or the error message)
    structured: dict[str, Any] | None    # the same result as an object (MCP structuredContent)
    is_error: bool

    def to_mcp(self) -> dict[str, Any]:
        value: dict[str, Any] = {"content": [{"type": "text", "text": self.text}], "isError": self.is_error}
        if self.structured is not None:
            value["structuredContent"] = self.structured
        return value


def _error(text: str) -> ToolCallResult:
    return ToolCallResult(text, None, True)


class OperationTools:
    """The operations of a catalog as the tools of one layout, over one policy and consent."""

    def __init__(self, catalog: OperationCatalog, layout: str = "auto", policy: Any = None,
                 confirm: Callable[..., Any] | None = None, *, context: Any = None) -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
        self.catalog = catalog
        self.requested_layout = layout
        self._policy = Policy.coerce(policy)
        self._confirm = confirm
        self._context = context  # a runtime's CommandContext: its policy and confirm, read at call time
        self.layout = layout if layout != "auto" else (
            "flat" if catalog.operation_count() <= AUTO_FLAT_LIMIT else "generic")
        self._tools = _flat_tools(catalog, self.policy) if self.layout == "flat" else _generic_tools()
        self._by_name = {tool.name: tool for tool in self._tools}

    @classmethod
    def for_runtime(cls, runtime: Any, layout: str = "auto") -> "OperationTools":
        """The runtime's providers, under its policy and its confirm (as `api` sees them)."""
        catalog = getattr(runtime.ctx, "operations", None)
        if catalog is None:
            raise ValueError("the runtime has no providers: create it with providers=[...] to lay out operations")
        return cls(catalog, layout, context=runtime.ctx)

    @property
    def policy(self) -> Policy:
        if self._policy is not None:
            return self._policy
        return Policy.coerce(getattr(self._context, "policy", None)) or GUIDED

    @property
    def confirm(self) -> Callable[..., Any] | None:
        return self._confirm if self._confirm is not None else getattr(self._context, "confirm", None)

    def tools(self) -> list[LayoutTool]:
        return list(self._tools)

    def names(self) -> list[str]:
        return [tool.name for tool in self._tools]

    def has_tool(self, name: str) -> bool:
        return name in self._by_name

    def definitions(self, format: str = "mcp") -> list[dict[str, Any]]:
        return [tool.definition(format) for tool in self._tools]

    async def handle_tool(self, name: str, arguments: Mapping[str, Any] | None = None,
                          confirm: Callable[..., Any] | None = None) -> ToolCallResult:
        """Route a call of any layout's tool; `confirm` (optional) answers this call's consent."""
        tool = self._by_name.get(name)
        if tool is None:
            return _error(f"unknown tool: {name}. Tools: {', '.join(self.names())}")
        arguments = dict(arguments or {})
        confirm = confirm if confirm is not None else self.confirm
        if tool.operation is not None:
            return self._from_outcome(tool, await gated_call(self.catalog, tool.operation, arguments,
                                                             self.policy, confirm))
        problems = validate(tool.input_schema, arguments)
        if problems:
            return _error(format_problems(f"invalid arguments for {name}", problems, tool.input_schema))
        try:
            if name == "list_operations":
                return self._listing(tool, arguments.get("namespace"), arguments.get("query"))
            op = self.catalog.find(arguments["operation"])
        except LookupFailed as error:
            return _error(_catalog_hint(str(error)))
        if name == "describe_operation":
            return self._encoded(tool, describe(self.policy, op))
        output_schema, wrapped = _output_of(op)
        call_tool = LayoutTool(name, "", {}, output_schema, operation=op, wrapped=wrapped)
        return self._from_outcome(call_tool, await gated_call(self.catalog, op, arguments.get("input") or {},
                                                              self.policy, confirm))

    # -- results ---------------------------------------------------------------------------------

    def _listing(self, tool: LayoutTool, namespace: str | None, query: str | None) -> ToolCallResult:
        providers = [self.catalog.provider(namespace)] if namespace else self.catalog.providers()
        needle = (query or "").lower()
        operations = []
        for provider in providers:
            for op in provider.operations:
                if needle and needle not in f"{op.ref} {op.summary}".lower():
                    continue
                decision = self.policy.decide(op.namespace, op.name, op.kind)
                operations.append({"operation": op.ref, "summary": op.summary or op.name, "kind": decision.kind,
                                   "verdict": decision.verdict})
        services = [{"namespace": p.namespace, "summary": p.summary, "operations": len(p.operations)}
                    for p in providers]
        return self._encoded(tool, {"services": services, "operations": operations})

    def _encoded(self, tool: LayoutTool, value: Any) -> ToolCallResult:
        secrets = self.catalog.secrets()
        encoded = encode_result(redact(value, secrets), self.catalog.max_result_bytes, secrets=secrets)
        text = encoded.text + (f"\n[note] {encoded.note}" if encoded.note else "")
        return ToolCallResult(text, json.loads(encoded.text), False)

    def _from_outcome(self, tool: LayoutTool, outcome: CallOutcome) -> ToolCallResult:
        if not outcome.ok:
            return _error(outcome.text)
        op = tool.operation
        if outcome.problems:
            secrets = self.catalog.secrets()
            lines = [f"{op.ref} returned a result that does not match its output schema "
                     f"({len(outcome.problems)} problem{'s' if len(outcome.problems) != 1 else ''}):",
                     *[f"  - {redact_text(problem, secrets)}" for problem in outcome.problems],
                     "Result:", outcome.text.rstrip("\n")]
            return _error("\n".join(lines))
        text = outcome.text + (f"\n[note] {outcome.note}" if outcome.note else "")
        if tool.output_schema is None:
            structured = outcome.value if isinstance(outcome.value, dict) else None
        elif tool.wrapped:
            structured = {"result": outcome.value}
        else:
            structured = outcome.value
        return ToolCallResult(text, structured, False)


# -- the tools of each layout -----------------------------------------------------------------------

def _generic_tools() -> list[LayoutTool]:
    return [
        LayoutTool("list_operations", "List the API operations you can call: their service, summary, kind "
                   "(read, write, sensitive) and whether the policy allows them, asks a human first, or denies "
                   "them. Filter by namespace or by a text in the name or summary.",
                   _LIST_INPUT, _LIST_OUTPUT, {"readOnlyHint": True}),
        LayoutTool("describe_operation", "Describe one API operation: what it does, its input schema (to write "
                   "the input of call_operation), its output schema, and the policy's verdict.",
                   _DESCRIBE_INPUT, _DESCRIBE_OUTPUT, {"readOnlyHint": True}),
        LayoutTool("call_operation", "Call an API operation with an input object that follows its input schema "
                   "(see describe_operation). Writes may need a human's confirmation; the policy may deny some "
                   "operations. The result is JSON.",
                   _CALL_INPUT, None, {"readOnlyHint": False, "destructiveHint": True}),
    ]


def _flat_tools(catalog: OperationCatalog, policy: Policy) -> list[LayoutTool]:
    tools: list[LayoutTool] = []
    taken: set[str] = set()
    for op in catalog.operations():
        name = _unique(tool_name(op), taken)
        taken.add(name)
        output_schema, wrapped = _output_of(op)
        kind = policy.kind_of(op.namespace, op.name, op.kind)
        annotations = {"title": op.ref, "readOnlyHint": kind == "read"}
        if kind != "read":
            annotations["destructiveHint"] = kind == "sensitive"
        summary = op.summary or op.name
        details = f"\n\n{op.description}" if op.description and op.description.strip() != summary else ""
        description = f"{summary} ({op.ref}, {kind}){details}"
        tools.append(LayoutTool(name, description, op.input_schema, output_schema, annotations, op, wrapped))
    return tools


def tool_name(op: Operation) -> str:
    """`petstore__getPet`: letters, digits, `_` and `-` only (OpenAI's and MCP's rules), at most 64."""
    name = re.sub(r"[^A-Za-z0-9_-]", "_", f"{op.namespace}__{op.name}")
    return name[:_NAME_LIMIT]


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    for number in range(2, 10_000):
        suffix = f"_{number}"
        candidate = name[:_NAME_LIMIT - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    raise ValueError(f"too many operations named like {name}")


def _output_of(op: Operation) -> tuple[Mapping[str, Any] | None, bool]:
    """The tool's output schema: the operation's when it describes an object, else wrapped in
    {"result": ...}. Local definitions stay at the root, where `#/$defs/...` points."""
    schema = op.output_schema
    if schema is None:
        return None, False
    if isinstance(schema, Mapping) and schema.get("type") == "object":
        return schema, False
    definitions = {key: schema[key] for key in ("$defs", "definitions") if isinstance(schema, Mapping) and key in schema}
    inner = {key: value for key, value in schema.items() if key not in definitions} if definitions else schema
    return {"type": "object", "properties": {"result": inner}, "required": ["result"], **definitions}, True


def _catalog_hint(message: str) -> str:
    """A lookup failure points at the catalog tools, not at the `api` command."""
    head, sep, _ = message.rpartition(" Use: ")
    return f"{head} Use: list_operations" if sep else message
