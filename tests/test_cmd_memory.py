"""memory: store, recent and search over the runtime's SimpleMemory."""
from __future__ import annotations

from onetool_wasm.commands import create_command_registry
from onetool_wasm.memory import SimpleMemory
from onetool_wasm.testing import create_test_command_context

from .data_world import fuzz_command, out
from .helpers import call, conformance_test

USAGE = "memory search <query> | memory recent [N] | memory store <text>"


def memory_run(*args, stdin=b"", notes=(), preset=None):
    """Run memory over a fresh SimpleMemory seeded with `notes`; returns (result, memory)."""
    memory = SimpleMemory(now_ms=iter(range(1000, 2000)).__next__)
    for note in notes:
        memory.store(note)
    ctx = create_test_command_context(memory=memory, registry=create_command_registry(preset=preset))
    return call("memory", args, ctx=ctx, stdin=stdin), memory


def test_store_inline_joins_arguments():
    result, memory = memory_run("store", "Acme", "prefers", "Monday")
    assert out(result) == ("stored memory #1\n", "", 0, "text/plain")
    assert [(item.id, item.text) for item in memory.items()] == [(1, "Acme prefers Monday")]


def test_store_from_stdin_drops_the_trailing_newline():
    result, memory = memory_run("store", stdin=b"line one\nline two\n", notes=["old"])
    assert result.stdout == b"stored memory #2\n"
    assert memory.items()[-1].text == "line one\nline two"


def test_store_errors():
    assert memory_run("store")[0].stderr == "memory store: provide text inline or via stdin"
    assert memory_run("store", "  ")[0].stderr == \
        "memory store: nothing to store: the text is empty. Usage: memory store <text>"
    assert memory_run("store", stdin=b"\n")[0].stderr == \
        "memory store: nothing to store: the text is empty. Usage: memory store <text>"
    assert memory_run("store", stdin=b"\x00\x01")[0].stderr == (
        "memory store: stdin is binary (2B). Pipe text only, or save binary data to a file and inspect with stat.")


def test_recent_lists_newest_first():
    notes = [f"note {i}" for i in range(1, 13)]
    assert memory_run("recent", notes=notes)[0].stdout.decode().splitlines() == \
        [f"#{i}  note {i}" for i in range(12, 2, -1)]
    assert memory_run("recent", "2", notes=notes)[0].stdout == b"#12  note 12\n#11  note 11\n"
    assert memory_run("recent", "0", notes=notes)[0].stdout == b"(no memories)\n"
    assert out(memory_run("recent")[0]) == ("(no memories)\n", "", 0, "text/plain")
    assert memory_run("recent", "9" * 5000, notes=["a"])[0].stdout == b"#1  a\n"


def test_recent_errors():
    assert memory_run("recent", "x")[0].stderr == "memory recent: invalid integer: x. Usage: memory recent [N] (N >= 0)"
    assert memory_run("recent", "-1")[0].stderr == \
        "memory recent: invalid integer: -1. Usage: memory recent [N] (N >= 0)"
    assert memory_run("recent", "1", "2")[0].stderr == "memory recent: usage: memory recent [N]"


def test_search_ranks_by_shared_words():
    notes = ["Acme follow-up next Monday", "Escalate payment timeout issue", "payment received from Acme"]
    assert memory_run("search", "payment timeout", notes=notes)[0].stdout == \
        b"#2  Escalate payment timeout issue\n#3  payment received from Acme\n"
    assert memory_run("search", stdin=b"acme\n", notes=notes)[0].stdout == \
        b"#3  payment received from Acme\n#1  Acme follow-up next Monday\n"
    assert memory_run("search", "zebra", notes=notes)[0].stdout == b"(no matches)\n"


def test_search_and_other_errors():
    assert memory_run("search")[0].stderr == "memory search: usage: memory search <query>"
    assert memory_run()[0].stderr == f"memory: usage: {USAGE}"
    assert memory_run("forget")[0].stderr == \
        "memory: unknown subcommand: forget. Use: memory search | memory recent | memory store"


def test_lone_surrogates_in_notes_print_safely():
    result, _ = memory_run("recent", notes=["bad \ud800 text"])
    assert result.stdout == "#1  bad \ufffd text\n".encode()


def test_kind_depends_on_the_subcommand():
    spec = create_command_registry().get("memory")
    assert (spec.group, spec.accepts_stdin, spec.min_args) == ("system", True, 1)
    assert [spec.kind_for(args) for args in (["store", "x"], ["recent"], ["search", "store"], [])] == \
        ["write", "read", "read", "read"]


def test_read_only_preset_refuses_store_but_reads():
    result, memory = memory_run("store", "x", preset="readOnly")
    assert (result.stderr, len(memory)) == ("memory: refused: this runtime is read-only (preset readOnly)", 0)
    assert memory_run("recent", notes=["kept"], preset="readOnly")[0].stdout == b"#1  kept\n"


def test_memory_through_the_runtime():
    from .helpers import run_line
    assert run_line('memory store "Acme prefers Monday" && echo later | memory store && memory recent') == \
        "stored memory #1\nstored memory #2\n#2  later\n#1  Acme prefers Monday\n\n[exit:0 | 0ms]"


test_conformance = conformance_test("memory")


def test_fuzzed_arguments_never_crash():
    fuzz_command("memory", ["store", "recent", "search", "alpha", "5", "-1", "0"])
