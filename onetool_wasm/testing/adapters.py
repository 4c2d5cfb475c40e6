"""Deterministic search and fetch adapters over in-memory data, for worlds and tests."""
from __future__ import annotations

import copy
import re
from typing import Any, Iterable, Mapping

from ..adapters import FetchResponse, SearchHit
from ..commands.registry import c_locale_key
from .files import file_bytes

SNIPPET_CHARS = 160


def search_tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9_]+", text.lower()))


class DemoSearch:
    """Ranks documents by how many query words they contain, then by title."""

    def __init__(self, docs: Iterable[Mapping[str, str]]) -> None:
        self.docs = [{"title": d["title"], "body": d["body"], "source": d.get("source", "")} for d in docs]

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        wanted = search_tokens(query)
        scored = []
        for doc in self.docs:
            overlap = len(wanted & search_tokens(f"{doc['title']}\n{doc['body']}"))
            if overlap:
                scored.append((-overlap, c_locale_key(doc["title"]), doc))
        scored.sort(key=lambda entry: entry[:2])
        return [SearchHit(doc["title"], snippet(doc["body"]), doc["source"]) for *_, doc in scored[:limit]]


def snippet(body: str) -> str:
    text = " ".join(body.split())
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS - 3] + "..."


class DemoFetch:
    """Serves fixed resources: bytes as octet-stream, str as text, anything else as JSON."""

    def __init__(self, resources: Mapping[str, Any]) -> None:
        self.resources = {name: _payload(value) for name, value in resources.items()}

    async def fetch(self, resource: str) -> FetchResponse:
        if resource not in self.resources:
            raise LookupError(f"resource not found: {resource}")
        payload = copy.deepcopy(self.resources[resource])
        if isinstance(payload, (bytes, bytearray)):
            return FetchResponse("application/octet-stream", bytes(payload))
        if isinstance(payload, str):
            return FetchResponse("text/plain", payload)
        return FetchResponse("application/json", payload)


def _payload(value: Any) -> Any:
    """Corpus-style binary resources ({"kind": "bytes", "data_b64": ...}) become bytes."""
    if isinstance(value, Mapping) and value.get("kind") == "bytes":
        return file_bytes(value)
    return copy.deepcopy(value)
