"""`chmod`: GNU chmod over the virtual file system's permission bits.

Modes: octal (`755`, `0644`) or symbolic clauses (`u=rwx,go=rx`, `+x`, `go-w`, `a=r`, `o=`,
`g=u`, `X`); a clause without `who` is limited by the umask 022, as in GNU. Only the nine
rwx bits exist here: set-ID and sticky bits (`u+s`, `+t`, `4755`) are accepted and dropped.
Options: -R (recursive), -v (every file), -c (changes only), -f (no error messages, the
status still says), --reference=RFILE, `--`; `chmod -w f` reads `-w` as a mode, as GNU does.
A VFS that keeps no modes (a host's own backend) refuses with a clear error.
"""
from __future__ import annotations

from ...result import CommandResult
from ...vfs.paths import child_path
from ..fs_common import FS_ERRORS, sorted_children
from ..spec import CommandContext, CommandSpec
from ._modes import ModeError, apply_mode, mode_of, parse_mode

USAGE = "chmod [-Rcfv] MODE[,MODE]... FILE... | chmod [-Rcfv] --reference=RFILE FILE..."
_TRY = "Try 'chmod --help' for more information."
_MODE_CHARS = set("rwxXstugoa,+-=01234567")
_LONG = {"--changes": "c", "--silent": "f", "--quiet": "f", "--verbose": "v", "--recursive": "R",
         "--preserve-root": "", "--no-preserve-root": ""}
_NO_MODES = "this file system keeps no permission modes"


class _Usage(Exception):
    pass


def _parse(args: list[str]) -> tuple[set[str], str | None, str | None, list[str], bool]:
    """(flags, mode text, reference file, files, mode-looked-like-an-option)."""
    flags: set[str] = set()
    reference: str | None = None
    words: list[str] = []
    option_modes: list[str] = []
    index = 0
    ended = False
    while index < len(args):
        arg = args[index]
        index += 1
        if ended or arg == "-" or not arg.startswith("-"):
            words.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name == "--reference":
                if not eq:
                    if index >= len(args):
                        raise _Usage("chmod: option '--reference' requires an argument")
                    value, index = args[index], index + 1
                reference = value
            elif arg in _LONG:
                flags.update(_LONG[arg])
            else:
                raise _Usage(f"chmod: unrecognized option '{arg}'")
        elif set(arg[1:]) <= _MODE_CHARS and not set(arg[1:]) & set("Rcfv"):
            option_modes.append(arg)  # `-w`, `-x,o-r`: a mode, as GNU reads it
        else:
            for letter in arg[1:]:
                if letter not in "Rcfv":
                    raise _Usage(f"chmod: invalid option -- '{letter}'")
                flags.add(letter)
    if reference is not None:
        return flags, None, reference, option_modes + words, False
    if option_modes:
        mode, files = ",".join(option_modes), words
    elif not words:
        raise _Usage("chmod: missing operand")
    else:
        mode, files = words[0], words[1:]
    if not files:
        raise _Usage(f"chmod: missing operand after '{mode}'")
    return flags, mode, None, files, bool(option_modes)


def _bits(mode: int) -> str:
    return "".join(("r" if mode & (4 << s) else "-") + ("w" if mode & (2 << s) else "-")
                   + ("x" if mode & (1 << s) else "-") for s in (6, 3, 0))


async def cmd_chmod(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    # The strict grammar's errors are one line: usage instead of GNU's second `Try` line.
    try_line = f"\n{_TRY}" if ctx.grammar == "bash" else f" (usage: {USAGE})"
    try:
        flags, mode_text, reference, files, diagnose = _parse(args)
    except _Usage as usage:
        return CommandResult(b"", f"{usage}{try_line}", 1)
    if reference is not None:
        if not files:
            return CommandResult(b"", f"chmod: missing operand{try_line}", 1)
        try:
            info = await ctx.vfs.stat(reference)
        except FS_ERRORS:
            info = None
        if info is None or not info.exists:
            return CommandResult(b"", f"chmod: failed to get attributes of '{reference}': No such file or directory", 1)
        parsed: list | int = mode_of(info) & 0o777
    else:
        try:
            parsed = parse_mode(mode_text or "")
        except ModeError:
            return CommandResult(b"", f"chmod: invalid mode: '{mode_text}'{try_line}", 1)
    run = _Run(ctx, flags, parsed, diagnose)
    for operand in files:
        await run.operand(operand)
    separator = "\n" if ctx.grammar == "bash" else "; "
    return CommandResult("".join(run.out).encode("utf-8"), separator.join(run.errors), 1 if run.failed else 0)


class _Run:
    def __init__(self, ctx: CommandContext, flags: set[str], parsed: list | int, diagnose: bool) -> None:
        self.ctx, self.flags, self.parsed, self.diagnose = ctx, flags, parsed, diagnose
        self.out: list[str] = []
        self.errors: list[str] = []
        self.failed = False

    def error(self, line: str) -> None:
        self.failed = True
        if "f" not in self.flags:
            self.errors.append(line)

    async def operand(self, operand: str) -> None:
        stack = [(operand, operand)]
        while stack:
            path, shown = stack.pop()
            try:
                info = await self.ctx.vfs.stat(path)
            except FS_ERRORS:
                info = None
            if info is None or not info.exists:
                self.error(f"chmod: cannot access '{shown}': No such file or directory")
                continue
            await self.change(path, shown, info)
            if "R" in self.flags and info.is_dir:
                try:
                    children = await sorted_children(self.ctx, path)
                except FS_ERRORS:
                    self.error(f"chmod: cannot read directory '{shown}': Permission denied")
                    continue
                label = shown if shown.endswith("/") else shown + "/"
                stack.extend((child_path(info.path, name), label + name) for name, _, _ in reversed(children))

    async def change(self, path: str, shown: str, info: object) -> None:
        if getattr(info, "mode", None) is None:
            self.error(f"chmod: changing permissions of '{shown}': {_NO_MODES}")
            return
        is_dir = bool(getattr(info, "is_dir", False))
        old = mode_of(info) & 0o777
        new = apply_mode(self.parsed, old, is_dir)
        if new != old:
            try:
                await self.ctx.vfs.chmod(path, new)
            except FS_ERRORS:
                self.error(f"chmod: changing permissions of '{shown}': Operation not permitted")
                return
        if "v" in self.flags or ("c" in self.flags and new != old):
            if new != old:
                self.out.append(f"mode of '{shown}' changed from {old:04o} ({_bits(old)}) to {new:04o} ({_bits(new)})\n")
            else:
                self.out.append(f"mode of '{shown}' retained as {old:04o} ({_bits(old)})\n")
        if self.diagnose and not isinstance(self.parsed, int):
            naive = apply_mode(self.parsed, old, is_dir, umask=0)
            if new & ~naive:
                self.failed = True  # GNU reports this even with -f
                self.errors.append(f"chmod: {shown}: new permissions are {_bits(new)}, not {_bits(naive)}")


CHMOD = CommandSpec(
    name="chmod",
    summary="Change the permission bits of files and directories, as GNU chmod.",
    usage=USAGE,
    details=("Modes are octal (755, 0644) or symbolic: [ugoa...][+-=][rwxX...|ugo], clauses joined "
             "by commas; a clause without u/g/o/a is limited by the umask 022. Only the rwx bits "
             "exist here: set-ID and sticky bits (s, t, 4755) are accepted and dropped.\n"
             "Options: -R recursive, -v report every file, -c report changes, -f quiet, "
             "--reference=RFILE copy RFILE's mode.\n"
             "Examples:\n  chmod 755 run.sh\n  chmod u+x,go-w run.sh\n  chmod -R a+rX docs\n"
             "  chmod --reference=a.txt b.txt"),
    group="fs",
    handler=cmd_chmod,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("644", "/missing"), kind="write",
)

COMMANDS = [CHMOD]
