"""SimpleMemory: a runtime-scoped list of notes with recency and keyword-overlap recall."""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_TOKEN = re.compile(r"[a-z0-9_]+")


@dataclass(frozen=True)
class MemoryItem:
    id: int
    text: str
    created_epoch_ms: int
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The upstream JSON shape (`createdEpochMs`)."""
        return {"id": self.id, "text": self.text, "createdEpochMs": self.created_epoch_ms,
                "metadata": dict(self.metadata)}


def tokenize_for_search(text: str) -> set[str]:
    """Lower-cased ASCII word tokens (letters, digits, underscore)."""
    return set(_TOKEN.findall(text.lower()))


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class SimpleMemory:
    def __init__(self, now_ms: Callable[[], int] | None = None) -> None:
        self._now_ms = now_ms or wall_clock_ms
        self._items: list[MemoryItem] = []
        self._next_id = 1

    def store(self, text: str, metadata: dict[str, Any] | None = None) -> MemoryItem:
        """Keep `text`; ids count from 1 and the clock is read once per item."""
        item = MemoryItem(self._next_id, text, self._now_ms(), dict(metadata or {}))
        self._next_id += 1
        self._items.append(item)
        return item

    def recent(self, limit: int = 10) -> list[MemoryItem]:
        """The last `limit` items, newest first (limit <= 0 gives none)."""
        if limit <= 0:
            return []
        return self._items[-limit:][::-1]

    def search(self, query: str, limit: int = 10) -> list[MemoryItem]:
        """Items sharing at least one token with `query`, most shared tokens first, then
        newest first; a query without tokens falls back to `recent`."""
        wanted = tokenize_for_search(query)
        if not wanted:
            return self.recent(limit)
        scored = []
        for item in self._items:
            overlap = len(wanted & tokenize_for_search(item.text))
            if overlap:
                scored.append((overlap, item))
        # Stable sort: items equal in score and time keep their insertion order, as upstream.
        scored.sort(key=lambda pair: (-pair[0], -pair[1].created_epoch_ms))
        return [item for _, item in scored[:max(limit, 0)]]

    def items(self) -> list[MemoryItem]:
        """Every item, oldest first."""
        return list(self._items)

    def export(self) -> list[dict[str, Any]]:
        """Every item in the upstream JSON shape, oldest first."""
        return [item.to_dict() for item in self._items]

    def __len__(self) -> int:
        return len(self._items)
