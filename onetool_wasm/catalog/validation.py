"""Input validation with JSON Schema (Draft 2020-12, formats checked) and its feedback."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

from ..jsonparse import parse_json_text


@dataclass(frozen=True)
class Problem:
    path: str      # JSON pointer of the offending value, "/" for the input itself
    message: str

    def __str__(self) -> str:
        return f"at {self.path}: {self.message}"


def check_schema(schema: Any, label: str) -> None:
    """Fail early (ValueError) when a host hands over a schema that is not valid JSON Schema."""
    from jsonschema import Draft202012Validator  # imported on first use: keeps boot light
    from jsonschema.exceptions import SchemaError
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        raise ValueError(f"{label} is not a valid JSON Schema: {error.message}") from None


def validate(schema: Mapping[str, Any] | None, instance: Any) -> list[Problem]:
    """Every problem of `instance` against `schema`, ordered by path."""
    if schema is None:
        return []
    problems = [Problem(_pointer(error.absolute_path), error.message) for error in _validator(schema).iter_errors(instance)]
    return sorted(problems, key=lambda p: (p.path, p.message))


_VALIDATORS: dict[int, tuple[Any, Any]] = {}


def _validator(schema: Mapping[str, Any]) -> Any:
    """A compiled validator per schema object (kept with the schema, so ids stay unique)."""
    cached = _VALIDATORS.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    from jsonschema import Draft202012Validator
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    if len(_VALIDATORS) > 512:
        _VALIDATORS.clear()
    _VALIDATORS[id(schema)] = (schema, validator)
    return validator


def _pointer(path: Any) -> str:
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in path]
    return "/" + "/".join(parts)


def format_problems(title: str, problems: list[Problem], schema: Mapping[str, Any] | None) -> str:
    """`title (N problems):`, one line a problem, then the schema to write a valid input from."""
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    lines = [f"{title} ({count}):", *[f"  - {problem}" for problem in problems]]
    if schema is not None:
        lines += ["Input schema:", json.dumps(schema, indent=2, ensure_ascii=False)]
    return "\n".join(lines)


# key=value arguments: the value is read according to the property's schema type.

def coerce_value(text: str, schema: Mapping[str, Any] | None) -> Any:
    """`"2"` -> 2 for an integer property, `"true"` -> True for a boolean, ...

    A value that does not fit stays a string, so validation reports it with the schema.
    """
    types = _types(schema)
    if not types or types == {"string"}:
        return text
    for kind in ("integer", "number", "boolean", "null", "array", "object"):
        if kind in types:
            value = _read_as(kind, text, schema or {})
            if value is not _NO_VALUE:
                return value
    return text


_NO_VALUE = object()


def _read_as(kind: str, text: str, schema: Mapping[str, Any]) -> Any:
    if kind in ("integer", "number") and "_" in text:
        return _NO_VALUE  # Python reads `1_000` as a number; JSON and JavaScript do not
    if kind == "integer":
        try:
            return int(text, 10)
        except ValueError:
            return _NO_VALUE
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            return _NO_VALUE
        if not math.isfinite(number):
            return _NO_VALUE  # `nan`, `inf`: no JSON number; left as text for validation to report
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if kind == "boolean":
        return {"true": True, "false": False}.get(text.lower(), _NO_VALUE)
    if kind == "null":
        return None if text == "null" else _NO_VALUE
    if kind == "array":
        return _read_array(text, schema)
    parsed = _json_or_none(text)
    return parsed if isinstance(parsed, dict) else _NO_VALUE


def _read_array(text: str, schema: Mapping[str, Any]) -> Any:
    if text.startswith("["):
        parsed = _json_or_none(text)
        return parsed if isinstance(parsed, list) else _NO_VALUE
    items = schema.get("items") if isinstance(schema.get("items"), Mapping) else None
    return [coerce_value(part, items) for part in text.split(",")] if text else []


def _json_or_none(text: str) -> Any:
    try:
        return parse_json_text(text)
    except ValueError:  # not JSON, or too deep: left as text for validation to report
        return None


def _types(schema: Mapping[str, Any] | None) -> set[str]:
    if not isinstance(schema, Mapping):
        return set()
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return set(declared)
    types: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key) or []:
            types |= _types(option)
    if "enum" in schema and not types:
        types = {_json_type(v) for v in schema["enum"]}
    return types


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "null" if value is None else "string"


def property_schema(schema: Mapping[str, Any] | None, path: list[str]) -> Mapping[str, Any] | None:
    """The schema of a (dotted) property, following `properties` down."""
    current = schema
    for key in path:
        properties = current.get("properties") if isinstance(current, Mapping) else None
        if not isinstance(properties, Mapping) or key not in properties:
            return None
        current = properties[key]
    return current
