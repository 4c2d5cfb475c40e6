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


# -- helpers -------------------------------------------------------------------------------------

import base64  # noqa: E402
import io  # noqa: E402
import os  # noqa: E402
import select  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from onetool_wasm import __version__  # noqa: E402
from onetool_wasm.__main__ import parse_args  # noqa: E402

from .helpers import IN_PYODIDE  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
needs_processes = pytest.mark.skipif(IN_PYODIDE or sys.platform == "win32",
                                     reason="starts processes and pseudo-terminals")


def both_positions(options: list[str], action: str, *rest: str) -> list[list[str]]:
    """The same options before the subcommand, and after it."""
    return [[*options, action, *rest], [action, *rest, *options]]


def repl_with_input(monkeypatch, argv: list[str], text: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return main([*argv, "repl"])


# -- flags ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("position", [0, 1])
def test_root_before_or_after_the_subcommand(tmp_path, capsys, position):
    (tmp_path / "a.txt").write_text("one\n")
    argv = both_positions(["--root", str(tmp_path)], "run", "cat /a.txt")[position]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("one\n\n[exit:0 | ")


def test_a_missing_root_is_an_error_unless_created(tmp_path, capsys):
    missing = tmp_path / "typo"
    for argv in both_positions(["--root", str(missing)], "run", "ls /"):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert f"--root {missing}: no such directory (add --create-root to create it)" in captured.err
    assert not missing.exists()
    (tmp_path / "file").write_text("")
    assert main(["--root", str(tmp_path / "file"), "run", "ls /"]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["run", "write /made.txt yes", "--root", str(missing), "--create-root"]) == 0
    assert (missing / "made.txt").read_text() == "yes"
    assert main(["--create-root", "run", "ls /"]) == 2
    assert "--create-root needs --root" in capsys.readouterr().err


@pytest.mark.parametrize("position", [0, 1])
def test_preset_flag(tmp_path, capsys, position):
    assert main(both_positions(["--preset", "textOnly"], "run", "ls /")[position]) == 127
    capsys.readouterr()
    argv = both_positions(["--preset", "readOnly", "--root", str(tmp_path)], "run", "echo hi > /x.txt")[position]
    assert main(argv) != 0
    assert "read-only" in capsys.readouterr().out
    assert not (tmp_path / "x.txt").exists()
    with pytest.raises(SystemExit):
        parse_args(["--preset", "everything", "run", "ls"])


@pytest.mark.parametrize("position", [0, 1])
def test_output_limit_flags(capsys, position):
    assert main(both_positions(["--max-lines", "3", "--max-bytes", "1000"], "run", "seq 1 10")[position]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1\n2\n3\n") and "4\n" not in out.split("\n\n")[0]
    assert "/.system/cmd-output/cmd-0001.txt" in out
    assert main(both_positions(["--max-bytes", "4"], "run", "seq 100 200")[position]) == 0
    assert not capsys.readouterr().out.startswith("100\n101\n")
    with pytest.raises(SystemExit):
        parse_args(["--max-lines", "-1", "run", "ls"])


@pytest.mark.parametrize("position", [0, 1])
def test_deadline_flag(capsys, position):
    started = time.monotonic()
    assert main(both_positions(["--deadline-ms", "300"], "run", "while true; do :; done")[position]) == 124
    assert time.monotonic() - started < 10
    assert "longer than its 0.3 s limit" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        parse_args(["--deadline-ms", "0", "run", "ls"])


@pytest.mark.parametrize("position", [0, 1])
def test_grammar_flag_in_both_positions(capsys, position):
    assert main(both_positions(["--grammar", "strict"], "run", "echo $HOME")[position]) == 2
    assert "variable expansion '$HOME' is not supported" in capsys.readouterr().out


@pytest.mark.parametrize("position", [0, 1])
def test_variant_flag_is_global(capsys, position, monkeypatch):
    main(both_positions(["--variant", "terse"], "tool-definition", "--format", "mcp")[position])
    terse = json.loads(capsys.readouterr().out)["description"]
    main(["tool-definition", "--format", "mcp"])
    full = json.loads(capsys.readouterr().out)["description"]
    assert len(terse) < len(full)
    # mcp hands the variant to the server.
    import onetool_wasm.mcp as mcp_module
    seen = {}

    async def fake_serve(runtime, **options):
        seen.update(options)
    monkeypatch.setattr(mcp_module, "serve_stdio", fake_serve)
    assert main(both_positions(["--variant", "minimal-tool-description"], "mcp")[position]) == 0
    assert seen == {"description_variant": "minimal-tool-description", "layout": None}


@pytest.mark.parametrize("position", [0, 1])
def test_session_flag(monkeypatch, capsys, position):
    argv = both_positions(["--session"], "repl")[position]
    monkeypatch.setattr(sys, "stdin", io.StringIO("x=5; cd /tmp 2>/dev/null || mkdir -p /tmp; cd /tmp\necho $x $PWD\n"))
    assert main(argv) == 0
    assert "5 /tmp\n" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("x=5\necho \"[$x]\"\n"))
    assert main(["repl"]) == 0
    assert "[]\n" in capsys.readouterr().out


@pytest.mark.parametrize("position", [0, 1])
def test_version_flag(capsys, position):
    with pytest.raises(SystemExit) as exited:
        main(both_positions(["--version"], "run", "ls")[position])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"onetool-wasm {__version__}\n"


@pytest.mark.parametrize("position", [0, 1])
def test_policy_flag_inline_or_file_declines_without_a_terminal(tmp_path, capsys, monkeypatch, position):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no TTY: nobody can say yes
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("keep me")
    policy_file = tmp_path / "policy.json"
    policy_file.write_text('{"mode": "guided", "allow": ["fs:mkdir"]}')
    for policy in ('{"mode": "guided"}', str(policy_file)):
        argv = both_positions(["--root", str(root), "--policy", policy], "run", "rm /a.txt")[position]
        assert main(argv) == 1
        assert "fs:rm was declined by the user; nothing was run" in capsys.readouterr().out
        assert (root / "a.txt").exists()
    assert main(["--root", str(root), "--policy", str(policy_file), "run", "mkdir /d && cat /a.txt"]) == 0
    assert capsys.readouterr().out.startswith("keep me")
    assert main(["--policy", '{"mode": "strict"}', "run", "cat /nope"]) == 1
    assert "denied by policy" in capsys.readouterr().out


def test_bad_policies_are_usage_errors(tmp_path, capsys):
    for policy, message in (("{nope", "not valid JSON"), ('{"mode": "loose"}', "policy mode must be one of"),
                            ('{"alow": []}', "unknown policy option: alow"),
                            (str(tmp_path / "missing.json"), "No such file")):
        assert main(["--policy", policy, "run", "ls"]) == 2
        captured = capsys.readouterr()
        assert message in captured.err and captured.out == ""


# -- run: exit status, --json ---------------------------------------------------------------------

def test_run_exits_with_the_status_of_the_line(capsys):
    assert main(["run", "exit 3"]) == 3
    assert main(["run", "false"]) == 1
    assert main(["run", "nosuchcommand"]) == 127
    assert main(["run", "true && echo ok"]) == 0


def test_run_json(capsys):
    assert main(["run", "--json", "echo héllo; echo oops >&2; exit 4"]) == 4
    data = json.loads(capsys.readouterr().out)
    assert data["commandLine"] == "echo héllo; echo oops >&2; exit 4"
    assert (data["exitCode"], data["stdout"], data["stdoutEncoding"], data["stderr"]) == (4, "héllo\n", "utf-8", "oops")
    assert data["presentation"]["text"].startswith("héllo\n\n[error] oops\n\n[exit:4 | ")
    assert data["trace"][0]["commands"][0]["argv"] == ["echo", "héllo"]
    assert main(["run", "printf '\\x00\\x01\\xff'", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stdoutEncoding"] == "base64" and base64.b64decode(data["stdout"]) == b"\x00\x01\xff"


# -- spill files ----------------------------------------------------------------------------------

def test_spill_files_stay_out_of_the_root(tmp_path, capsys, monkeypatch):
    status = repl_with_input(monkeypatch, ["--root", str(tmp_path)],
                             "seq 1 5000\ncat /.system/cmd-output/cmd-0001.txt | wc -l\nls -A /\n")
    assert status == 0
    out = capsys.readouterr().out
    assert "Full output: /.system/cmd-output/cmd-0001.txt" in out
    assert "\n5000\n" in out
    assert ".system\n" in out  # the mount point shows in listings
    assert not (tmp_path / ".system").exists()
    assert main(["--root", str(tmp_path), "run", "seq 1 5000", "--spill-in-root"]) == 0
    assert (tmp_path / ".system" / "cmd-output" / "cmd-0001.txt").read_text().startswith("1\n2\n")


# -- build.py serve -------------------------------------------------------------------------------

@needs_processes
def test_serve_on_a_busy_port_says_so_before_building():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        started = time.monotonic()
        result = subprocess.run([sys.executable, "build.py", "serve", "--port", str(port)], cwd=REPO,
                                capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - started
    assert result.returncode == 1
    assert result.stdout == ""  # nothing was built
    assert result.stderr.startswith(f"serve: port {port} is in use; try --port ")
    suggested = int(result.stderr.rsplit(" ", 1)[1])
    assert suggested > port or suggested == 0
    assert elapsed < 5, f"took {elapsed:.1f} s: did it build first?"


# -- the REPL through a pseudo-terminal ----------------------------------------------------------

class Terminal:
    """`python -m onetool_wasm ... repl` on a pseudo-terminal it has as its controlling tty."""

    def __init__(self, argv: list[str], home: Path) -> None:
        import fcntl
        import pty
        import termios
        env = dict(os.environ, HOME=str(home), PYTHONPATH=str(REPO), TERM="xterm", INPUTRC=os.devnull,
                   COLUMNS="200", LINES="50")
        self.master, slave = pty.openpty()
        termios_size = (50, 200, 0, 0)
        import struct
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", *termios_size))

        def controlling_tty() -> None:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen([sys.executable, "-m", "onetool_wasm", *argv], stdin=slave, stdout=slave,
                                        stderr=slave, env=env, cwd=REPO, start_new_session=True,
                                        preexec_fn=controlling_tty)
        os.close(slave)
        self.output = b""
        self.position = 0

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def expect(self, token: bytes, timeout: float = 10) -> str:
        """The output from the last match up to and including `token` (which must come)."""
        deadline = time.monotonic() + timeout
        while token not in self.output[self.position:]:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{token!r} did not come within {timeout} s; got "
                                     f"{self.output[self.position:].decode(errors='replace')!r}")
            ready, _, _ = select.select([self.master], [], [], min(remaining, 0.1))
            if ready:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:  # the process ended
                    time.sleep(0.05)
        end = self.output.index(token, self.position) + len(token)
        seen, self.position = self.output[self.position:end], end
        return seen.decode(errors="replace")

    def close(self) -> int:
        try:
            return self.process.wait(10)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            os.close(self.master)


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def start(*argv: str) -> Terminal:
        opened.append(Terminal([*argv, "repl"], tmp_path))
        return opened[-1]
    yield start
    for term in opened:
        if term.process.poll() is None:
            term.process.kill()
            term.process.wait()
            os.close(term.master)


@needs_processes
def test_repl_ctrl_c_history_and_status(terminal, tmp_path):
    term = terminal("--session")
    term.expect(b"run> ")
    term.send(b"echo one\r")
    assert "one\r\n\r\n[exit:0 | " in term.expect(b"run> ")
    # Ctrl-C at the prompt drops the line, as bash does.
    term.send(b"echo partial")
    term.expect(b"partial")
    # A pause, as a person makes: CPython's readline notices a SIGINT only while it waits for
    # a key, so one that lands while it is still drawing the line waits for the next key.
    time.sleep(0.3)
    term.send(b"\x03")
    assert "^C" in term.expect(b"run> ")
    term.send(b"echo after\r")
    seen = term.expect(b"run> ")
    assert "after\r\n" in seen and "partial" not in seen
    # Ctrl-C during a run stops it; the result and the prompt (with the status) come back.
    term.send(b"while true; do :; done\r")
    term.expect(b"done\r\n")
    time.sleep(0.3)
    started = time.monotonic()
    term.send(b"\x03")
    seen = term.expect(b"[130] run> ", timeout=2)
    assert time.monotonic() - started < 2
    assert seen.index("^C") < seen.index("[error] the run was cancelled") < seen.index("[exit:130 | ")
    # A later line works, and clears the status.
    term.send(b"echo later\r")
    assert "later\r\n" in term.expect(b"\nrun> ")
    # Up arrow brings back the previous line.
    term.send(b"\x1b[A")
    term.expect(b"echo later")
    term.send(b"\r")
    assert "later\r\n\r\n[exit:0 | " in term.expect(b"run> ")
    # A failing line shows its status in the prompt; Ctrl-D leaves with it.
    term.send(b"exit 7\r")
    term.expect(b"[7] run> ")
    term.send(b"\x04")
    assert term.close() == 7
    history = (tmp_path / ".onetool_wasm_history").read_text().splitlines()
    assert history[-2:] == ["echo later", "exit 7"]  # the repeated line is kept once
    assert "while true; do :; done" in history and "echo partial" not in history


@needs_processes
def test_repl_asks_before_a_write_under_a_policy(terminal, tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("x")
    term = terminal("--root", str(root), "--policy", '{"mode": "guided"}')
    term.expect(b"run> ")
    term.send(b"rm /a.txt\r")
    assert "Command: rm /a.txt" in term.expect(b"Allow fs:rm (write)? [y/N] ")
    term.send(b"n\r")
    assert "fs:rm was declined by the user" in term.expect(b"run> ")
    assert (root / "a.txt").exists()
    term.send(b"rm /a.txt\r")
    term.expect(b"Allow fs:rm (write)? [y/N] ")
    term.send(b"y\r")
    assert "[exit:0 | " in term.expect(b"run> ")
    assert not (root / "a.txt").exists()
    term.send(b"\x04")
    assert term.close() == 0


@pytest.mark.skipif(IN_PYODIDE, reason="the dev server runs on CPython (a server thread)")
def test_serve_lets_another_origin_load_the_runtime(tmp_path):
    # A JupyterLite on another origin micropip-installs the wheels; a page elsewhere embeds the
    # sandbox: both need CORS and a cross-origin resource policy, while the site stays isolated.
    import urllib.request

    from tools.serve import start_server

    (tmp_path / "wheel.whl").write_bytes(b"PK")
    server = start_server(tmp_path)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/wheel.whl") as response:
            headers = response.headers
    finally:
        server.shutdown()
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert (headers["Cross-Origin-Opener-Policy"], headers["Cross-Origin-Embedder-Policy"]) == (
        "same-origin", "require-corp")
