"""The typed tool catalog: define a tool once (schema, authorize, execute, parse output).

    tool = define_tool(id="get_status", kind="read", description="...", input_schema={...},
                       authorize=lambda input, ctx: True, execute=lambda input, ctx: ...,
                       parse_output=lambda value: value)
    catalog = ToolCatalog([tool])
    bound = catalog.bind(app=app, timeout=10.0)        # per request
    result = await bound.invoke("get_status", {})      # .value, .invocation

`catalog.as_provider("ops", app=app)` puts the tools behind the `api` command.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from ..policy import KINDS
from .operations import EMPTY_OBJECT_SCHEMA, InvalidInput, Operation, OperationDenied, OperationError, Provider
from .validation import check_schema

if TYPE_CHECKING:
    from .binding import BoundCatalog, CancelSignal


@dataclass(frozen=True)
class ToolDefinition:
    id: str
    kind: str
    description: str
    input_schema: Mapping[str, Any]
    execute: Callable[..., Any]
    authorize: Callable[..., Any] | None = None
    parse_output: Callable[[Any], Any] | None = None
    output_schema: Mapping[str, Any] | None = None

    @property
    def summary(self) -> str:
        return self.description.strip().split("\n", 1)[0]


def define_tool(id: str, kind: str, description: str, execute: Callable[..., Any],
                input_schema: Mapping[str, Any] | None = None, authorize: Callable[..., Any] | None = None,
                parse_output: Callable[[Any], Any] | None = None,
                output_schema: Mapping[str, Any] | None = None) -> ToolDefinition:
    """A tool; `execute(input, ctx)` and `authorize(input, ctx)` may be sync or async."""
    if not isinstance(id, str) or not id or any(ch.isspace() or ch == ":" for ch in id):
        raise ValueError(f"tool id must be a non-empty word without spaces or ':': {id!r}")
    if kind not in KINDS:
        raise ValueError(f"tool {id}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not callable(execute):
        raise ValueError(f"tool {id}: execute must be callable")
    for label, function in (("authorize", authorize), ("parse_output", parse_output)):
        if function is not None and not callable(function):
            raise ValueError(f"tool {id}: {label} must be callable")
    schema = input_schema if input_schema is not None else dict(EMPTY_OBJECT_SCHEMA)
    check_schema(schema, f"tool {id} input_schema")
    if output_schema is not None:
        check_schema(output_schema, f"tool {id} output_schema")
    return ToolDefinition(id, kind, description, schema, execute, authorize, parse_output, output_schema)


class ToolSet:
    """The catalog's tools by id, in definition order."""

    def __init__(self, tools: Iterable[ToolDefinition]) -> None:
        self._tools: dict[str, ToolDefinition] = {}
        for tool in tools:
            if tool.id in self._tools:
                raise ValueError(f"duplicate tool id: {tool.id}")
            self._tools[tool.id] = tool

    def ids(self) -> list[str]:
        return list(self._tools)

    def get(self, tool_id: str) -> ToolDefinition | None:
        return self._tools.get(tool_id)

    def all(self) -> list[ToolDefinition]:
        return list(self._tools.values())

    def __contains__(self, tool_id: object) -> bool:
        return tool_id in self._tools

    def __len__(self) -> int:
        return len(self._tools)


class ToolCatalog:
    def __init__(self, tools: Iterable[ToolDefinition] = (), namespace: str | None = None,
                 summary: str = "", app: Any = None) -> None:
        self.tools = ToolSet(tools)
        self.namespace = namespace  # set it (and app) to list the catalog directly as a provider
        self.summary = summary
        self.app = app

    def bind(self, app: Any = None, timeout: float | None = None,
             cancel: "CancelSignal | None" = None) -> "BoundCatalog":
        """A runtime for one request: `app` reaches every tool as ctx.app."""
        from .binding import BoundCatalog
        return BoundCatalog(self, app, timeout, cancel)

    def as_provider(self, namespace: str, app: Any = None, timeout: float | None = None,
                    summary: str | None = None) -> Provider:
        """The tools as operations of `namespace`, each call invoked on one binding."""
        bound = self.bind(app=app if app is not None else self.app, timeout=timeout)
        provider = Provider(namespace, summary=summary if summary is not None else self.summary)
        for tool in self.tools.all():
            provider.add(Operation(namespace, tool.id, _tool_handler(bound, tool.id), tool.summary,
                                   tool.description, tool.kind, tool.input_schema, tool.output_schema))
        provider.bound = bound  # type: ignore[attr-defined]  # events and records, for hosts
        return provider


def _tool_handler(bound: "BoundCatalog", tool_id: str) -> Callable[[dict[str, Any]], Any]:
    from .binding import ToolDeniedError, ToolError, ToolInputError

    async def handler(input: dict[str, Any]) -> Any:
        try:
            return (await bound.invoke(tool_id, input)).value
        except ToolInputError as error:
            raise InvalidInput(str(error), details=error.details) from None
        except ToolDeniedError as error:
            raise OperationDenied(str(error)) from None
        except ToolError as error:
            raise OperationError(str(error)) from None

    return handler
