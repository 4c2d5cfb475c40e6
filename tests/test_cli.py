"""The command line entry point (`python -m onetool_wasm`)."""
from __future__ import annotations

import json

from onetool_wasm.__main__ import main


def test_run_prints_the_text_block_and_exits_with_its_code(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    assert main(["--root", str(tmp_path), "run", "cat /a.txt | wc -l"]) == 0
    assert capsys.readouterr().out.startswith("2\n\n[exit:0 | ")
    assert main(["--root", str(tmp_path), "run", "cat /nope"]) == 1
    assert capsys.readouterr().out.startswith("[error] cat: /nope: No such file or directory\n\n[exit:1 | ")


def test_grammar_flag_selects_the_strict_grammar(tmp_path, capsys):
    assert main(["--root", str(tmp_path), "--grammar", "strict", "run", "cat /nope"]) == 1
    assert capsys.readouterr().out.startswith("[error] cat: file not found: /nope. Use: ls /\n\n[exit:1 | ")
    assert main(["--grammar", "strict", "run", "echo $HOME"]) == 2
    assert "variable expansion '$HOME' is not supported" in capsys.readouterr().out
    assert main(["run", "cd /tmp 2>/dev/null || mkdir /tmp && cd /tmp && pwd && echo $((6 * 7))"]) == 0
    assert capsys.readouterr().out.startswith("/tmp\n42\n\n[exit:0 | ")


def test_run_writes_through_to_the_directory(tmp_path, capsys):
    main(["--root", str(tmp_path), "run", "write /out/r.txt hello"])
    assert (tmp_path / "out" / "r.txt").read_text() == "hello"


def test_tool_definition_formats(capsys):
    main(["tool-definition", "--format", "mcp", "--variant", "terse"])
    definition = json.loads(capsys.readouterr().out)
    assert sorted(definition) == ["description", "inputSchema", "name"]
    assert definition["inputSchema"]["required"] == ["command"]
