"""OpenAPI schema objects -> self-contained JSON Schema (Draft 2020-12).

Local `$ref`s (`#/components/schemas/Pet`) are inlined; a reference that leads back into
itself is cut (replaced by an open schema that says so). OpenAPI 3.0 idioms are mapped:
`nullable: true` adds "null" to the type, boolean `exclusiveMinimum/Maximum` become numbers.
"""
from __future__ import annotations

from typing import Any, Mapping

_DROP = frozenset({"xml", "externalDocs", "discriminator", "example"})


def resolve_pointer(document: Mapping[str, Any], ref: str) -> Any:
    if not ref.startswith("#"):
        raise ValueError(f"only local $ref are supported, got {ref!r}")
    node: Any = document
    for raw in [part for part in ref[1:].split("/") if part]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and key.isdigit():
            node = node[int(key)]
        elif isinstance(node, Mapping) and key in node:
            node = node[key]
        else:
            raise ValueError(f"unresolvable $ref {ref!r}")
    return node


def inline_refs(node: Any, document: Mapping[str, Any], stack: tuple[str, ...] = ()) -> Any:
    """A copy of `node` with local references replaced by what they point to."""
    if isinstance(node, list):
        return [inline_refs(item, document, stack) for item in node]
    if not isinstance(node, Mapping):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        if ref in stack:
            return {"description": f"recursive reference to {ref.rsplit('/', 1)[-1]} (not expanded)"}
        target = inline_refs(resolve_pointer(document, ref), document, (*stack, ref))
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        return {**target, **inline_refs(siblings, document, stack)} if siblings else target
    return {key: inline_refs(value, document, stack) for key, value in node.items()}


_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_ONE = frozenset({"items", "additionalProperties", "not", "contains", "propertyNames", "if", "then",
                         "else", "unevaluatedProperties", "unevaluatedItems"})


def to_json_schema(node: Any) -> Any:
    """Map OpenAPI 3.0 schema idioms to JSON Schema 2020-12, through every subschema."""
    if not isinstance(node, Mapping):
        return node  # true/false schemas
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROP or key.startswith("x-"):
            continue
        if key in _SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {name: to_json_schema(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [to_json_schema(sub) for sub in value]
        elif key in _SCHEMA_ONE:
            out[key] = to_json_schema(value)
        else:
            out[key] = value
    if out.pop("nullable", False) is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(out.get(bound), bool):
            if out.pop(bound) and limit in out:
                out[bound] = out.pop(limit)
    return out


def schema_from(node: Any, document: Mapping[str, Any]) -> dict[str, Any]:
    schema = to_json_schema(inline_refs(node if node is not None else {}, document))
    return dict(schema) if isinstance(schema, Mapping) else {}
