"""Command line: `python -m onetool_wasm run|repl|mcp|tool-definition`.

Every option goes before or after the subcommand (`--root ./w run 'ls'` or `run 'ls' --root ./w`).
The terminal code (line editing, Ctrl-C, consent prompts) lives here only: the library itself
also runs in Pyodide.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import shlex
import os
import signal
import sys
import tempfile
import threading
from typing import Any, Callable

from . import __version__
from .commands.selection import PRESETS
from .consent import ConsentRequest
from .policy import Policy
from .result import OCTET
from .runtime import GRAMMARS, AgentCLI, RunExecution, create_agent_cli
from .tooldef import FORMATS, VARIANTS, build_tool_definition
from .vfs import DirectoryVFS, MemoryVFS
from .vfs.mount import MountVFS

PROG = "onetool-wasm"
HISTORY_FILE = "~/.onetool_wasm_history"
HISTORY_LENGTH = 1000
INTERRUPTED = 130


class UsageError(Exception):
    """A bad option: reported on stderr, exit status 2."""


# -- arguments ------------------------------------------------------------------------------

def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    return parse


def _add_global_options(parser: argparse.ArgumentParser, with_defaults: bool) -> None:
    """The options every subcommand takes. Behind a subcommand their default is SUPPRESS, so
    a value given before the subcommand is not overwritten."""
    def default(value: Any) -> Any:
        return value if with_defaults else argparse.SUPPRESS

    where = parser.add_argument_group("options (before or after the subcommand)")
    where.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    where.add_argument("--root", metavar="DIR", default=default(None),
                       help="an existing directory to work in (default: an empty in-memory file system)")
    where.add_argument("--create-root", action="store_true", default=default(False),
                       help="create the --root directory if it is missing")
    where.add_argument("--spill-in-root", action="store_true", default=default(False),
                       help="keep long outputs (/.system/cmd-output/) in the --root directory "
                            "(default: a private temporary folder, removed at exit)")
    where.add_argument("--preset", choices=tuple(PRESETS), default=default("full"),
                       help="the built-in commands: full (default), readOnly, filesystem, textOnly, dataOnly")
    where.add_argument("--max-lines", type=_count(0), metavar="N", default=default(None),
                       help="lines of output shown before the rest is saved to a file")
    where.add_argument("--max-bytes", type=_count(0), metavar="N", default=default(None),
                       help="bytes of output shown before the rest is saved to a file")
    where.add_argument("--deadline-ms", type=_count(1), metavar="N", default=default(None),
                       help="wall time one command line may take (default 30000)")
    where.add_argument("--policy", metavar="FILE_OR_JSON", default=default(None),
                       help="a policy (a JSON file, or inline JSON such as '{\"mode\": \"strict\"}'); "
                            "writes it asks about are confirmed on the terminal")
    where.add_argument("--variant", choices=VARIANTS, default=default("full-tool-description"),
                       help="the tool description (tool-definition, mcp)")
    where.add_argument("--grammar", choices=GRAMMARS, default=default("bash"),
                       help="the command language: bash (default) or strict (the upstream one-tool grammar)")
    where.add_argument("--session", action="store_true", default=default(False),
                       help="keep shell variables, functions and the cwd from one command line to the next "
                            "(repl and mcp)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="One `run` tool for AI agents.")
    _add_global_options(parser, with_defaults=True)
    shared = argparse.ArgumentParser(add_help=False)
    _add_global_options(shared, with_defaults=False)
    sub = parser.add_subparsers(dest="action", required=True, metavar="COMMAND")
    run = sub.add_parser("run", parents=[shared],
                         help="run one command line, print the text block a model would see, exit with its status")
    run.add_argument("command_line")
    run.add_argument("--json", action="store_true",
                     help="print the whole run as JSON (stdout as text, or base64 when binary)")
    sub.add_parser("repl", parents=[shared], help="type command lines interactively (history, Ctrl-C stops a run)")
    mcp = sub.add_parser("mcp", parents=[shared], help="serve the run tool over MCP on stdio")
    mcp.add_argument("--layout", choices=("generic", "flat", "auto"), default=None,
                     help="also serve the operations as typed tools (needs --mcp-server)")
    mcp.add_argument("--mcp-server", action="append", default=[], metavar="NAMESPACE=COMMAND",
                     help="another MCP server (stdio) whose tools become operations of NAMESPACE, "
                          "behind `api` and the policy (repeatable)")
    tool = sub.add_parser("tool-definition", parents=[shared], help="print the tool definition as JSON")
    tool.add_argument("--format", choices=FORMATS, default="openai")
    return parser


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    return build_parser().parse_args(argv)


# -- the runtime ----------------------------------------------------------------------------

def check_root(args: argparse.Namespace) -> str | None:
    """The --root directory, made absolute; a missing one is an error unless --create-root."""
    if args.root is None:
        if args.create_root or args.spill_in_root:
            raise UsageError(f"{'--create-root' if args.create_root else '--spill-in-root'} needs --root")
        return None
    root = os.path.abspath(os.path.expanduser(args.root))
    if not os.path.exists(root):
        if not args.create_root:
            raise UsageError(f"--root {args.root}: no such directory (add --create-root to create it)")
        try:
            os.makedirs(root)
        except OSError as error:
            raise UsageError(f"--root {args.root}: cannot create it: {error.strerror}") from None
    elif not os.path.isdir(root):
        raise UsageError(f"--root {args.root}: not a directory")
    return root


def load_policy(value: str | None) -> Policy | None:
    """--policy: inline JSON (starts with `{`) or the path of a JSON file."""
    if value is None:
        return None
    if value.lstrip().startswith("{"):
        text, where = value, "--policy"
    else:
        try:
            with open(os.path.expanduser(value), encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise UsageError(f"--policy {value}: {error.strerror or error}") from None
        where = f"--policy {value}"
    try:
        data = json.loads(text)
    except ValueError as error:
        raise UsageError(f"{where}: not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{where}: a policy is a JSON object")
    try:
        return Policy.from_dict(data)
    except ValueError as error:
        raise UsageError(f"{where}: {error}") from None


def make_vfs(root: str | None, spill_in_root: bool, stack: contextlib.ExitStack) -> Any:
    """A MemoryVFS; or the root directory, with /.system (spill files) in a private temporary
    folder removed at exit, unless --spill-in-root."""
    if root is None:
        return MemoryVFS()
    if spill_in_root:
        return DirectoryVFS(root)
    private = stack.enter_context(tempfile.TemporaryDirectory(prefix="onetool-wasm-"))
    return MountVFS(DirectoryVFS(root), {"/.system": DirectoryVFS(private)})


async def make_runtime(args: argparse.Namespace, vfs: Any, confirm: Any = None) -> AgentCLI:
    output_limits = {key: value for key, value in (("max_lines", args.max_lines), ("max_bytes", args.max_bytes))
                     if value is not None}
    execution_policy = {"deadline_ms": args.deadline_ms} if args.deadline_ms is not None else None
    return await create_agent_cli(vfs=vfs, builtin_commands={"preset": args.preset}, output_limits=output_limits,
                                  execution_policy=execution_policy, policy=load_policy(args.policy),
                                  confirm=confirm, grammar=args.grammar, shell_session=args.session,
                                  providers=mcp_providers(getattr(args, "mcp_server", [])) or None)


def mcp_providers(specs: list[str]) -> list[Any]:
    """--mcp-server NAMESPACE=COMMAND: the server started with COMMAND (split as a shell would)."""
    providers = []
    for spec in specs:
        namespace, eq, command = spec.partition("=")
        words = shlex.split(command) if eq else []
        if not namespace or not words:
            raise UsageError(f"--mcp-server {spec!r}: expected NAMESPACE=COMMAND (e.g. notes='python server.py')")
        from .catalog.mcp_provider import McpProvider
        providers.append(McpProvider(namespace, words[0], words[1:]))
    return providers


# -- running a line from a terminal ---------------------------------------------------------

def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _terminal_echoes_ctrl_c() -> bool:
    """True when the terminal itself shows `^C` when Ctrl-C is typed (cooked mode, ECHOCTL)."""
    try:
        import termios
    except ImportError:
        return False
    try:
        lflag = termios.tcgetattr(sys.stdin.fileno())[3]
    except (termios.error, OSError, ValueError, AttributeError):
        return False
    return bool(lflag & termios.ECHO) and bool(lflag & getattr(termios, "ECHOCTL", 0))


def show_interrupt(already_echoed: bool, stream: Any = None) -> None:
    """End the current terminal line the way bash does after Ctrl-C."""
    stream = stream or sys.stdout
    stream.write("\n" if already_echoed else "^C\n")
    stream.flush()


def event_loop_runner() -> Any:
    """What runs the CLI's coroutines: an asyncio.Runner (one loop for the whole process) on
    CPython; inside Pyodide the page's loop is always running, and asyncio.run finishes a
    coroutine there by stack switching."""
    if sys.platform == "emscripten":
        return _PyodideRunner()
    return asyncio.Runner()


class _PyodideRunner:
    def __enter__(self) -> "_PyodideRunner":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        return None

    def run(self, coroutine: Any) -> Any:
        return asyncio.run(coroutine)


class Terminal:
    """Runs command lines in the main thread. Ctrl-C during a run sets a flag the runtime polls
    (`ctx.cancelled`), so the run stops at its next check and its result is still shown; a
    second Ctrl-C stops waiting for it. Consent questions are asked on the terminal."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.stop = threading.Event()
        self.runtime: AgentCLI | None = None

    def attach(self, runtime: AgentCLI) -> None:
        self.runtime = runtime
        outer = runtime.ctx.cancelled
        runtime.ctx.cancelled = lambda: self.stop.is_set() or outer()

    def run(self, line: str) -> RunExecution:
        """The run's execution; KeyboardInterrupt when a second Ctrl-C gave up on it."""
        assert self.runtime is not None
        self.stop.clear()

        def on_sigint(signum: int, frame: Any) -> None:
            if self.stop.is_set():
                raise KeyboardInterrupt
            self.stop.set()

        if not _on_main_thread():
            return self.runner.run(self.runtime.run_detailed(line))
        previous = signal.signal(signal.SIGINT, on_sigint)
        try:
            return self.runner.run(self.runtime.run_detailed(line))
        finally:
            signal.signal(signal.SIGINT, previous)

    @property
    def interrupted(self) -> bool:
        return self.stop.is_set()

    def confirm(self, request: ConsentRequest) -> str:
        """`Allow fs:rm (write)? [y/N]` on the terminal; no terminal (or EOF, or Ctrl-C) declines.
        Ctrl-C also stops the run."""
        if not _isatty(sys.stdin):
            return "declined"
        question, *details = request.prompt.splitlines()
        err = sys.stderr
        for line in details:
            print(line, file=err)
        err.write(f"{question} [y/N] ")
        err.flush()
        previous = signal.signal(signal.SIGINT, signal.default_int_handler) if _on_main_thread() else None
        try:
            answer = sys.stdin.readline()
        except KeyboardInterrupt:
            self.stop.set()
            err.write("\n" if _terminal_echoes_ctrl_c() else "^C\n")
            return "declined"
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        if not answer:
            err.write("\n")
            return "declined"
        return "approved" if answer.strip().lower() in ("y", "yes") else "declined"


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def run_once(terminal: Terminal, line: str, as_json: bool) -> int:
    echoed = _terminal_echoes_ctrl_c()
    try:
        execution = terminal.run(line)
    except KeyboardInterrupt:
        show_interrupt(echoed, sys.stderr)
        print("[error] interrupted: the run did not stop in time", file=sys.stderr)
        return INTERRUPTED
    if terminal.interrupted and _isatty(sys.stderr):
        show_interrupt(echoed, sys.stderr)
    print(json.dumps(execution_json(execution), indent=2, ensure_ascii=False) if as_json
          else execution.presentation.text, flush=True)
    return execution.exit_code


def execution_json(execution: RunExecution) -> dict[str, Any]:
    """RunExecution.to_dict() with stdout as text, or base64 when it is binary
    (`stdoutEncoding` says which)."""
    data = execution.to_dict()
    raw: bytes = data["stdout"]
    text = None
    if execution.content_type != OCTET:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    data["stdout"] = text if text is not None else base64.b64encode(raw).decode("ascii")
    data["stdoutEncoding"] = "utf-8" if text is not None else "base64"
    return data


# -- the REPL -------------------------------------------------------------------------------

def prompt_for(status: int) -> str:
    return "run> " if status == 0 else f"[{status}] run> "


class LineEditing:
    """readline where the platform has it: editing, history in ~/.onetool_wasm_history
    (at most HISTORY_LENGTH lines), Tab completing command names and VFS paths."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.readline: Any = None
        self.path = os.path.expanduser(HISTORY_FILE)

    def __enter__(self) -> "LineEditing":
        if not (_isatty(sys.stdin) and _isatty(sys.stdout)):
            return self
        try:
            import readline
        except ImportError:
            return self
        self.readline = readline
        readline.set_history_length(HISTORY_LENGTH)
        try:
            readline.read_history_file(self.path)
        except (OSError, UnicodeDecodeError):
            pass
        readline.set_completer_delims(" \t\n;|&<>()'\"`=")
        readline.set_completer(self._complete)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.readline is None:
            return
        self.readline.set_completer(None)
        try:
            self.readline.write_history_file(self.path)
        except OSError:
            pass

    def _complete(self, text: str, state: int) -> str | None:
        try:
            return self._candidates(text)[state]
        except Exception:  # a completer must never raise into readline
            return None

    def _candidates(self, text: str) -> list[str]:
        runtime = self.terminal.runtime
        if runtime is None:
            return []
        before = self.readline.get_line_buffer()[:self.readline.get_begidx()]
        first_word = not before.strip() or before.rstrip()[-1:] in (";", "|", "&")
        if first_word and "/" not in text:
            return [name + " " for name in runtime.registry.names() if name.startswith(text)]
        directory, _, partial = text.rpartition("/")
        cwd = runtime.shell_state.cwd if runtime.shell_state is not None else "/"
        base = (directory or "/") if text.startswith("/") else (cwd.rstrip("/") + "/" + directory)
        names = self.terminal.runner.run(runtime.ctx.vfs.listdir(base))
        prefix = directory + "/" if "/" in text else ""
        return [prefix + name for name in names
                if name.startswith(partial) and (partial.startswith(".") or not name.startswith("."))]


def repl(terminal: Terminal) -> int:
    """Read, run, print. Ctrl-C at the prompt clears the line; during a run, stops it;
    Ctrl-D (or `exit`) leaves with the last line's status."""
    interactive = _isatty(sys.stdin)
    status = 0
    with LineEditing(terminal) as editing:
        while True:
            try:
                line = input(prompt_for(status) if interactive else "")
                if not line.strip():
                    continue
                if line.strip() in ("exit", "quit"):
                    return status
                status = _run_in_repl(terminal, line, interactive)
            except EOFError:
                if interactive:
                    print()
                return status
            except KeyboardInterrupt:
                # At the prompt (or between two lines): the line is dropped, as bash does.
                # readline keeps the terminal from echoing ^C, so it is ours to show.
                show_interrupt(editing.readline is None and _terminal_echoes_ctrl_c())


def _run_in_repl(terminal: Terminal, line: str, interactive: bool) -> int:
    echoed = _terminal_echoes_ctrl_c()
    try:
        execution = terminal.run(line)
    except KeyboardInterrupt:
        show_interrupt(echoed)
        print("[error] interrupted: the run did not stop in time\n", flush=True)
        return INTERRUPTED
    if terminal.interrupted and interactive:
        show_interrupt(echoed)
    print(execution.presentation.text, flush=True)
    return execution.exit_code


# -- main -----------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        root = check_root(args)
        load_policy(args.policy)  # reported before anything starts
    except UsageError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        runner = stack.enter_context(event_loop_runner())
        terminal = Terminal(runner)
        interactive_action = args.action in ("run", "repl")
        try:
            vfs = make_vfs(root, args.spill_in_root, stack)
            runtime = runner.run(make_runtime(args, vfs, terminal.confirm if interactive_action else None))
        except (UsageError, ValueError) as error:
            print(f"{PROG}: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return INTERRUPTED
        terminal.attach(runtime)
        if args.action == "run":
            return run_once(terminal, args.command_line, args.json)
        if args.action == "repl":
            return repl(terminal)
        if args.action == "mcp":
            from .mcp import MissingExtra, serve_stdio
            try:
                runner.run(serve_stdio(runtime, description_variant=args.variant, layout=args.layout))
            except MissingExtra as error:
                print(f"{PROG} mcp: {error}", file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                return INTERRUPTED
            finally:
                runner.run(runtime.aclose())  # other MCP servers' processes end with this one
            return 0
        print(json.dumps(build_tool_definition(runtime, description_variant=args.variant, format=args.format),
                         indent=2, ensure_ascii=False))
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
