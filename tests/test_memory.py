"""SimpleMemory: ids, clock, recency, keyword-overlap search with upstream's ranking."""
from __future__ import annotations

from collections.abc import Callable

from onetool_wasm.memory import MemoryItem, SimpleMemory, tokenize_for_search

from .helpers import counter_clock


def memory_clock() -> Callable[[], int]:
    return counter_clock(1700000000002)


def texts(items: list[MemoryItem]) -> list[str]:
    return [item.text for item in items]


def filled(*notes: str, clock: Callable[[], int] | None = None) -> SimpleMemory:
    memory = SimpleMemory(now_ms=clock or memory_clock())
    for note in notes:
        memory.store(note)
    return memory


def test_store_numbers_items_and_reads_the_clock_once() -> None:
    memory = SimpleMemory(now_ms=memory_clock())
    first = memory.store("Acme prefers Monday")
    second = memory.store("second", metadata={"source": "test"})
    assert first == MemoryItem(1, "Acme prefers Monday", 1700000000002, {})
    assert second == MemoryItem(2, "second", 1700000000003, {"source": "test"})
    assert len(memory) == 2


def test_export_has_the_upstream_shape() -> None:
    # Matches worldAfter.memory of the memory-store-inline record.
    memory = filled("Acme prefers Monday")
    assert memory.export() == [{"id": 1, "text": "Acme prefers Monday", "createdEpochMs": 1700000000002,
                                "metadata": {}}]
    exported = memory.export()
    exported[0]["metadata"]["x"] = 1
    assert memory.items()[0].metadata == {}


def test_recent_is_newest_first() -> None:
    memory = filled("one", "two", "three")
    assert texts(memory.recent()) == ["three", "two", "one"]
    assert texts(memory.recent(2)) == ["three", "two"]
    assert texts(memory.recent(10)) == ["three", "two", "one"]
    assert memory.recent(0) == []
    assert memory.recent(-1) == []
    assert SimpleMemory().recent() == []


def test_recent_defaults_to_ten() -> None:
    memory = filled(*(f"note {n}" for n in range(1, 13)))
    assert [item.id for item in memory.recent()] == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]


def test_search_matches_the_recorded_case() -> None:
    # The memory-search-existing record: one hit, `#2  Escalate payment timeout issue`.
    memory = filled("Acme follow-up next Monday", "Escalate payment timeout issue")
    assert [(item.id, item.text) for item in memory.search("payment timeout")] == \
        [(2, "Escalate payment timeout issue")]


def test_search_ranks_by_overlap_then_newest() -> None:
    memory = filled("alpha beta gamma", "alpha", "beta gamma", "unrelated", "ALPHA!")
    assert texts(memory.search("alpha beta gamma")) == ["alpha beta gamma", "beta gamma", "ALPHA!", "alpha"]
    assert texts(memory.search("alpha beta gamma", limit=2)) == ["alpha beta gamma", "beta gamma"]
    assert memory.search("alpha", limit=0) == []


def test_search_tokens_are_ascii_words() -> None:
    assert tokenize_for_search("Acme follow-up, v2_final! É") == {"acme", "follow", "up", "v2_final"}
    memory = filled("Acme follow-up next Monday", "Escalate payment timeout issue")
    assert texts(memory.search("FOLLOW")) == ["Acme follow-up next Monday"]
    assert memory.search("nothing here") == []


def test_search_without_tokens_falls_back_to_recent() -> None:
    memory = filled("one", "two")
    assert texts(memory.search("!!! ---")) == ["two", "one"]
    assert texts(memory.search("", limit=1)) == ["two"]


def test_equal_score_and_time_keep_insertion_order() -> None:
    memory = filled("same word", "same word again", clock=lambda: 5)
    assert [item.id for item in memory.search("same word")] == [1, 2]


def test_repeated_query_tokens_count_once() -> None:
    memory = filled("alpha alpha", "alpha beta")
    assert texts(memory.search("alpha alpha alpha beta")) == ["alpha beta", "alpha alpha"]


def test_items_returns_a_copy_oldest_first() -> None:
    memory = filled("one", "two")
    items = memory.items()
    items.clear()
    assert texts(memory.items()) == ["one", "two"]


def test_default_clock_is_wall_time() -> None:
    import time
    before = time.time_ns() // 1_000_000
    item = SimpleMemory().store("x")
    assert before <= item.created_epoch_ms <= time.time_ns() // 1_000_000
