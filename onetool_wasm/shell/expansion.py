"""Word expansion in bash's order: brace expansion, then tilde, parameter, arithmetic and
command substitution (left to right), then field splitting on IFS, pathname expansion
against the VFS, and quote removal.

An expanded word is first a list of *segments* `(text, quoted, splittable)`; splitting
turns segments into *fields*, each a list of `(text, quoted)` pieces (the form the pattern
matcher takes, so a quoted `*` stays literal); globbing turns fields into strings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable, Callable, Sequence

from . import arithmetic, patterns
from .ast import (ArithSub, BraceExpansion, CommandSub, DoubleQuoted, Literal, Param, ProcessSub, Quoted, Tilde,
                  Word, WordPart)
from .braces import brace_sequence
from .lexer import ansi_c_text
from .quoting import double_quoted, single_quoted
from .state import LineError, ShellError, ShellState

if TYPE_CHECKING:
    from ..vfs.base import VFS

MAX_BRACE_WORDS = 100_000

Pieces = list[tuple[str, bool]]
_GLOB_CHARS = frozenset("*?[")


@dataclass
class Segment:
    text: str
    quoted: bool
    splittable: bool = False
    # True for the boundary between two elements of "$@": the field ends here.
    field_break: bool = False


# Paths one `**` may expand to (shopt -s globstar) before it is an error.
MAX_GLOBSTAR_PATHS = 100_000

Substitute = Callable[[CommandSub], Awaitable[str]]
ProcessSubstitute = Callable[[ProcessSub], Awaitable[str]]


class Expander:
    """Expands words for one shell: its state, its VFS (cwd-relative globbing) and the
    interpreter's command and process substitutions."""

    def __init__(self, state: ShellState, vfs: "VFS", substitute: Substitute,
                 max_bytes: int, line: Callable[[], int],
                 process_substitute: ProcessSubstitute | None = None) -> None:
        self.state = state
        self.vfs = vfs
        self.substitute = substitute
        self.process_substitute = process_substitute
        self.max_bytes = max_bytes
        self.line = line

    # ------------------------------------------------------------ entry points

    async def words(self, words: Sequence[Word]) -> list[str]:
        """Command words: every expansion, splitting and globbing."""
        result: list[str] = []
        for word in words:
            parts = word.parts
            if len(parts) == 1 and type(parts[0]) is Literal and not _GLOB_CHARS.intersection(parts[0].text):
                result.append(parts[0].text)  # the common plain word: nothing to expand
                continue
            for alternative in self._braces(parts):
                for field in self._split(await self._segments(alternative)):
                    result.extend(await self._glob(field))
        self._check_size(result)
        return result

    async def string(self, word: Word) -> str:
        """One string, no splitting or globbing: assignments, redirect targets, `case`
        words, here-documents, `[[ ]]` operands."""
        segments = await self._segments(word.parts, quoted_context=False)
        text = "".join(segment.text for segment in segments)
        if len(text) > self.max_bytes:
            raise ShellError(f"expansion is larger than {self.max_bytes} bytes", fatal=True)
        return text

    async def pattern(self, word: Word) -> Pieces:
        """A pattern for `case`, `[[ == ]]` and `${v#p}`: quoted parts match literally."""
        segments = await self._segments(word.parts, quoted_context=False)
        return [(segment.text, segment.quoted) for segment in segments]

    async def arithmetic(self, word: Word) -> int:
        return arithmetic.evaluate(await self.string(word), self.state)

    async def subscript(self, text: str) -> int:
        """An array subscript: `$`-forms expanded, then evaluated (`a[$i+1]`)."""
        from .parser import parse_arithmetic_text
        return await self.arithmetic(parse_arithmetic_text(text))

    async def element_key(self, name: str, text: str) -> int | str:
        """The subscript of `name[text]`: the expanded text for an associative array
        (`m["a b"]`, `m[$k]`), else evaluated as arithmetic."""
        if self.state.is_assoc(name):
            from .parser import parse_key_text
            return await self.string(parse_key_text(text))
        return await self.subscript(text)

    # ------------------------------------------------------------ brace expansion

    def _braces(self, parts: Sequence[WordPart]) -> list[tuple[WordPart, ...]]:
        """Every combination of the word's brace alternatives, in bash's order."""
        combinations: list[tuple[WordPart, ...]] = [()]
        for part in parts:
            if not isinstance(part, BraceExpansion):
                combinations = [prefix + (part,) for prefix in combinations]
                continue
            choices = self._brace_choices(part)
            if len(combinations) * len(choices) > MAX_BRACE_WORDS:
                raise ShellError(f"brace expansion too large: more than {MAX_BRACE_WORDS} words", fatal=True)
            combinations = [prefix + choice for prefix in combinations for choice in choices]
        return combinations

    def _brace_choices(self, part: BraceExpansion) -> list[tuple[WordPart, ...]]:
        if part.sequence is not None:
            start, end, step = part.sequence
            items = brace_sequence(start, end, step)
            if items is None:
                text = "{" + start + ".." + end + (".." + step if step else "") + "}"
                return [(Literal(text),)]
            return [(Literal(item),) for item in items]
        choices: list[tuple[WordPart, ...]] = []
        for alternative in part.alternatives or ():
            choices.extend(self._braces(alternative.parts))
        return choices

    # ------------------------------------------------------------ parts -> segments

    async def _segments(self, parts: Sequence[WordPart], quoted_context: bool = False) -> list[Segment]:
        segments: list[Segment] = []
        for part in parts:
            await self._expand_part(part, quoted_context, segments)
        return segments

    async def _expand_part(self, part: WordPart, quoted: bool, out: list[Segment]) -> None:
        if isinstance(part, Literal):
            out.append(Segment(part.text, quoted))
        elif isinstance(part, Quoted):
            out.append(Segment(part.text, True))
        elif isinstance(part, DoubleQuoted):
            inner = await self._segments(part.parts, quoted_context=True)
            if not inner:
                out.append(Segment("", True))  # "" is an empty field
            out.extend(inner)
        elif isinstance(part, Tilde):
            home = self.state.get("HOME") if not part.user else None
            out.append(Segment(home if home is not None else "~" + part.user, True))
        elif isinstance(part, Param):
            await self._expand_param(part, quoted, out)
        elif isinstance(part, CommandSub):
            text = (await self.substitute(part)).rstrip("\n")
            out.append(Segment(text, quoted, splittable=not quoted))
        elif isinstance(part, ProcessSub):  # a path: never split or globbed
            if self.process_substitute is None:
                raise ShellError("process substitution is not available here", fatal=True)
            out.append(Segment(await self.process_substitute(part), True))
        elif isinstance(part, ArithSub):
            value = arithmetic.evaluate(await self.string(part.expression), self.state)
            out.append(Segment(str(value), quoted, splittable=not quoted))
        elif isinstance(part, BraceExpansion):  # only reached inside operator words
            out.append(Segment(_brace_source(part), quoted))

    # ------------------------------------------------------------ parameters

    async def _expand_param(self, param: Param, quoted: bool, out: list[Segment]) -> None:
        values = await self._param_values(param, quoted)
        if values is None:
            return
        elements, is_list = values
        if not is_list:
            out.append(Segment(elements[0], quoted, splittable=not quoted))
            return
        if quoted and (param.index == "*" or param.name == "*" or param.op in ("!*", "names*")):
            out.append(Segment(self._ifs_joiner().join(elements), True))
            return
        for position, element in enumerate(elements):
            if position:
                out.append(Segment("", quoted, field_break=True))
            out.append(Segment(element, quoted, splittable=not quoted))
        if not elements and quoted:
            out.append(Segment("", False, field_break=False))  # "$@" of nothing: no field

    async def _param_values(self, param: Param, quoted: bool) -> tuple[list[str], bool] | None:
        """(values, is_list): is_list for "$@"-like expansions that may make several fields."""
        op = param.op
        if op == "length":
            return [str(await self._length(param))], False
        if op in ("!@", "!*"):
            return self._indices(param.name), True
        if op in ("names@", "names*"):
            return [name for name in self.state.names() if name.startswith(param.name)
                    and self.state.lookup_raw(name).value is not None], True
        if op == "!":
            reference = self.state.lookup_raw(param.name)
            if reference is not None and reference.ref is not None:  # `${!r}` of a nameref: its target's name
                return [reference.ref], False
            named = await self._lookup(Param(param.name))  # `${!#}`: the last positional one
            target = named[0] if named else ""
            values = await self._lookup(Param(target) if "[" not in target else _subscripted(target))
            return (values or [""], False) if values is not None else ([""], False)
        is_list = param.name in ("@", "*") or param.index in ("@", "*")
        values = await self._lookup(param)
        if op is None:
            if values is None:
                self._check_unset(param)
                return ([], True) if is_list else ([""], False)
            return values, is_list
        return await self._operator(param, values, is_list, quoted)

    async def _lookup(self, param: Param) -> list[str] | None:
        """The parameter's values; None when unset."""
        name, state = param.name, self.state
        if name in ("@", "*"):
            return list(state.positional)
        if name.isdigit():
            position = int(name)
            if position == 0:
                return [state.script_name]
            return [state.positional[position - 1]] if position <= len(state.positional) else None
        special = self._special(name)
        if special is not None:
            return [special]
        if param.index in ("@", "*"):
            variable = state.lookup(name)
            return variable.elements() if variable is not None else None
        if param.index is not None:
            index = await self.element_key(name, param.index)
            value = state.get_element(name, index)
            return [value] if value is not None else None
        value = state.get(name)
        return [value] if value is not None else None

    def _special(self, name: str) -> str | None:
        state = self.state
        if name == "?":
            return str(state.last_status)
        if name == "#":
            return str(len(state.positional))
        if name == "$":
            return "1000"
        if name == "!":
            return ""
        if name == "_":
            return state.last_argument
        if name == "BASHPID":  # a subshell has a process of its own in bash
            return str(1000 + state.subshell_depth)
        if name == "-":
            return state.options.flags()
        if name == "LINENO":
            return str(self.line())
        if name == "RANDOM":
            import random
            return str(random.randrange(32768))
        return None

    async def _length(self, param: Param) -> int:
        if param.name in ("@", "*"):
            return len(self.state.positional)
        if param.index in ("@", "*"):
            variable = self.state.lookup(param.name)
            return len(variable.elements()) if variable is not None else 0
        values = await self._lookup(param)
        if values is None:
            self._check_unset(param)
            return 0
        return len(values[0])

    def _indices(self, name: str) -> list[str]:
        variable = self.state.lookup(name)
        return variable.keys() if variable is not None else []

    def _check_unset(self, param: Param) -> None:
        if self.state.options.nounset and param.name not in ("@", "*"):
            shown = param.name + (f"[{param.index}]" if param.index is not None else "")
            raise ShellError(f"{shown}: unbound variable", status=127, fatal=True)

    async def _operator(self, param: Param, values: list[str] | None, is_list: bool,
                        quoted: bool) -> tuple[list[str], bool]:
        op = param.op or ""
        if op in ("-", ":-", "=", ":=", "?", ":?", "+", ":+"):
            return await self._default_operator(param, values, is_list, quoted)
        if op.startswith("@"):
            return self._transform(param, values, is_list, op[1])
        if values is None:
            self._check_unset(param)
            values = [] if is_list else [""]
        if op in ("#", "##", "%", "%%"):
            pieces = await self.pattern(param.arg) if param.arg else []
            cut = patterns.remove_prefix if op[0] == "#" else patterns.remove_suffix
            return [cut(value, pieces, len(op) == 2) for value in values], is_list
        if op in ("/", "//", "/#", "/%"):
            pieces = await self.pattern(param.arg) if param.arg else []
            # Pieces, not text: an unquoted `&` in the replacement is the match (bash 5.2).
            replacement = await self.pattern(param.arg2) if param.arg2 else ""
            return [patterns.replace(value, pieces, replacement, op) for value in values], is_list
        if op == ":":
            return await self._substring(param, values, is_list), is_list
        if op in ("^", "^^", ",", ",,"):
            pieces = await self.pattern(param.arg) if param.arg else None
            return [_change_case(value, op, pieces) for value in values], is_list
        raise ShellError(f"${{{param.name}}}: bad substitution")

    def _transform(self, param: Param, values: list[str] | None, is_list: bool,
                   letter: str) -> tuple[list[str], bool]:
        """`${x@Q}` and friends: each value quoted (Q), escapes decoded (E), as-is (P, no
        prompt here), case changed (U u L); the variable as an assignment (A), its attributes
        (a), an array's keys and values (K as one word, k as words)."""
        variable = self.state.lookup(param.name) if param.name not in ("@", "*") else None
        if letter == "a" and variable is not None and not is_list:
            return [variable.flags()], False  # also of an array with no element 0
        if values is None:
            self._check_unset(param)
            return ([], True) if is_list else ([""], False)
        whole_array = param.index in ("@", "*") and variable is not None and variable.is_array
        if letter in "Kk" and whole_array:
            keys = variable.keys()
            if letter == "k":
                return [text for key in keys for text in (key, variable.value.get(_key(variable, key)))], True
            pairs = " ".join(f"{key} {double_quoted(variable.value.get(_key(variable, key)))}" for key in keys)
            return [pairs + (" " if variable.is_assoc else "")], False
        if letter == "a":
            return [variable.flags() if variable is not None else "" for _ in values], is_list
        if letter == "A" and variable is not None:
            flags = variable.flags()
            prefix = f"declare -{flags} " if flags else ""
            return [f"{prefix}{param.name}={single_quoted(value)}" for value in values], is_list
        change = {"Q": single_quoted, "K": single_quoted, "k": single_quoted, "E": ansi_c_text, "P": str,
                  "U": str.upper, "L": str.lower, "u": lambda text: text[:1].upper() + text[1:]}.get(letter, str)
        return [change(value) for value in values], is_list

    async def _default_operator(self, param: Param, values: list[str] | None, is_list: bool,
                                quoted: bool) -> tuple[list[str], bool]:
        op = param.op or ""
        colon = op.startswith(":")
        missing = values is None or (colon and (not values or all(v == "" for v in values)
                                                if is_list else values[0] == ""))
        if op.endswith("+"):
            if missing:
                return [""], False
            return [await self._operand(param.arg, quoted)], False
        if not missing:
            return values or [], is_list
        if op.endswith("-"):
            return [await self._operand(param.arg, quoted)], False
        if op.endswith("="):
            if param.name.isdigit() or param.name in "@*#?$!-":
                raise ShellError(f"${param.name}: cannot assign in this way")
            value = await self.string(param.arg) if param.arg else ""
            if param.index is not None and param.index not in ("@", "*"):
                self.state.set_element(param.name, await self.element_key(param.name, param.index), value)
            else:
                self.state.set(param.name, value)
            return [value], False
        message = await self.string(param.arg) if param.arg else (
            "parameter null or not set" if colon else "parameter not set")
        raise ShellError(f"{param.name}: {message}", status=127, fatal=True)

    async def _operand(self, word: Word | None, quoted: bool) -> str:
        return await self.string(word) if word is not None else ""

    async def _substring(self, param: Param, values: list[str], is_list: bool) -> list[str]:
        offset = arithmetic.evaluate(await self.string(param.arg), self.state) if param.arg else 0
        length = None
        if param.arg2 is not None:
            length = arithmetic.evaluate(await self.string(param.arg2), self.state)
        if is_list:
            items = values
            if param.name in ("@", "*"):  # $0 is element 0 of the positional list here
                items = [self.state.script_name, *values]
            start = offset if offset >= 0 else max(0, len(items) + offset)
            if length is not None and length < 0:
                raise ShellError(f"{length}: substring expression < 0")
            return items[start:] if length is None else items[start:start + length]
        value = values[0]
        start = offset if offset >= 0 else len(value) + offset
        if start < 0 or start > len(value):
            return [""]
        if length is None:
            return [value[start:]]
        end = start + length if length >= 0 else len(value) + length
        if end < start:
            raise ShellError(f"{length}: substring expression < 0")
        return [value[start:end]]

    def _ifs_joiner(self) -> str:
        ifs = self.state.get("IFS")
        if ifs is None:
            return " "
        return ifs[:1]

    # ------------------------------------------------------------ field splitting

    def _split(self, segments: list[Segment]) -> list[Pieces]:
        """Fields from segments: unquoted expansion results split on IFS (POSIX rules)."""
        ifs = self.state.get("IFS")
        if ifs is None:
            ifs = " \t\n"
        whitespace = "".join(ch for ch in ifs if ch in " \t\n")
        fields: list[Pieces] = []
        current: Pieces = []
        has_content = False
        for segment in segments:
            if segment.field_break:
                if has_content:
                    fields.append(current)
                current, has_content = [], False
                continue
            if not segment.splittable or not ifs:
                current.append((segment.text, segment.quoted))
                has_content = has_content or segment.quoted or bool(segment.text)
                continue
            for is_delimiter, text in _ifs_runs(segment.text, ifs, whitespace):
                if not is_delimiter:
                    current.append((text, False))
                    has_content = True
                    continue
                hard = any(ch not in whitespace for ch in text)
                if has_content or hard:
                    fields.append(current)
                current, has_content = [], False
        if has_content:
            fields.append(current)
        return fields

    # ------------------------------------------------------------ pathname expansion

    async def _glob(self, field: Pieces) -> list[str]:
        literal = "".join(text for text, _ in field)
        options = self.state.options
        # Most words hold no unquoted `*`, `?` or `[`: skip the pattern compiler for them.
        maybe_glob = any(not quoted and ("*" in text or "?" in text or "[" in text) for text, quoted in field)
        if options.noglob or not maybe_glob or not patterns.has_glob(field):
            return [literal]
        matches = await self._match_paths(field)
        if matches:
            return matches
        if options.failglob:
            # failglob: the rest of the line is not run (LineError), as in bash
            raise LineError(f"no match: {literal}", with_line=False)
        if options.nullglob:
            return []
        return [patterns.literal_text(field)]

    async def _match_paths(self, field: Pieces) -> list[str]:
        segments = _split_path(field)
        absolute = bool(segments) and segments[0] == []
        if absolute:
            segments = segments[1:]
        candidates = ["/" if absolute else ""]
        for position, segment in enumerate(segments):
            last = position == len(segments) - 1
            if not segment:  # a doubled or trailing slash
                candidates = [c + "/" if c and not c.endswith("/") else c for c in candidates]
                continue
            if self.state.options.globstar and segment == [("**", False)]:
                candidates = await self._globstar(candidates, last)
                continue
            if not patterns.has_glob(segment):
                name = "".join(text for text, _ in segment)
                candidates = [_join(c, name) for c in candidates]
                if not last:
                    continue
                candidates = [c for c in candidates if await self._exists(c)]
                continue
            matcher = patterns.glob_segment_matcher(segment, dotglob=self.state.options.dotglob)
            found: list[str] = []
            for candidate in candidates:
                for name, is_dir in await self._children(candidate):
                    if matcher(name) and (last or is_dir):
                        found.append(_join(candidate, name))
            candidates = found
            if not candidates:
                return []
        return sorted((c for c in candidates if c), key=lambda p: p.encode("utf-8", "surrogateescape"))

    async def _globstar(self, candidates: list[str], last: bool) -> list[str]:
        """`**` under `shopt -s globstar`: before more of the path, each candidate and every
        directory below it; as the last part, every file and directory below it (and the
        candidate itself, as `dir/`). Hidden names only with dotglob."""
        found: list[str] = []
        for candidate in candidates:
            if not last:
                found.append(candidate)
            elif candidate and await self._is_dir(candidate):
                found.append(_join(candidate, ""))
            found.extend(await self._descendants(candidate, directories_only=not last))
        return found

    async def _descendants(self, top: str, directories_only: bool) -> list[str]:
        """Every path below `top` (depth first, iteratively: no recursion)."""
        found: list[str] = []
        pending = [top]
        while pending:
            directory = pending.pop()
            for name, is_dir in await self._children(directory):
                if name.startswith(".") and not self.state.options.dotglob:
                    continue
                path = _join(directory, name)
                if is_dir:
                    pending.append(path)
                if is_dir or not directories_only:
                    found.append(path)
                    if len(found) > MAX_GLOBSTAR_PATHS:
                        raise ShellError(f"**: more than {MAX_GLOBSTAR_PATHS} paths; narrow the pattern", fatal=True)
        return found

    async def _is_dir(self, path: str) -> bool:
        try:
            return await self.vfs.is_dir(self._absolute(path))
        except Exception:
            return False

    async def _children(self, directory: str) -> list[tuple[str, bool]]:
        try:
            names = await self.vfs.listdir(self._absolute(directory or "."))
        except Exception:  # not a directory, unreadable: no matches from here
            return []
        return [(name.rstrip("/"), name.endswith("/")) for name in names]

    async def _exists(self, path: str) -> bool:
        try:
            return await self.vfs.exists(self._absolute(path))
        except Exception:
            return False

    def _absolute(self, path: str) -> str:
        if path.startswith("/"):
            return path
        return self.state.cwd.rstrip("/") + "/" + path

    def _check_size(self, words: list[str]) -> None:
        if sum(len(word) for word in words) > self.max_bytes:
            raise ShellError(f"expansion is larger than {self.max_bytes} bytes", fatal=True)


# ---------------------------------------------------------------- helpers


def _ifs_runs(text: str, ifs: str, whitespace: str):
    """(is_delimiter, text) runs: a delimiter is IFS whitespace around at most one other IFS
    character, as POSIX field splitting reads it."""
    position, length = 0, len(text)
    while position < length:
        start = position
        if text[position] not in ifs:
            while position < length and text[position] not in ifs:
                position += 1
            yield False, text[start:position]
            continue
        while position < length and text[position] in whitespace:
            position += 1
        if position < length and text[position] in ifs and text[position] not in whitespace:
            position += 1
            while position < length and text[position] in whitespace:
                position += 1
        yield True, text[start:position]


def _split_path(field: Pieces) -> list[Pieces]:
    """A field's pieces cut at every `/` (quoted or not: a slash always separates)."""
    segments: list[Pieces] = [[]]
    for text, quoted in field:
        parts = text.split("/")
        for index, part in enumerate(parts):
            if index:
                segments.append([])
            if part:
                segments[-1].append((part, quoted))
    return segments


def _join(directory: str, name: str) -> str:
    if not directory:
        return name
    return directory + name if directory.endswith("/") else directory + "/" + name


def _key(variable, key: str) -> int | str:
    """An array's key as its storage holds it (an int for an indexed array)."""
    return key if variable.is_assoc else int(key)


def _subscripted(text: str) -> Param:
    name, _, rest = text.partition("[")
    return Param(name, index=rest.rstrip("]"))


def _brace_source(part: BraceExpansion) -> str:
    if part.sequence is not None:
        start, end, step = part.sequence
        return "{" + start + ".." + end + (".." + step if step else "") + "}"
    return "{" + ",".join(word.source for word in part.alternatives or ()) + "}"


def _change_case(value: str, op: str, pieces: Pieces | None) -> str:
    convert = str.upper if op[0] == "^" else str.lower

    def wanted(ch: str) -> bool:
        return pieces is None or patterns.match(pieces, ch)

    if len(op) == 2:
        return "".join(convert(ch) if wanted(ch) else ch for ch in value)
    if value and wanted(value[0]):
        return convert(value[0]) + value[1:]
    return value
