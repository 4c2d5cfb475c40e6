"""Every fenced Python and shell example of README.md and docs/*.md runs as written on CPython.

The blocks are those tagged python, py, sh, bash, shell or console (`doc_blocks`); a test id
is the file and the line of the opening fence (`docs/OPERATIONS.md:9`).

* Python: each block runs in a fresh namespace (exec, file names and line numbers those of the
  doc) inside its own temporary directory. A `# prints: TEXT` comment (`\\n` for a newline)
  says what the `print` on that line prints: exactly that, durations zeroed
  (`[exit:0 | 0ms]`), with or without the `[exit:N | 0ms]` footer; `TEXT ...` means "starts with".
* Shell: each command line runs through bash, in order, in the block's temporary directory
  (lines naming files of the clone - build.py, tests/, dist/ - in the clone's root, as the
  docs say), with the venv's bin first on PATH (`python` is sys.executable, `onetool-wasm`
  its script) and HOME in the temporary directory. It must exit 0 and print what its
  `# prints:` comment or a console block shows. Lines that do not end on their own are
  driven for real: `python build.py serve` (with `--port 0`) is asked for the playground,
  then stopped with Ctrl-C; an `mcp` server gets an MCP initialize, tools/list and tool calls
  on stdin, then end of input; `repl` reads a line and `exit` from stdin; `pip install`
  installs into a fresh venv, offline.
* Nothing is left out silently: a block or a line is not run only under a marker right above
  its fence, `<!-- docs-test: not run: WHAT (REASON) -->` (WHAT: `this block` or the line),
  and REASON must be one of ALLOWED_REASONS; `test_only_the_marked_examples_are_not_run`
  lists every such marker.
"""
from __future__ import annotations

import builtins
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import sysconfig
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from .helpers import IN_PYODIDE, zero_duration

pytestmark = pytest.mark.skipif(IN_PYODIDE, reason="the examples start processes (no subprocesses inside Pyodide) "
                                                   "and event loops of their own (asyncio.run)")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", *sorted(f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md")))
PYTHON = ("python", "py")
SHELL = ("sh", "bash", "shell", "console")
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<language>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
MARKER = re.compile(r"^[ \t]*<!-- docs-test: not run: (?P<what>.+?) \((?P<reason>[^()]+)\) -->[ \t]*$")
THIS_BLOCK = "this block"
# Why an example may be left out here, and the file that runs it instead (None: nothing can).
ALLOWED_REASONS = {
    "the whole suite, this test among it": None,
    "needs a browser and a served site: e2e/test_readme_snippets.py runs it": "e2e/test_readme_snippets.py",
    "needs Pyodide: tests/pyodide/micropip_install.mjs runs it": "tests/pyodide/micropip_install.mjs",
    "the pyodide stage of build.py test runs it": "build.py",
    "pytest tests of the pytest plugin: e2e/test_pytest_plugin.py runs them": "e2e/test_pytest_plugin.py",
    "needs a JupyterLite build: verified by hand, see Versions": None,
}
PRINTS = re.compile(r"#\s*prints:\s?(?P<text>.*?)\s*$")
FOOTER = re.compile(r"\n\n\[exit:\d+ \| 0ms\]$")
# Lines that name files of the clone run in its root.
CLONE_FILES = re.compile(r"(?:^|[\s\"'(])(?:build\.py|tests/|dist/)")
START = 180.0  # seconds a build, a server or a pip install may take on a busy machine


@dataclass(frozen=True)
class Block:
    doc: str    # README.md, docs/BROWSER.md
    line: int   # the line of the opening fence (1-based)
    language: str
    body: str
    not_run: tuple[tuple[str, str], ...]  # (what, reason) of the markers right above the fence

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def runs(self) -> bool:
        return not any(what == THIS_BLOCK for what, _ in self.not_run)

    def skipped_lines(self) -> set[str]:
        return {what for what, _ in self.not_run if what != THIS_BLOCK}


def doc_blocks(languages=PYTHON + SHELL) -> list[Block]:
    """The fenced blocks of these languages in README.md and docs/*.md, in order; the
    `docs-test` markers on the lines right above a fence belong to that block."""
    found = []
    for doc in DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        lines = text.split("\n")
        for match in FENCE.finditer(text):
            if match.group("language").lower() not in languages:
                continue
            line = text.count("\n", 0, match.start()) + 1
            markers, above = [], line - 2
            while above >= 0 and (marker := MARKER.match(lines[above])):
                markers.insert(0, (marker.group("what"), marker.group("reason")))
                above -= 1
            indent = match.group("indent")
            body = "".join(text_line[len(indent):] if text_line.startswith(indent) else text_line
                           for text_line in match.group("body").splitlines(keepends=True))
            found.append(Block(doc, line, match.group("language").lower(), body, tuple(markers)))
    return found


BLOCKS = doc_blocks()
PYTHON_BLOCKS = [block for block in BLOCKS if block.language in PYTHON and block.runs]
SHELL_BLOCKS = [block for block in BLOCKS if block.language in SHELL and block.runs]


# -- the selection ----------------------------------------------------------------------------

def test_only_the_marked_examples_are_not_run():
    assert [block.doc for block in PYTHON_BLOCKS].count("README.md") >= 2
    assert {block.doc for block in BLOCKS} >= {"README.md", "docs/BROWSER.md", "docs/OPERATIONS.md",
                                               "docs/WRITING_COMMANDS.md"}
    # Every marker in the docs sits right above a fence of a block found here, and is well formed.
    attached = sum(len(block.not_run) for block in BLOCKS)
    written = [(doc, number + 1, text) for doc in DOCS
               for number, text in enumerate((ROOT / doc).read_text(encoding="utf-8").split("\n"))
               if "docs-test" in text]
    assert all(MARKER.match(text) for _, _, text in written), written
    assert attached == len(written), written
    # What is not run, and why: nothing else.
    not_run = [(block.doc, what, reason) for block in BLOCKS for what, reason in block.not_run]
    assert not_run == [
        ("README.md", "python build.py test", "the whole suite, this test among it"),
        ("README.md", THIS_BLOCK, "needs a browser and a served site: e2e/test_readme_snippets.py runs it"),
        ("README.md", THIS_BLOCK, "pytest tests of the pytest plugin: e2e/test_pytest_plugin.py runs them"),
        ("docs/BROWSER.md", THIS_BLOCK, "needs Pyodide: tests/pyodide/micropip_install.mjs runs it"),
        ("docs/BROWSER.md", "node --experimental-wasm-stack-switching tests/pyodide/micropip_install.mjs",
         "the pyodide stage of build.py test runs it"),
        ("docs/JUPYTERLITE.md", THIS_BLOCK, "needs a JupyterLite build: verified by hand, see Versions"),
        ("docs/JUPYTERLITE.md", THIS_BLOCK, "needs a JupyterLite build: verified by hand, see Versions"),
        ("docs/JUPYTERLITE.md", THIS_BLOCK, "needs a JupyterLite build: verified by hand, see Versions"),
        ("docs/JUPYTERLITE.md", THIS_BLOCK, "needs a JupyterLite build: verified by hand, see Versions"),
        ("docs/JUPYTERLITE.md", THIS_BLOCK, "needs a JupyterLite build: verified by hand, see Versions"),
        ("docs/JUPYTERLITE.md", THIS_BLOCK, "needs a JupyterLite build: verified by hand, see Versions"),
        ("docs/TESTING_PAGES.md", THIS_BLOCK, "pytest tests of the pytest plugin: e2e/test_pytest_plugin.py runs them"),
    ]
    for block in BLOCKS:
        for what, reason in block.not_run:
            assert reason in ALLOWED_REASONS, (block.id, reason)
            runner = ALLOWED_REASONS[reason]
            if runner is not None:
                assert block.doc in (ROOT / runner).read_text(encoding="utf-8"), (block.id, runner)
            if what != THIS_BLOCK:
                assert [line for line, _ in shell_lines(block) if not_run_here(block, line)], (block.id, what)
    # The examples for a browser (Playwright) or Pyodide (micropip) are exactly the blocks marked.
    browser = [block.id for block in BLOCKS
               if re.search(r"page\.goto\(|^import micropip|^def test_\w+\(onetool_", block.body, re.MULTILINE)]
    assert browser == [block.id for block in BLOCKS if not block.runs and block.doc != "docs/JUPYTERLITE.md"]


def test_block_ids_are_file_and_line():
    lines = (ROOT / "docs/OPERATIONS.md").read_text(encoding="utf-8").split("\n")
    for block in (block for block in BLOCKS if block.doc == "docs/OPERATIONS.md"):
        assert lines[block.line - 1] == "```python"
        assert "\n".join(lines[block.line:block.line + block.body.count("\n")]) + "\n" == block.body


# -- Python ---------------------------------------------------------------------------------

NOTES_SERVER = ROOT / "tests" / "data" / "mcp_notes_server.py"
NOTES_TOOLS = ["notes__read_note", "notes__delete_note"]


def prepare(directory: Path) -> None:
    """What the examples take as given: `notes_server.py`, an MCP server of the reader's
    (docs/OPERATIONS.md, the README's `--mcp-server notes=...`)."""
    (directory / "notes_server.py").write_text(NOTES_SERVER.read_text(encoding="utf-8"), encoding="utf-8")


def shows(expected: str, printed: str) -> bool:
    """`# prints: TEXT` holds for this printed text (see the module's docstring)."""
    want = expected.replace("\\n", "\n")
    got = zero_duration(printed.removesuffix("\n"))
    if want.endswith(" ..."):
        return got.startswith(want[:-len(" ...")])
    return want in (got, FOOTER.sub("", got))


def expected_prints(block: Block) -> dict[int, str]:
    """Doc line -> the TEXT of its `# prints:` comment."""
    return {block.line + number: match.group("text")
            for number, text in enumerate(block.body.split("\n"), start=1) if (match := PRINTS.search(text))}


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[block.id for block in PYTHON_BLOCKS])
def test_python_example_runs(block, tmp_path, monkeypatch):
    prepare(tmp_path)
    monkeypatch.chdir(tmp_path)
    filename = str(ROOT / block.doc)
    printed: dict[int, list[str]] = {}

    def recording_print(*values, sep=" ", end="\n", file=None, flush=False):
        if file is not None:
            return builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename != filename:
            frame = frame.f_back
        printed.setdefault(frame.f_lineno if frame else 0, []).append(
            (" " if sep is None else sep).join(map(str, values)) + ("\n" if end is None else end))

    code = compile("\n" * block.line + block.body, filename, "exec")  # line numbers are the doc's
    exec(code, {"__name__": "__main__", "print": recording_print})
    expected = expected_prints(block)
    assert expected, f"{block.id}: no `# prints:` comment says what the example prints"
    wrong = {line: (text, "".join(printed.get(line, ["(nothing printed on this line)"])))
             for line, text in expected.items() if not shows(text, "".join(printed.get(line, [""])))}
    assert not wrong, "\n".join(f"{block.doc}:{line}: # prints: {text}\n  printed: {got!r}"
                                for line, (text, got) in wrong.items())


# -- shell ----------------------------------------------------------------------------------

def shell_lines(block: Block) -> list[tuple[str, str | None]]:
    """(command line, output shown after it or None) of a shell block: continuation lines
    joined; in a console block, `$ ` starts a command and the lines after it are its output."""
    entries: list[tuple[str, str | None]] = []
    pending = ""
    for text in block.body.split("\n"):
        if block.language == "console":
            if text.startswith("$ "):
                entries.append((text[2:], ""))
            elif entries and text:
                command, shown = entries[-1]
                entries[-1] = (command, shown + text + "\n")
            continue
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        text, pending = pending + text, ""
        if text.strip() and not text.lstrip().startswith("#"):
            entries.append((text.strip(), None))
    return entries


def command_words(line: str) -> list[str]:
    return shlex.split(line, comments=True)


def not_run_here(block: Block, line: str) -> bool:
    """A marker above the block names this line (its words, comment aside)."""
    return any(command_words(what) == command_words(line) for what in block.skipped_lines())


VALUE_OPTIONS = {"--root", "--preset", "--max-lines", "--max-bytes", "--deadline-ms", "--policy", "--variant",
                 "--grammar", "--format", "--layout", "--mcp-server"}


def cli_subcommand(words: list[str]) -> str | None:
    """`run`, `repl`, `mcp`, `tool-definition` of an onetool-wasm command line, else None."""
    if words[:3] == ["python", "-m", "onetool_wasm"]:
        rest = words[3:]
    elif words[:1] == ["onetool-wasm"]:
        rest = words[1:]
    else:
        return None
    skip = False
    for word in rest:
        if skip:
            skip = False
        elif word in VALUE_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def shell_env(home: Path, python: str = sys.executable) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    bin_dir = str(Path(python).parent)
    env.update(PATH=bin_dir + os.pathsep + env.get("PATH", ""), HOME=str(home), VIRTUAL_ENV=str(Path(bin_dir).parent),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def run_line(line: str, cwd: Path, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
                          timeout=START)


def check_output(line: str, shown: str | None, result: subprocess.CompletedProcess) -> list[str]:
    problems = []
    if result.returncode != 0:
        problems.append(f"exit {result.returncode}\nstdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-2000:]}")
    if (match := PRINTS.search(line)) and not shows(match.group("text"), result.stdout):
        problems.append(f"# prints: {match.group('text')}\n  printed: {result.stdout!r}")
    if shown is not None and result.stdout != shown:
        problems.append(f"shown: {shown!r}\nprinted: {result.stdout!r}")
    return problems


class Lines:
    """A process's stdout, line by line, with a deadline per line."""

    def __init__(self, stream):
        self.queue: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for text in stream:
            self.queue.put(text)
        self.queue.put(None)

    def next(self, timeout: float = START) -> str | None:
        text = self.queue.get(timeout=timeout)
        if text is not None:
            self.seen.append(text)
        return text


def drive_serve(line: str, env: dict[str, str]) -> list[str]:
    """`python build.py serve`: built and served on a free port (`--port 0`); the playground
    is fetched with its cross-origin isolation headers; Ctrl-C stops it (exit 0)."""
    process = subprocess.Popen([*command_words(line), "--port", "0"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output = Lines(process.stdout)
    try:
        address = None
        while address is None and (text := output.next()) is not None:
            if match := re.match(r"serving \S+ at (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)$", text.rstrip("\n")):
                address = match.group(1)
        assert address, "".join(output.seen)
        with urllib.request.urlopen(address + "index.html", timeout=30) as response:
            page = response.read().decode()
            headers = (response.status, response.headers["Cross-Origin-Opener-Policy"],
                       response.headers["Cross-Origin-Embedder-Policy"])
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    problems = []
    if headers != (200, "same-origin", "require-corp") or "<title>onetool-wasm playground</title>" not in page:
        problems.append(f"{address}index.html: {headers}")
    while output.next(timeout=10) is not None:
        pass
    if code != 0 or output.seen[-1] != "stopped\n":
        problems.append(f"after Ctrl-C: exit {code}, output {''.join(output.seen)[-500:]!r}")
    return problems


def mcp_message(method: str, params: dict | None = None, id: int | None = None) -> str:
    message = {"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {}),
               **({"id": id} if id is not None else {})}
    return json.dumps(message) + "\n"


def drive_mcp(line: str, cwd: Path, env: dict[str, str]) -> list[str]:
    """An `mcp` stdio server: initialize, tools/list, a `run` call (and a call of another
    server's tool when it has `--mcp-server`), then end of input: it must exit 0."""
    words = command_words(line)
    with_notes = any(word.startswith("notes=") for word in words)
    process = subprocess.Popen(["bash", "-c", line], cwd=cwd, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    output = Lines(process.stdout)

    def ask(id: int, method: str, params: dict) -> dict:
        process.stdin.write(mcp_message(method, params, id))
        process.stdin.flush()
        while (text := output.next()) is not None:
            message = json.loads(text)
            if message.get("id") == id:
                return message
        raise AssertionError(f"{method}: the server ended: {process.stderr.read()[-2000:]}")

    try:
        initialized = ask(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                            "clientInfo": {"name": "docs-test", "version": "1"}})
        process.stdin.write(mcp_message("notifications/initialized"))
        tools = [tool["name"] for tool in ask(2, "tools/list", {})["result"]["tools"]]
        ran = ask(3, "tools/call", {"name": "run", "arguments": {"command": "echo docs | wc -c"}})["result"]
        note = ask(4, "tools/call", {"name": "notes__read_note", "arguments": {"name": "todo"}})["result"] \
            if with_notes else None
        process.stdin.close()
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    problems = []
    if initialized["result"]["serverInfo"]["name"] != "onetool-wasm":
        problems.append(f"initialize: {initialized}")
    if tools != ["run", *(NOTES_TOOLS if with_notes else [])]:
        problems.append(f"tools: {tools}")
    if zero_duration(ran["content"][0]["text"]) != "5\n\n[exit:0 | 0ms]" or ran["isError"]:
        problems.append(f"run: {ran}")
    if with_notes and note["structuredContent"]["text"] != "buy milk":
        problems.append(f"notes__read_note: {note}")
    if code != 0:
        problems.append(f"exit {code} after end of input")
    return problems


def drive_pip(line: str, tmp_path: Path, env: dict[str, str]) -> list[str]:
    """`pip install ...`: into a fresh venv, offline (PIP_NO_INDEX, PIP_FIND_LINKS=dist/site/wheels).
    The [mcp] extra's packages are not among the site's wheels: the project venv's packages
    (onetool_wasm and the packaging tools left out) are layered read-only under the fresh one
    by a .pth, so pip finds them installed; the wheel itself is installed for real."""
    venv = tmp_path / "fresh-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=START)
    python = venv / "bin" / "python"
    site_packages = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        check=True, capture_output=True, text=True).stdout.strip())
    layer = tmp_path / "layer"
    layer.mkdir()
    own = ("onetool_wasm", "_editable_impl_onetool_wasm", "__editable__", "pip", "setuptools", "_distutils_hack",
           "distutils-precedence", "pkg_resources", "__pycache__")
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(own):
            (layer / entry.name).symlink_to(entry)
    (site_packages / "docs_test_layer.pth").write_text(str(layer) + "\n", encoding="utf-8")
    pip_env = {**shell_env(tmp_path, str(python)), "PIP_NO_INDEX": "1",
               "PIP_FIND_LINKS": str(ROOT / "dist" / "site" / "wheels"), "PIP_NO_CACHE_DIR": "1"}
    installed = run_line(line, ROOT, pip_env)
    problems = check_output(line, None, installed)
    where = subprocess.run([python, "-c", "import mcp, onetool_wasm; print(onetool_wasm.__file__)"],
                           capture_output=True, text=True, env=pip_env, cwd=tmp_path)
    if not where.stdout.startswith(str(site_packages / "onetool_wasm")):
        problems.append(f"onetool_wasm imported from {where.stdout!r} {where.stderr[-500:]!r}")
    ran = run_line("onetool-wasm run 'echo installed'", tmp_path, pip_env)  # the fresh venv's script
    if zero_duration(ran.stdout) != "installed\n\n[exit:0 | 0ms]\n":
        problems.append(f"onetool-wasm run: {ran.stdout!r} {ran.stderr[-500:]!r}")
    return problems


REPL_INPUT = "echo hi from the repl\nexit\n"


def run_shell_line(line: str, shown: str | None, cwd: Path, tmp_path: Path, env: dict[str, str]) -> list[str]:
    """Run one line of a shell block (the kinds of line that do not end alone driven as the
    module's docstring says); the problems found."""
    words = command_words(line)
    tmp_path.mkdir(exist_ok=True)
    if words[:3] == ["python", "build.py", "serve"]:
        return drive_serve(line, env)
    if cli_subcommand(words) == "mcp":
        return drive_mcp(line, cwd, env)
    if words[:2] == ["pip", "install"]:
        return drive_pip(line, tmp_path, env)
    if cli_subcommand(words) == "repl":
        result = run_line(line, cwd, env, stdin=REPL_INPUT)
        return check_output(line, "hi from the repl\n\n[exit:0 | 0ms]\n",
                            subprocess.CompletedProcess(result.args, result.returncode,
                                                        zero_duration(result.stdout), result.stderr))
    return check_output(line, shown, run_line(line, cwd, env))


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=[block.id for block in SHELL_BLOCKS])
def test_shell_example_runs(block, tmp_path):
    prepare(tmp_path)
    env = shell_env(tmp_path)
    problems = []
    for line, shown in shell_lines(block):
        if not_run_here(block, line):
            continue
        cwd = ROOT if CLONE_FILES.search(line) else tmp_path
        started = time.monotonic()
        found = run_shell_line(line, shown, cwd, tmp_path, env)
        if found and cwd == ROOT:  # another build may have been rewriting dist/ at that moment: once more
            found = run_shell_line(line, shown, cwd, tmp_path / "again", env)
        problems += [f"{block.id}: {line}\n{problem}" for problem in found]
        print(f"{block.id}: {time.monotonic() - started:.1f}s {line}")
    assert not problems, "\n\n".join(problems)
