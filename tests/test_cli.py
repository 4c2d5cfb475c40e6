"""The command line entry point (`python -m onetool_wasm`)."""
from __future__ import annotations

import json

from onetool_wasm.__main__ import main


def test_run_prints_the_text_block_and_exits_with_its_code(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    assert main(["--root", str(tmp_path), "run", "cat /a.txt | wc -l"]) == 0
    assert capsys.readouterr().out.startswith("2\n\n[exit:0 | ")
    assert main(["--root", str(tmp_path), "run", "cat /nope"]) == 1
    assert capsys.readouterr().out.startswith("[error] cat: file not found: /nope. Use: ls /\n\n[exit:1 | ")


def test_run_writes_through_to_the_directory(tmp_path, capsys):
    main(["--root", str(tmp_path), "run", "write /out/r.txt hello"])
    assert (tmp_path / "out" / "r.txt").read_text() == "hello"


def test_tool_definition_formats(capsys):
    main(["tool-definition", "--format", "mcp", "--variant", "terse"])
    definition = json.loads(capsys.readouterr().out)
    assert sorted(definition) == ["description", "inputSchema", "name"]
    assert definition["inputSchema"]["required"] == ["command"]
