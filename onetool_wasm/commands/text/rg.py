"""rg: ripgrep as a coding agent sees it (output not a terminal: no colour, no headings).

Searches the working directory recursively by default, skipping hidden files, ignored
paths (.ignore, .rgignore, and .gitignore inside a git repository) and binary files;
files are searched in path order (`rg --sort path`). Lines print as `path:text`
(`path:line:text` with -n); one file operand prints no path. Patterns use Rust regex
syntax (regex/rust.py). Exit 0 a match, 1 none, 2 an error.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ...result import TEXT, CommandResult, ok
from ...vfs.errors import VFSError
from ._grep_scan import Scan, _context_blocks, scan, selected_lines
from ..helpers import read_file_bytes
from ..lines import split_lines
from ..options import ArgReader, read_options
from ...regex.syntax import RegexError
from ...regex.rust import RgRegex, compile_rg, has_uppercase
from ._rg_walk import TYPES, Filters, GlobError, Walker, type_patterns
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = "rg [OPTIONS] PATTERN [PATH ...]"
STDIN_LABEL = "<stdin>"
NOTHING_SEARCHED = ("rg: No files were searched, which means ripgrep probably applied a filter you didn't "
                    "expect; check -g/-t/--max-depth, or add --hidden / --no-ignore")

_FLAGS = {
    "F": ("fixed", True), "i": ("case", "insensitive"), "S": ("case", "smart"), "s": ("case", "sensitive"),
    "w": ("word", True), "x": ("line", True), "v": ("invert", True), "c": ("count", True),
    "l": ("files_with_matches", True), "o": ("only_matching", True), "n": ("line_numbers", True),
    "N": ("line_numbers", False), "H": ("with_filename", True), "I": ("with_filename", False),
    "L": ("follow", True), "0": ("null", True), "U": ("multiline", True), "a": ("text", True),
    "q": ("quiet", True), "h": ("help", True), "V": ("version", True), "P": ("pcre2", True),
}
_LONG_FLAGS = {
    "fixed-strings": "F", "ignore-case": "i", "smart-case": "S", "case-sensitive": "s", "word-regexp": "w",
    "line-regexp": "x", "invert-match": "v", "count": "c", "files-with-matches": "l", "only-matching": "o",
    "line-number": "n", "no-line-number": "N", "with-filename": "H", "no-filename": "I", "follow": "L",
    "null": "0", "multiline": "U", "text": "a", "quiet": "q", "help": "h", "version": "V", "pcre2": "P",
}
_LONG_SETTINGS = {
    "hidden": ("hidden", True), "no-ignore": ("no_ignore", True), "json": ("json", True),
    "files": ("files", True), "type-list": ("type_list", True), "count-matches": ("count_matches", True),
    "files-without-match": ("files_without_match", True), "binary": ("binary", True),
    "heading": ("heading", True), "no-heading": ("heading", False), "sort-files": ("sort_files", True),
    "no-messages": ("no_messages", True), "no-ignore-vcs": ("no_ignore_vcs", True),
    "no-ignore-dot": ("no_ignore_vcs", False), "no-ignore-parent": ("no_ignore_vcs", False),
    "no-config": ("no_ignore_vcs", False), "no-follow": ("follow", False), "no-multiline": ("multiline", False),
    "no-text": ("text", False), "no-hidden": ("hidden", False), "no-binary": ("binary", False),
    "no-unicode": ("no_ignore_vcs", False), "crlf": ("no_ignore_vcs", False), "no-pcre2": ("no_ignore_vcs", False),
}
_VALUES = "efgtTABCmrjME"
_LONG_VALUES = {
    "regexp": "e", "file": "f", "glob": "g", "type": "t", "type-not": "T", "after-context": "A",
    "before-context": "B", "context": "C", "max-count": "m", "replace": "r", "threads": "j",
    "max-columns": "M", "max-depth": "d", "maxdepth": "d", "encoding": "E", "iglob": "iglob",
    "sort": "sort", "sortr": "sort", "color": "ignored", "colour": "ignored", "context-separator": "sep",
    "max-filesize": "ignored", "path-separator": "ignored", "colors": "ignored", "type-add": "type-add",
    "type-clear": "type-clear",
}


@dataclass
class RgOptions:
    patterns: list[str] = field(default_factory=list)
    pattern_files: list[str] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)
    fixed: bool = False
    case: str = "sensitive"
    word: bool = False
    line: bool = False
    invert: bool = False
    count: bool = False
    count_matches: bool = False
    files_with_matches: bool = False
    files_without_match: bool = False
    only_matching: bool = False
    line_numbers: bool = False
    with_filename: bool | None = None
    follow: bool = False
    null: bool = False
    multiline: bool = False
    text: bool = False
    binary: bool = False
    quiet: bool = False
    pcre2: bool = False  # accepted: the pattern is read as Rust syntax (PCRE agrees on the common part)
    help: bool = False
    version: bool = False
    hidden: bool = False
    no_ignore: bool = False
    no_ignore_vcs: bool = False
    json: bool = False
    files: bool = False
    type_list: bool = False
    heading: bool = False
    sort_files: bool = False
    no_messages: bool = False
    after: int = 0
    before: int = 0
    max_count: int | None = None
    replace: str | None = None
    separator: str = "--"
    filters: Filters = field(default_factory=Filters)
    types: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(TYPES))


def _usage_error(message: str) -> CommandFailed:
    return CommandFailed(CommandResult(stderr=f"rg: {message}. Usage: {USAGE} (see: help rg)", exit_code=2))


def parse_rg_args(args: list[str]) -> RgOptions:
    options = RgOptions()
    reader = read_options(args, lambda arg, r: _long(options, arg, r), lambda arg, r: _cluster(options, arg, r))
    options.operands = reader.operands
    wants_pattern = not (options.files or options.type_list or options.help or options.version)
    if wants_pattern and not options.patterns and not options.pattern_files:
        if not options.operands:
            raise _usage_error("missing PATTERN")
        options.patterns.append(options.operands.pop(0))
    return options


def _cluster(options: RgOptions, arg: str, reader: ArgReader) -> None:
    position = 1
    while position < len(arg):
        letter = arg[position]
        position += 1
        if letter in _VALUES:
            value = reader.value(arg[position:] or None, _usage_error(f"missing value for -{letter}"))
            _set_value(options, letter, value, f"-{letter}")
            return
        if letter == "u":
            _unrestrict(options)
        elif letter in _FLAGS:
            _flag(options, letter)
        else:
            raise _usage_error(f"unknown option: -{letter}")


def _flag(options: RgOptions, letter: str) -> None:
    name, value = _FLAGS[letter]
    setattr(options, name, value)


def _unrestrict(options: RgOptions) -> None:
    """-u: no ignore files; -uu: also hidden files; -uuu: also binary files."""
    if not options.no_ignore:
        options.no_ignore = True
    elif not options.hidden:
        options.hidden = True
    else:
        options.binary = True


def _long(options: RgOptions, arg: str, reader: ArgReader) -> None:
    name, has_value, value = arg[2:].partition("=")
    if name in _LONG_FLAGS and not has_value:
        _flag(options, _LONG_FLAGS[name])
    elif name in _LONG_SETTINGS and not has_value:
        attribute, setting = _LONG_SETTINGS[name]
        setattr(options, attribute, setting)
    elif name == "unrestricted" and not has_value:
        _unrestrict(options)
    elif name in _LONG_VALUES:
        text = reader.value(value if has_value else None, _usage_error(f"missing value for --{name}"))
        _set_value(options, _LONG_VALUES[name], text, f"--{name}")
    else:
        raise _usage_error(f"unknown option: --{name}")


def _set_value(options: RgOptions, key: str, value: str, flag: str) -> None:
    filters = options.filters
    try:
        if key == "e":
            options.patterns.append(value)
        elif key == "f":
            options.pattern_files.append(value)
        elif key in ("g", "iglob"):
            filters.add_glob(value, key == "iglob")
        elif key in ("type-add", "type-clear"):
            _define_type(options, key, value)
        elif key in ("t", "T"):
            patterns = type_patterns(value, options.types)
            if patterns is None:
                raise CommandFailed(CommandResult(
                    stderr=f"rg: unrecognized file type: {value} (see: rg --type-list)", exit_code=2))
            (filters.types_select if key == "t" else filters.types_negate).extend(patterns)
        elif key == "r":
            options.replace = value
        elif key == "sep":
            options.separator = value
        elif key in ("A", "B", "C", "m", "d", "j", "M"):
            _set_number(options, key, _number(value, flag))
        elif key == "sort" and value not in ("path", "none", "modified", "accessed", "created"):
            raise _usage_error(f"invalid value for {flag}: {value}")
    except GlobError as error:
        raise CommandFailed(CommandResult(stderr=f"rg: {error}", exit_code=2)) from None


def _define_type(options: RgOptions, key: str, value: str) -> None:
    """--type-add 'name:glob[,glob]' adds globs to a type; --type-clear name empties it."""
    if key == "type-clear":
        options.types[value] = ()
        return
    name, colon, globs = value.partition(":")
    if not colon or not name or not globs or globs.startswith("include:"):
        raise CommandFailed(CommandResult(
            stderr=f"rg: invalid --type-add value '{value}': write NAME:GLOB (e.g. --type-add 'web:*.html')",
            exit_code=2))
    options.types[name] = options.types.get(name, ()) + tuple(globs.split(","))


def _set_number(options: RgOptions, key: str, number: int) -> None:
    if key == "A":
        options.after = number
    elif key == "B":
        options.before = number
    elif key == "C":
        options.after = options.before = number
    elif key == "m":
        options.max_count = number
    elif key == "d":
        options.filters.max_depth = number


def _number(value: str, flag: str) -> int:
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise _usage_error(f"invalid value for {flag}: {value} (a number is expected)")
    return int(text)


# -- the command ---------------------------------------------------------------------------
@dataclass
class _Input:
    path: str | None  # None: stdin
    label: str
    explicit: bool  # named on the command line (searched even if binary, hidden or ignored)


class _Run:
    def __init__(self, ctx: CommandContext, options: RgOptions, stdin: bytes) -> None:
        self.ctx = ctx
        self.options = options
        self.stdin = stdin
        self.out: list[bytes] = []
        self.errors: list[str] = []
        self.matched = False
        self.failed = False  # an error happened (exit 2), even when --no-messages hides it
        self.searched = 0
        self.walked_dir = False
        self.printed_group = False  # a context group was printed: the next one gets a separator
        self.stats = {"bytes_printed": 0, "bytes_searched": 0, "matched_lines": 0, "matches": 0,
                      "searches": 0, "searches_with_match": 0}

    def error(self, message: str) -> None:
        if not self.options.no_messages:
            self.errors.append(message)
        self.failed = True


async def cmd_rg(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options = parse_rg_args(args)
    if options.help:
        return ok(RG.help_text() + "\n")
    if options.version:
        return ok("ripgrep 13.0.0 (onetool subset)\n")
    if options.type_list:
        return ok("".join(f"{name}: {', '.join(sorted(globs))}\n" for name, globs in sorted(options.types.items())
                          if globs))
    options.filters.hidden = options.hidden
    options.filters.no_ignore = options.no_ignore
    run = _Run(ctx, options, stdin)
    if options.files:
        return await _list_files(run)
    regex = await _compile(run)
    if options.max_count == 0:
        return CommandResult(exit_code=1)
    async for item in _inputs(run):
        if ctx.cancelled():
            run.error("rg: interrupted")
            break
        data = await _read(run, item)
        if data is None:
            continue
        run.searched += 1
        _search(run, regex, item, data)
        if run.matched and options.quiet:
            break
    return _finish(run)


async def _compile(run: _Run) -> RgRegex:
    options = run.options
    patterns = list(options.patterns)
    for path in options.pattern_files:
        data = await _read(run, _Input(path, path, True)) if path != "-" else run.stdin
        if data is None:
            raise CommandFailed(CommandResult(stderr="\n".join(run.errors), exit_code=2))
        text = data.decode("utf-8", "surrogateescape")
        if text:  # an empty file holds no pattern (and so matches nothing)
            patterns.extend(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"))
    if not options.multiline:
        patterns = [part for pattern in patterns for part in pattern.split("\n")] if options.fixed else patterns
    case = options.case
    insensitive = case == "insensitive" or (case == "smart" and not has_uppercase(patterns, options.fixed))
    try:
        return compile_rg(patterns, fixed=options.fixed, ignore_case=insensitive, word=options.word,
                          line=options.line, multiline=options.multiline)
    except RegexError as error:
        raise CommandFailed(CommandResult(stderr=f"rg: regex parse error: {error}", exit_code=2)) from None


async def _inputs(run: _Run):
    options, ctx = run.options, run.ctx
    operands = options.operands
    if not operands:
        if (run.stdin or ctx.stdin_is_pipe) and not options.files:
            yield _Input(None, STDIN_LABEL, True)
            return
        operands = [""]
    walker = Walker(ctx.vfs, options.filters, ctx.cancelled)
    for operand in operands:
        if operand == "-":
            yield _Input(None, STDIN_LABEL, True)
            continue
        path = ctx.vfs.normalize(operand or ".")
        try:
            info = await ctx.vfs.stat(path)
            exists = info.exists
        except (VFSError, OSError):
            exists = False
        if not exists:
            run.error(f"rg: {operand}: No such file or directory (os error 2)")
            continue
        if not info.is_dir:
            yield _Input(path, operand, True)
            continue
        run.walked_dir = True
        async for file_path, shown in walker.walk(path, operand):
            yield _Input(file_path, shown, False)
        for message in walker.errors:
            run.error(message)
        walker.errors.clear()


async def _read(run: _Run, item: _Input) -> bytes | None:
    if item.path is None:
        return run.stdin
    try:
        return await read_file_bytes(run.ctx, "rg", item.path)
    except VFSError as error:
        run.error(f"rg: {item.label}: {getattr(error, 'message', error)}")
    except CommandFailed as failure:
        run.error(failure.result.stderr)
    return None


def _show_names(run: _Run) -> bool:
    options = run.options
    if options.with_filename is not None:
        return options.with_filename
    return run.walked_dir or len(options.operands) > 1


# -- one input -------------------------------------------------------------------------------
def _search(run: _Run, rx: RgRegex, item: _Input, data: bytes) -> None:
    options = run.options
    binary_at = -1 if options.text else data.find(b"\x00")
    if binary_at >= 0 and not item.explicit and not options.binary:
        run.searched -= 1  # rg stops at the NUL byte: a binary file met in a walk is skipped
        return
    rx = rx.for_data(data)
    label = item.label.encode("utf-8", "surrogateescape")
    name = label if _show_names(run) else None
    if options.multiline:
        result, groups = _multiline_scan(rx, data)
    else:
        result, groups = scan(rx.regex, data), None
    selected = _selected(result, groups, options)
    if options.json:
        _json_output(run, rx, label, data, result, selected, groups)
        return
    count = _count(rx, result, selected, options, groups)
    if count or options.files_without_match:
        run.matched = run.matched or bool(count) != options.files_without_match
    if options.quiet:
        return
    sep = b"\x00" if options.null else b":"
    if options.count or options.count_matches:
        if count:
            run.out.append((name + sep if name is not None else b"") + str(count).encode() + b"\n")
    elif options.files_with_matches or options.files_without_match:
        if bool(count) != options.files_without_match:
            run.out.append(label + (b"\x00" if options.null else b"\n"))
    elif count and binary_at >= 0:
        note = f'binary file matches (found "\\0" byte around offset {binary_at})\n'.encode()
        run.out.append((name + b": " if name is not None else b"") + note)
    elif count:
        _print_lines(run, rx, name, result, selected, groups)


def _selected(result: Scan, groups, options: RgOptions) -> list[int]:
    if groups is not None:  # multiline: every line a match touches is a matching line
        groups[:] = _merged(groups)
        lines = sorted({index for first, last in groups for index in range(first, last + 1)})
        if options.invert:
            taken = set(lines)
            lines = [index for index in range(result.total) if index not in taken]
        return lines
    return selected_lines(result, options.invert, None)


def _merged(groups: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Matches that share a line are one multiline match, as rg reports them."""
    merged: list[tuple[int, int]] = []
    for first, last in groups:
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


def _count(rx: RgRegex, result: Scan, selected: list[int], options: RgOptions, groups=None) -> int:
    """Matching lines (or matches with --count-matches / -o -c), at most -m lines."""
    if groups is not None and not options.invert:
        return len(groups) if options.max_count is None else min(len(groups), options.max_count)
    lines = selected if options.max_count is None else selected[:options.max_count]
    if (options.count_matches or (options.count and options.only_matching)) and not options.invert:
        text = split_lines(result.data)
        return sum(1 for index in lines for match in rx.regex.finditer(text[index], groups=False)
                   if match.end() > match.start()) if not options.multiline else len(lines)
    return len(lines)


def _multiline_scan(rx: RgRegex, data: bytes) -> tuple[Scan, list[tuple[int, int]]]:
    """-U: matches may span lines; (first line, last line) of each match."""
    total = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    groups: list[tuple[int, int]] = []
    for match in rx.regex.finditer(data, groups=False):
        start, end = match.start(), match.end()
        if start >= len(data):
            break
        first = data.count(b"\n", 0, start)
        last = data.count(b"\n", 0, max(end - 1, start)) if end > start else first
        groups.append((first, last))
    return Scan(data, [], total), groups


def _print_lines(run: _Run, rx: RgRegex, name: bytes | None, result: Scan, selected: list[int],
                 groups) -> None:
    options = run.options
    chosen = set(selected)  # after -m's last match, matching lines of its context still show as matches
    if options.max_count is not None:
        selected = selected[:options.max_count]
    lines = split_lines(result.data)
    sep = b"\x00" if options.null else b":"
    if options.multiline and options.only_matching:
        for match in rx.regex.finditer(result.data, groups=True):
            if match.end() > match.start():
                number = result.data.count(b"\n", 0, match.start())
                text = _replaced(rx, match, options.replace) if options.replace is not None else match.group(0)
                run.out.append(_prefix(options, name, number, b":", sep) + text + b"\n")
        return
    if options.heading and name is not None:
        if run.out:
            run.out.append(b"\n")
        run.out.append(name + b"\n")
        name = None
    blocks = list(_context_blocks(selected, options.before, options.after, len(lines))) \
        if options.before or options.after else [(index, index) for index in selected]
    for first, last in blocks:
        if (options.before or options.after) and run.printed_group:
            run.out.append(options.separator.encode("utf-8", "surrogateescape") + b"\n")
        run.printed_group = True
        for index in range(first, last + 1):
            hit = index in chosen
            mark = b":" if hit else b"-"
            if hit and options.only_matching and not options.invert:
                for match in rx.regex.finditer(lines[index], groups=options.replace is not None):
                    if match.end() > match.start():
                        text = _replaced(rx, match, options.replace) if options.replace is not None \
                            else match.group(0)
                        run.out.append(_prefix(options, name, index, mark, sep) + text + b"\n")
                continue
            text = lines[index]
            if hit and options.replace is not None and not options.invert:
                text = _replace_all(rx, text, options.replace)
            run.out.append(_prefix(options, name, index, mark, sep) + text + b"\n")


def _prefix(options: RgOptions, name: bytes | None, index: int, mark: bytes, sep: bytes) -> bytes:
    head = b""
    if name is not None:
        head = name + (sep if mark == b":" else (b"\x00" if options.null else b"-"))
    if options.line_numbers:
        head += str(index + 1).encode() + mark
    return head


def _replace_all(rx: RgRegex, line: bytes, template: str) -> bytes:
    out: list[bytes] = []
    previous = 0
    for match in rx.regex.finditer(line, groups=True):
        out.append(line[previous:match.start()])
        out.append(_replaced(rx, match, template))
        previous = match.end()
    out.append(line[previous:])
    return b"".join(out)


def _replaced(rx: RgRegex, match, template: str) -> bytes:
    """Expand `$0`, `$1`, `${name}`, `$name`, `$$` as Rust's regex does."""
    data = template.encode("utf-8", "surrogateescape")
    out: list[bytes] = []
    i = 0
    while i < len(data):
        char = data[i:i + 1]
        if char != b"$" or i + 1 >= len(data):
            out.append(char)
            i += 1
            continue
        if data[i + 1:i + 2] == b"$":
            out.append(b"$")
            i += 2
            continue
        if data[i + 1:i + 2] == b"{":
            end = data.find(b"}", i + 2)
            if end < 0:
                out.append(char)
                i += 1
                continue
            name, i = data[i + 2:end], end + 1
        else:
            end = i + 1
            while end < len(data) and (data[end:end + 1].isalnum() or data[end:end + 1] == b"_"):
                end += 1
            if end == i + 1:
                out.append(char)
                i += 1
                continue
            name, i = data[i + 1:end], end
        out.append(_group_text(rx, match, name.decode("utf-8", "replace")))
    return b"".join(out)


def _group_text(rx: RgRegex, match, name: str) -> bytes:
    index = int(name) if name.isdigit() else rx.names.get(name)
    if index is None:
        return b""
    try:
        return match.group(index) or b""
    except (IndexError, AttributeError):
        return b"" if index else match.group(0)


# -- JSON lines ------------------------------------------------------------------------------
def _text(data: bytes) -> dict:
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        import base64
        return {"bytes": base64.b64encode(data).decode("ascii")}


def _dump(value) -> bytes:
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8", "surrogateescape")


def _json_output(run: _Run, rx: RgRegex, label: bytes, data: bytes, result: Scan, selected: list[int],
                 groups=None) -> None:
    options = run.options
    chosen = set(selected)
    if options.max_count is not None:
        selected = selected[:options.max_count]
    if not selected:
        return  # the summary counts only the searches that printed something
    run.stats["searches"] += 1
    run.stats["bytes_searched"] += len(data)
    run.matched = True
    path = _text(label)
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    chunks = [_dump({"type": "begin", "data": {"path": path}})]
    matches = 0
    if groups is not None and not options.invert:
        matches = _json_multiline(rx, data, path, groups, offsets, chunks)
    blocks = _context_blocks(selected, options.before, options.after, result.total) if groups is None else ()
    for first, last in blocks:
        for index in range(first, last + 1):
            line = lines[index]
            full = line + (b"\n" if index < len(lines) - 1 else b"")
            submatches = []
            if index in chosen and not options.invert:
                for match in rx.regex.finditer(line, groups=False):
                    if match.end() > match.start() or not line:
                        submatches.append({"match": _text(match.group(0)), "start": match.start(),
                                           "end": match.end()})
            matches += len(submatches) if index in chosen else 0
            kind = "match" if index in chosen else "context"
            chunks.append(_dump({"type": kind, "data": {"path": path, "lines": _text(full),
                                                        "line_number": index + 1,
                                                        "absolute_offset": offsets[index],
                                                        "submatches": submatches}}))
    printed = sum(len(chunk) for chunk in chunks)
    matched_lines = len(selected) if groups is None else len(groups)
    stats = {"elapsed": {"secs": 0, "nanos": 0, "human": "0.000000s"}, "searches": 1, "searches_with_match": 1,
             "bytes_searched": len(data), "bytes_printed": printed, "matched_lines": matched_lines,
             "matches": matches}
    chunks.append(_dump({"type": "end", "data": {"path": path, "binary_offset": None, "stats": stats}}))
    run.stats["searches_with_match"] += 1
    run.stats["bytes_printed"] += printed
    run.stats["matched_lines"] += matched_lines
    run.stats["matches"] += matches
    run.out.extend(chunks)


def _json_multiline(rx: RgRegex, data: bytes, path: dict, groups: list[tuple[int, int]], offsets: list[int],
                    chunks: list[bytes]) -> int:
    """-U --json: one message for each match, holding all the lines it spans."""
    spans = [(m.start(), m.end()) for m in rx.regex.finditer(data, groups=False) if m.end() > m.start()]
    count = 0
    for first, last in groups:
        begin, end = offsets[first], min(offsets[last + 1], len(data))
        inside = [(start, stop) for start, stop in spans if begin <= start < end]
        count += len(inside)
        submatches = [{"match": _text(data[start:stop]), "start": start - begin, "end": stop - begin}
                      for start, stop in inside]
        chunks.append(_dump({"type": "match", "data": {"path": path, "lines": _text(data[begin:end]),
                                                       "line_number": first + 1, "absolute_offset": begin,
                                                       "submatches": submatches}}))
    return count


def _json_summary(run: _Run) -> bytes:
    stats = dict(run.stats)
    stats["elapsed"] = {"human": "0.000000s", "nanos": 0, "secs": 0}
    body = {"data": {"elapsed_total": {"human": "0.000000s", "nanos": 0, "secs": 0},
                     "stats": dict(sorted(stats.items()))}, "type": "summary"}
    return _dump(body)


# -- the end ---------------------------------------------------------------------------------
def _finish(run: _Run) -> CommandResult:
    options = run.options
    errors = list(run.errors)
    if run.searched == 0 and not run.failed and run.walked_dir:
        errors.append(NOTHING_SEARCHED)
        run.failed = True
    stdout = b"".join(run.out)
    if options.json:
        stdout += _json_summary(run)
    if options.quiet:
        stdout = b""
    code = 0 if run.matched and (options.quiet or not run.failed) else 2 if run.failed else 1
    return CommandResult(stdout=stdout, stderr="\n".join(errors), exit_code=code, content_type=TEXT)


async def _list_files(run: _Run) -> CommandResult:
    end = b"\x00" if run.options.null else b"\n"
    async for item in _inputs(run):
        run.out.append(item.label.encode("utf-8", "surrogateescape") + end)
    run.matched = bool(run.out)
    stdout = b"" if run.options.quiet else b"".join(run.out)
    code = 2 if run.failed else 0 if run.matched else 1
    return CommandResult(stdout=stdout, stderr="\n".join(run.errors), exit_code=code, content_type=TEXT)


RG_DETAILS = (
    "Searches the working directory recursively when no PATH is given, skipping hidden files, paths "
    "ignored by .ignore/.rgignore (and .gitignore inside a git repository) and binary files; output in "
    "path order. Rust regex syntax (no look-around or back-references). Exit 0 a match, 1 none, 2 an error.\n"
    "Also: -e PATTERN, -f FILE, -F, -i, -S (smart case), -s, -w, -x, -v, -c, --count-matches, -l, "
    "--files-without-match, -o, -n/-N, -A/-B/-C N, -m N, -g GLOB (repeatable, !GLOB excludes), --iglob, "
    "-t TYPE/-T TYPE, --type-list, --files, --hidden, -u/-uu/-uuu, --no-ignore, -L, --max-depth N, -0, "
    "--json, -r REPLACEMENT ($1, ${name}), -U (multiline), -a, -H/-I, -q, --heading, --sort path.\n"
    "Examples:\n  rg TODO\n  rg -n 'def \\w+' src\n  rg -i -l error -g '*.log'\n  rg -t py -w foo\n"
    "  rg --files -g '*.md'\n  rg -C 2 -F 'a + b' src/util.py\n  rg -o -r '$1' 'id=(\\d+)' logs"
)

RG = CommandSpec(
    name="rg",
    summary="Search files recursively for a regex, as ripgrep does (respects .gitignore).",
    usage=USAGE,
    details=RG_DETAILS,
    handler=cmd_rg,
    accepts_stdin=True,
    min_args=0,
    max_args=None,
    conformance_args=("TODO",),
    kind="read",
    group="text",
)

COMMANDS = [RG]

__all__ = ["COMMANDS", "RG", "cmd_rg", "parse_rg_args"]
