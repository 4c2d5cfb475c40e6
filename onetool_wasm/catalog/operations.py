"""Operations and providers: what the `api` command can call.

A provider is a namespace (`petstore`) with a summary and a list of operations. An
operation has a name, texts, an optional declared kind, JSON Schemas and a handler
(sync or async, given the validated input dict). FunctionProvider wraps Python callables;
OpenApiProvider and ToolCatalog.as_provider build the same Operation objects.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Mapping, Union

from ..policy import KINDS
from .validation import check_schema

Handler = Callable[[dict[str, Any]], Union[Any, Awaitable[Any]]]
EMPTY_OBJECT_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}


class OperationError(Exception):
    """An operation failed; `details` (redacted before display) may say more."""

    def __init__(self, message: str, details: Any = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        self.status = status


class InvalidInput(OperationError):
    """The service rejected the input (e.g. HTTP 400/422): reported with the schema."""


class OperationDenied(OperationError):
    """The service (or a tool's authorize) refused the call."""


@dataclass(frozen=True)
class Operation:
    namespace: str
    name: str
    handler: Handler
    summary: str = ""
    description: str = ""
    kind: str | None = None  # None: inferred from the name by the policy
    input_schema: Mapping[str, Any] = field(default_factory=lambda: dict(EMPTY_OBJECT_SCHEMA))
    output_schema: Mapping[str, Any] | None = None

    @property
    def ref(self) -> str:
        return f"{self.namespace}:{self.name}"

    async def invoke(self, input: dict[str, Any]) -> Any:
        value = self.handler(input)
        if inspect.isawaitable(value):
            value = await value
        return value


class Provider:
    """A namespace of operations. Subclasses fill `operations`; `secrets` are values to hide."""

    def __init__(self, namespace: str, operations: Iterable[Operation] = (), summary: str = "",
                 secrets: Iterable[str] = ()) -> None:
        _check_name(namespace, "namespace")
        self.namespace = namespace
        self.summary = summary
        self.secrets = tuple(secrets)
        self.operations: list[Operation] = []
        for operation in operations:
            self.add(operation)

    def add(self, operation: Operation) -> None:
        if any(existing.name == operation.name for existing in self.operations):
            raise ValueError(f"duplicate operation in {self.namespace}: {operation.name}")
        self.operations.append(operation)

    def get(self, name: str) -> Operation | None:
        return next((op for op in self.operations if op.name == name), None)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.namespace}: {len(self.operations)} operations>"


class FunctionProvider(Provider):
    """Operations backed by Python callables.

    FunctionProvider("petstore", [{"name": "listPets", "summary": "List pets",
        "input_schema": {...}, "handler": fn, "kind": "read"}], summary="A pet store")
    """

    def __init__(self, namespace: str, operations: Iterable[Mapping[str, Any] | Operation],
                 summary: str = "", secrets: Iterable[str] = ()) -> None:
        super().__init__(namespace, (), summary, secrets)
        for entry in operations:
            self.add(entry if isinstance(entry, Operation) else operation_from_mapping(namespace, entry))


_ALIASES = {"inputSchema": "input_schema", "outputSchema": "output_schema", "execute": "handler",
            "run": "handler"}
_FIELDS = {"name", "handler", "summary", "description", "kind", "input_schema", "output_schema"}


def operation_from_mapping(namespace: str, entry: Mapping[str, Any]) -> Operation:
    data = {_ALIASES.get(key, key): value for key, value in entry.items()}
    unknown = set(data) - _FIELDS
    if unknown:
        raise ValueError(f"unknown operation field(s) in {namespace}: {', '.join(sorted(unknown))}")
    if not callable(data.get("handler")):
        raise ValueError(f"operation {namespace}:{data.get('name')} needs a callable handler")
    _check_name(data.get("name"), "operation name")
    if data.get("kind") is not None and data["kind"] not in KINDS:
        raise ValueError(f"operation {namespace}:{data['name']} kind must be one of {', '.join(KINDS)}")
    for key in ("input_schema", "output_schema"):
        if data.get(key) is not None:
            check_schema(data[key], f"{namespace}:{data['name']} {key}")
    if data.get("input_schema") is None:
        data.pop("input_schema", None)
    return Operation(namespace=namespace, **data)


def _check_name(name: Any, label: str) -> None:
    if not isinstance(name, str) or not name or any(ch.isspace() or ch in ":|;&\"'" for ch in name):
        raise ValueError(f"{label} must be a non-empty word without spaces, ':' or shell operators: {name!r}")
