"""What hosts plug in behind `search` and `fetch`: the protocols and their result types.

An adapter method may be sync or async; commands await it when it returns an awaitable.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Protocol, Union


@dataclass(frozen=True)
class SearchHit:
    title: str
    snippet: str
    source: str = ""


@dataclass(frozen=True)
class FetchResponse:
    content_type: str
    payload: Any  # str, bytes, or a JSON-compatible value


class SearchAdapter(Protocol):
    def search(self, query: str, limit: int = 10) -> Union[list[SearchHit], Awaitable[list[SearchHit]]]: ...


class FetchAdapter(Protocol):
    def fetch(self, resource: str) -> Union[FetchResponse, Awaitable[FetchResponse]]: ...
