"""Operations from an OpenAPI 3 JSON document, called over a pluggable HTTP transport.

Each path + method becomes an operation named by its operationId. Its parameters (path,
query, header, cookie) and its JSON body are flattened into one input schema (the body
stays under `body` when it is not an object or a name collides). GET/HEAD/OPTIONS read,
other methods write, unless `x-onetool-kind` says otherwise. Credentials (`headers`,
`query`) are provider configuration: never part of the input, never shown.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping
from urllib.parse import quote, urlencode

from ..redaction import is_secret_key
from .operations import InvalidInput, Operation, OperationDenied, OperationError, Provider
from .results import summarise_bytes
from .schemas import schema_from
from .transport import Transport, default_transport
from .validation import check_schema

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
READ_METHODS = ("get", "head", "options")


@dataclass(frozen=True)
class _Route:
    method: str
    path: str
    locations: dict[str, str] = field(default_factory=dict)  # input key -> path|query|header|cookie|field|body


class OpenApiProvider(Provider):
    def __init__(self, document: Mapping[str, Any] | str, base_url: str | None = None,
                 headers: Mapping[str, str] | None = None, transport: Transport | None = None, *,
                 namespace: str | None = None, summary: str | None = None,
                 query: Mapping[str, str] | None = None) -> None:
        doc = json.loads(document) if isinstance(document, str) else dict(document)
        if not str(doc.get("openapi", "")).startswith("3"):
            raise ValueError("OpenApiProvider needs an OpenAPI 3 document (an 'openapi': '3.x' field)")
        info = doc.get("info") or {}
        self.document = doc
        self.base_url = _base_url(doc, base_url)
        self.headers = dict(headers or {})
        self.query = dict(query or {})
        self.transport = transport if transport is not None else default_transport()
        super().__init__(namespace or _namespace(info), summary=summary if summary is not None
                         else str(info.get("title", "")), secrets=_credentials(self.headers, self.query))
        for path, item in (doc.get("paths") or {}).items():
            for method, spec in (item.items() if isinstance(item, Mapping) else []):
                if method in METHODS and isinstance(spec, Mapping):  # in the document's order
                    self.add(self._operation(path, method, item, spec))

    def _operation(self, path: str, method: str, item: Mapping[str, Any], spec: Mapping[str, Any]) -> Operation:
        name = _operation_name(spec.get("operationId"), method, path)
        route = _Route(method, path)
        input_schema = self._input_schema(item, spec, route)
        check_schema(input_schema, f"{self.namespace}:{name} input schema")
        kind = spec.get("x-onetool-kind") or ("read" if method in READ_METHODS else "write")
        output = _output_schema(spec, self.document)

        async def handler(value: dict[str, Any]) -> Any:
            return await self._call(route, value, input_schema)

        return Operation(self.namespace, name, handler, str(spec.get("summary") or ""),
                         str(spec.get("description") or ""), kind, input_schema, output)

    def _input_schema(self, item: Mapping[str, Any], spec: Mapping[str, Any], route: _Route) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        for param in _parameters(item, spec, self.document):
            name, where = param.get("name"), param.get("in")
            if not isinstance(name, str) or where not in ("path", "query", "header", "cookie"):
                continue
            if self._configured(name, where):
                continue  # a credential the provider supplies itself
            schema = schema_from(param.get("schema"), self.document)
            if param.get("description") and "description" not in schema:
                schema["description"] = str(param["description"])
            properties[name], route.locations[name] = schema, where
            if param.get("required") or where == "path":
                required.append(name)
        self._body_schema(spec, properties, required, route)
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    def _configured(self, name: str, where: str) -> bool:
        configured = self.headers if where == "header" else self.query if where == "query" else {}
        lowered = {key.lower() for key in configured}
        return name.lower() in lowered or (where in ("header", "query", "cookie") and is_secret_key(name))

    def _body_schema(self, spec: Mapping[str, Any], properties: dict[str, Any], required: list[str],
                     route: _Route) -> None:
        body = spec.get("requestBody")
        if isinstance(body, Mapping) and "$ref" in body:
            body = schema_from(body, self.document)
        media = _json_media(body.get("content") if isinstance(body, Mapping) else None)
        if media is None:
            return
        schema = schema_from(media.get("schema"), self.document)
        fields = schema.get("properties") if schema.get("type") == "object" else None
        if isinstance(fields, Mapping) and fields and not set(fields) & set(properties):
            for name, sub in fields.items():
                properties[name], route.locations[name] = sub, "field"
            if body.get("required"):
                required.extend(n for n in schema.get("required") or [] if n in fields)
            return
        properties["body"], route.locations["body"] = schema, "body"
        if body.get("required"):
            required.append("body")

    async def _call(self, route: _Route, value: dict[str, Any], schema: Mapping[str, Any]) -> Any:
        method, url, headers, body = self._request(route, value)
        status, response_headers, data = await self.transport.request(method, url, headers, body)
        result = _decode(data, response_headers.get("content-type", ""))
        if 200 <= status < 300:
            return result if data else {"status": status}
        if status in (400, 422):
            raise InvalidInput(f"HTTP {status}", details=result, status=status)
        if status in (401, 403):
            raise OperationDenied(f"HTTP {status}", details=result, status=status)
        raise OperationError(f"HTTP {status}", details=result, status=status)

    def _request(self, route: _Route, value: dict[str, Any]) -> tuple[str, str, dict[str, str], bytes | None]:
        path = route.path
        query: list[tuple[str, str]] = list(self.query.items())
        headers = {"accept": "application/json", **self.headers}
        cookies, fields, body = [], {}, None
        for name, item in value.items():
            where = route.locations.get(name)
            if where == "path":
                path = path.replace("{" + name + "}", quote(_text(item), safe=""))
            elif where == "query":
                query += [(name, _text(v)) for v in (item if isinstance(item, list) else [item])]
            elif where == "header":
                headers[name] = _text(item)
            elif where == "cookie":
                cookies.append(f"{name}={quote(_text(item), safe='')}")
            elif where == "field":
                fields[name] = item
            elif where == "body":
                body = json.dumps(item).encode("utf-8")
        if fields:
            body = json.dumps(fields).encode("utf-8")
        if body is not None:
            headers["content-type"] = "application/json"
        if cookies:
            headers["cookie"] = "; ".join(cookies)
        url = self.base_url.rstrip("/") + path + (f"?{urlencode(query)}" if query else "")
        return route.method.upper(), url, headers, body


# Headers and query parameters a provider may be configured with that carry no credential:
# their values stay readable (registering "application/json" as a secret would hide it everywhere).
_PLAIN_PARAMETERS = frozenset("""
    accept acceptlanguage acceptencoding contenttype useragent cachecontrol pragma origin referer
    xrequestedwith apiversion xapiversion version format lang language locale
""".split())


def _credentials(headers: Mapping[str, Any], query: Mapping[str, Any]) -> list[str]:
    """The configured header and query values to hide everywhere (all but plain ones)."""
    return [str(value) for name, value in [*headers.items(), *query.items()]
            if isinstance(value, (str, int)) and _norm(str(name)) not in _PLAIN_PARAMETERS]


def _norm(name: str) -> str:
    return re.sub(r"[-_\s]", "", name).lower()


def _parameters(item: Mapping[str, Any], spec: Mapping[str, Any], document: Mapping[str, Any]) -> list[dict]:
    """Path-level parameters overridden by operation-level ones (same name and location)."""
    merged: dict[tuple[Any, Any], dict] = {}
    for raw in [*(item.get("parameters") or []), *(spec.get("parameters") or [])]:
        param = schema_from(raw, document) if isinstance(raw, Mapping) and "$ref" in raw else dict(raw)
        merged[(param.get("name"), param.get("in"))] = param
    return list(merged.values())


def _json_media(content: Any) -> Mapping[str, Any] | None:
    if not isinstance(content, Mapping):
        return None
    for media_type, media in content.items():
        if media_type.split(";")[0].strip() == "application/json" or media_type.endswith("+json"):
            return media if isinstance(media, Mapping) else {}
    return None


def _output_schema(spec: Mapping[str, Any], document: Mapping[str, Any]) -> dict[str, Any] | None:
    responses = spec.get("responses") or {}
    codes = sorted(code for code in map(str, responses) if code.startswith("2")) + ["default"]
    for code in codes:
        response = responses.get(code, responses.get(int(code)) if code.isdigit() else None)
        if isinstance(response, Mapping):
            if "$ref" in response:
                response = schema_from(response, document)
            media = _json_media(response.get("content"))
            if media is not None and media.get("schema") is not None:
                return schema_from(media["schema"], document)
    return None


def _decode(data: bytes, content_type: str) -> Any:
    if not data:
        return None
    return summarise_bytes(data, content_type.split(";")[0].strip() or None)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def _operation_name(operation_id: Any, method: str, path: str) -> str:
    if isinstance(operation_id, str) and operation_id.strip():
        return re.sub(r"[^A-Za-z0-9_.\-]", "_", operation_id.strip())
    words = []
    for segment in [s for s in path.split("/") if s]:
        param = re.fullmatch(r"\{(.+)\}", segment)
        parts = re.split(r"[^A-Za-z0-9]+", param.group(1) if param else segment)
        text = "".join(part[:1].upper() + part[1:] for part in parts)
        words.append(f"By{text}" if param else text)
    return method + "".join(words)


def _namespace(info: Mapping[str, Any]) -> str:
    explicit = info.get("x-onetool-namespace")
    if isinstance(explicit, str) and explicit:
        return explicit
    slug = re.sub(r"[^a-z0-9]+", "", str(info.get("title", "")).lower())
    if not slug:
        raise ValueError("OpenApiProvider: pass namespace=... (the document's info has no usable title)")
    return slug


def _base_url(document: Mapping[str, Any], base_url: str | None) -> str:
    if base_url:
        return base_url
    servers = document.get("servers") or []
    server = servers[0] if servers and isinstance(servers[0], Mapping) else {}
    url = str(server.get("url", ""))
    for name, variable in (server.get("variables") or {}).items():
        url = url.replace("{" + name + "}", str((variable or {}).get("default", "")))
    if not re.match(r"^[a-z][a-z0-9+.-]*://", url, re.IGNORECASE):
        raise ValueError(f"OpenApiProvider: the document has no absolute server URL ({url!r}); pass base_url=...")
    return url
