"""Builtins that change variables and options: export, unset, local, declare/typeset,
readonly, shift, set, shopt."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...commands.spec import CommandIO
from ..quoting import double_quoted
from ..state import Assoc, ShellError, Variable

if TYPE_CHECKING:
    from ..interpreter import Interpreter

_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?=)(.*)", re.DOTALL)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Starts an argument the shell passes as written: an array literal (`local a=(x "y z")`),
# which the parser keeps whole and the builtin parses again as an assignment.
ARRAY_MARK = "\x00array:"

# `set -o NAME` and `shopt -s NAME` -> the Options field.
SET_OPTIONS = {"errexit": "errexit", "nounset": "nounset", "pipefail": "pipefail", "xtrace": "xtrace",
               "noglob": "noglob", "noclobber": "noclobber"}
SET_LETTERS = {"e": "errexit", "u": "nounset", "x": "xtrace", "f": "noglob", "C": "noclobber"}
SHOPT_OPTIONS = {"nullglob", "failglob", "dotglob", "nocasematch", "extglob", "globstar", "lastpipe",
                 "expand_aliases"}


async def _fail(shell: "Interpreter", io: CommandIO, message: str, status: int = 1) -> int:
    await io.error(f"bash: line {shell.line}: {message}")
    return status


# Characters after which bash quotes an associative array's key in `declare -p` output.
_KEY_METAS = re.compile(r"[ \t\n'\"\\|&;()<>!{}*\[?\]^$`]|^[~#]")


def _array_items(variable: Variable) -> str:
    """`[k]="v" ...` as `declare -p` and `set` show an array's elements (an associative
    array's keys quoted where needed, and a space before its `)`)."""
    if isinstance(variable.value, Assoc):
        keys = variable.value.keys()
        shown = (f"[{double_quoted(key) if _KEY_METAS.search(key) else key}]={double_quoted(variable.value.get(key))}"
                 for key in keys)
        return "(" + "".join(item + " " for item in shown) + ")"
    return "(" + " ".join(f"[{key}]={double_quoted(value)}" for key, value in sorted(variable.value.items())) + ")"


def _declaration(name: str, shell: "Interpreter") -> str | None:
    """`declare -p NAME`'s line."""
    variable = shell.state.lookup_raw(name)
    if variable is None:
        return None
    if variable.ref is not None:
        return f"declare -n{'r' if variable.readonly else ''}{'x' if variable.exported else ''} {name}={double_quoted(variable.ref)}"
    flags = "-" + variable.flags() if variable.flags() else "--"
    if variable.is_assoc and not variable.value.assigned:
        return f"declare {flags} {name}"
    if variable.is_array:
        return f"declare {flags} {name}={_array_items(variable)}"
    return f"declare {flags} {name}={double_quoted(variable.value)}"


async def _set_words(shell: "Interpreter", words: list[str], io: CommandIO, name: str, *,
                     local: bool = False, export: bool | None = None, readonly: bool = False,
                     array: bool = False) -> int:
    status = 0
    state = shell.state
    for word in words:
        if word.startswith(ARRAY_MARK):  # an array literal as written: `local a=(x "y z")`
            source = word[len(ARRAY_MARK):]
            target = source.split("=", 1)[0].rstrip("+")
            try:
                if local:
                    state.declare_local(target)
                await _assign_array(shell, source, local)
            except ShellError as error:
                status = await _fail(shell, io, error.message)
            continue
        match = _ASSIGNMENT.fullmatch(word)
        target = match.group(1) if match else word
        if not _NAME.fullmatch(target):
            status = await _fail(shell, io, f"{name}: `{word}': not a valid identifier")
            continue
        try:
            if local:
                state.declare_local(target)
            if match:
                value = match.group(4)
                if match.group(2):
                    from .. import arithmetic
                    subscript = match.group(2)[1:-1]
                    index = subscript if state.is_assoc(target) else arithmetic.evaluate(subscript, state)
                    state.set_element(target, index, value)
                elif match.group(3) == "+=":
                    state.set(target, (state.get(target) or "") + value, local=local)
                else:
                    state.set(target, value, local=local)
            elif array and state.lookup(target) is None:
                state.set_array(target, [], local=local)
            variable = state.lookup(target)
            if variable is None and (export or readonly):
                # `export NAME` of an unset name: bash keeps it unset but marked; here it
                # becomes an empty exported variable.
                state.set(target, "")
                variable = state.lookup(target)
            if variable is not None:
                if export is not None:
                    variable.exported = export
                if readonly:
                    variable.readonly = True
        except ShellError as error:
            status = await _fail(shell, io, error.message)
    return status


async def _assign_array(shell: "Interpreter", source: str, local: bool) -> None:
    """`NAME=(...)` as written, parsed as the array assignment it is, so its quotes and
    expansions work as in bash."""
    from ..lexer import ShellSyntaxError
    from ..parser import parse_script
    try:
        assignment = parse_script(source).items[0].first.commands[0].assignments[0]
    except (ShellSyntaxError, IndexError, AttributeError):
        raise ShellError(f"`{source}': not a valid array assignment")
    await shell.assign(assignment, local=local)


async def builtin_export(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    unexport = False
    while args and args[0].startswith("-") and args[0] != "-":
        flag = args.pop(0)
        if flag == "--":
            break
        if flag == "-n":
            unexport = True
        elif flag not in ("-p", "-f"):
            return await _fail(shell, io, f"export: {flag}: invalid option", 2)
    if not args:
        lines = [_declaration(name, shell) for name in shell.state.names()
                 if shell.state.lookup_raw(name).exported]
        await io.stdout.write("".join(line + "\n" for line in lines if line).encode("utf-8", "surrogateescape"))
        return 0
    return await _set_words(shell, args, io, "export", export=not unexport)


async def builtin_readonly(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    args = [a for a in args if a not in ("-p", "--")]
    return await _set_words(shell, args, io, "readonly", readonly=True)


async def builtin_local(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    if shell.state.function_depth == 0:
        return await _fail(shell, io, "local: can only be used in a function")
    return await builtin_declare(shell, args, io, name="local", local=True)


async def builtin_declare(shell: "Interpreter", args: list[str], io: CommandIO, name: str = "declare",
                          local: bool | None = None) -> int:
    flags: set[str] = set()
    words: list[str] = []
    for arg in args:
        if not words and len(arg) > 1 and arg[0] in "-+" and arg != "--":
            for letter in arg[1:]:
                if letter not in "aAfFgilnprtux":
                    return await _fail(shell, io, f"{name}: {arg[0]}{letter}: invalid option", 2)
                flags.add(letter if arg[0] == "-" else "+" + letter)
        elif arg != "--" or words:
            words.append(arg)
    if "p" in flags or not words:
        names = words or shell.state.names()
        status = 0
        for variable_name in names:
            line = _declaration(variable_name, shell)
            if line is None:
                status = await _fail(shell, io, f"{name}: {variable_name}: not found")
            else:
                await io.stdout.write((line + "\n").encode("utf-8", "surrogateescape"))
        return status
    if "f" in flags or "F" in flags:
        missing = [w for w in words if w not in shell.state.functions]
        for word in words:
            if word in shell.state.functions and "F" in flags:
                await io.stdout.write(f"{word}\n".encode("utf-8", "surrogateescape"))
        return 1 if missing else 0
    in_function = shell.state.function_depth > 0 and "g" not in flags
    if "n" in flags:
        return await _make_refs(shell, words, io, name, in_function if local is None else local)
    if "A" in flags:
        words, status = await _make_assoc(shell, words, io, name, in_function if local is None else local)
        if not words:
            return status
    if flags & {"l", "u"}:
        _set_case(shell, words, "lower" if "l" in flags else "upper", in_function if local is None else local)
    status = await _set_words(shell, words, io, name, local=in_function if local is None else local,
                              export=True if "x" in flags else (False if "+x" in flags else None),
                              readonly="r" in flags, array="a" in flags)
    if "i" in flags:
        for word in words:
            match = _ASSIGNMENT.match(word)
            name_ = match.group(1) if match else word
            variable = shell.state.lookup(name_)
            if variable is None and _NAME.fullmatch(name_):
                variable = shell.state.declare_local(name_) if shell.state.function_depth else None
                if variable is None:
                    shell.state.scopes[0][name_] = variable = Variable(None)
            if variable is not None:
                variable.integer = True
                if match and isinstance(variable.value, str):
                    from .. import arithmetic
                    variable.value = str(arithmetic.evaluate(variable.value or "0", shell.state))
    return status


def _set_case(shell: "Interpreter", words: list[str], letter_case: str, local: bool) -> None:
    """`declare -l`/`-u NAME[=value]`: values assigned to NAME from now on change case (the
    attribute is set before the value, so `declare -l x=ABC` stores abc)."""
    for word in words:
        source = word[len(ARRAY_MARK):] if word.startswith(ARRAY_MARK) else word
        target = re.match(r"[A-Za-z_][A-Za-z0-9_]*", source)
        if target is None:
            continue
        state = shell.state
        variable = state.declare_local(target.group()) if local else state.lookup(target.group())
        if variable is None:
            variable = state.scopes[0][target.group()] = Variable(None)
        variable.letter_case = letter_case


async def _make_refs(shell: "Interpreter", words: list[str], io: CommandIO, name: str, local: bool) -> int:
    """`declare -n NAME=TARGET...` (and `local -n`): NAME stands for the variable TARGET."""
    status = 0
    for word in words:
        match = _ASSIGNMENT.fullmatch(word)
        target = match.group(1) if match else word
        if not _NAME.fullmatch(target) or match and (match.group(2) or match.group(3) != "="):
            status = await _fail(shell, io, f"{name}: `{word}': not a valid identifier")
            continue
        if match is None:  # `declare -n r` alone: an ordinary declaration here
            status = await _set_words(shell, [word], io, name, local=local) or status
            continue
        referred = match.group(4)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?", referred):
            status = await _fail(shell, io, f"{name}: `{referred}': invalid variable name for name reference")
            continue
        try:
            shell.state.make_ref(target, referred, local=local)
        except ShellError as error:
            status = await _fail(shell, io, f"{name}: {error.message}")
    return status


async def _make_assoc(shell: "Interpreter", words: list[str], io: CommandIO, name: str,
                      local: bool) -> tuple[list[str], int]:
    """`declare -A NAME...`: each NAME becomes an associative array before its value (if
    any) is assigned. -> (the words that are still to assign, status)."""
    status = 0
    kept = []
    for word in words:
        source = word[len(ARRAY_MARK):] if word.startswith(ARRAY_MARK) else word
        target = re.match(r"[A-Za-z_][A-Za-z0-9_]*", source)
        if target is None:
            kept.append(word)  # _set_words reports it
            continue
        try:
            shell.state.make_assoc(target.group(), local=local)
            kept.append(word)
        except ShellError as error:
            status = await _fail(shell, io, f"{name}: {error.message}")
    return kept, status


async def builtin_unset(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    functions = False
    reference = False
    status = 0
    for arg in args:
        if arg in ("-f", "-v", "-n"):
            functions = arg == "-f"
            reference = arg == "-n"
            continue
        if functions:
            shell.state.functions.pop(arg, None)
            continue
        name, _, subscript = arg.partition("[")
        if not _NAME.fullmatch(name):
            status = await _fail(shell, io, f"unset: `{arg}': not a valid identifier")
            continue
        try:
            if subscript:
                from .. import arithmetic
                key = subscript[:-1] if subscript.endswith("]") else subscript
                shell.state.unset_element(name, key if shell.state.is_assoc(name)
                                          else arithmetic.evaluate(key, shell.state))
            elif shell.state.lookup_raw(name) is not None:
                shell.state.unset(name, reference=reference)
            else:
                shell.state.functions.pop(name, None)
        except ShellError as error:
            status = await _fail(shell, io, error.message)
    return status


async def builtin_shift(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    count = 1
    if args:
        if not re.fullmatch(r"-?\d+", args[0]):
            return await _fail(shell, io, f"shift: {args[0]}: numeric argument required")
        count = int(args[0])
        if count < 0:
            return await _fail(shell, io, f"shift: {args[0]}: shift count out of range")
    if count > len(shell.state.positional):
        return 1
    shell.state.positional = shell.state.positional[count:]
    return 0


async def builtin_set(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    options = shell.state.options
    if not args:
        lines = [_set_line(name, shell) for name in shell.state.names()]
        await io.stdout.write("".join(line + "\n" for line in lines if line).encode("utf-8", "surrogateescape"))
        return 0
    position = 0
    while position < len(args):
        arg = args[position]
        if arg in ("--", "-"):
            shell.state.positional = args[position + 1:]
            return 0
        if arg[:1] not in "-+" or len(arg) < 2:
            shell.state.positional = args[position:]
            return 0
        enable = arg[0] == "-"
        for letter in arg[1:]:
            if letter == "o":
                position += 1
                if position >= len(args):
                    await _list_options(shell, io, enable)
                    return 0
                option = SET_OPTIONS.get(args[position])
                if option is None:
                    return await _fail(shell, io, f"set: {args[position]}: invalid option name", 2)
                setattr(options, option, enable)
            elif letter in SET_LETTERS:
                setattr(options, SET_LETTERS[letter], enable)
            elif letter not in "hBHmbv":  # accepted, no effect here
                return await _fail(shell, io, f"set: {arg[0]}{letter}: invalid option", 2)
        position += 1
    return 0


def _set_line(name: str, shell: "Interpreter") -> str | None:
    variable = shell.state.lookup_raw(name)
    if variable is None or variable.value is None and variable.ref is None:
        return None
    if variable.ref is not None:
        return f"{name}={variable.ref}"
    if variable.is_array:
        return f"{name}={_array_items(variable)}"
    value = variable.value
    if re.fullmatch(r"[A-Za-z0-9_./:,+=@%-]*", value) and value:
        return f"{name}={value}"
    return f"{name}='" + value.replace("'", "'\\''") + "'"


async def _list_options(shell: "Interpreter", io: CommandIO, human: bool) -> None:
    options = shell.state.options
    lines = []
    for name in sorted(SET_OPTIONS):
        on = getattr(options, SET_OPTIONS[name])
        lines.append(f"{name:<15}\t{'on' if on else 'off'}" if human else f"set {'-' if on else '+'}o {name}")
    await io.stdout.write(("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"))


async def builtin_shopt(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    mode = None
    quiet = False
    names = []
    for arg in args:
        if arg in ("-s", "-u"):
            mode = arg == "-s"
        elif arg == "-q":
            quiet = True
        elif arg == "-o":
            continue
        else:
            names.append(arg)
    status = 0
    for name in names:
        if name not in SHOPT_OPTIONS:
            if name in SET_OPTIONS:
                if mode is not None:
                    setattr(shell.state.options, SET_OPTIONS[name], mode)
                continue
            status = await _fail(shell, io, f"shopt: {name}: invalid shell option name")
            continue
        if mode is None:
            on = getattr(shell.state.options, name)
            status = status or (0 if on else 1)
            if not quiet:
                await io.stdout.write(f"{name:<15}\t{'on' if on else 'off'}\n".encode("utf-8", "surrogateescape"))
        else:
            setattr(shell.state.options, name, mode)
    return status


BUILTINS = {"export": builtin_export, "readonly": builtin_readonly, "local": builtin_local,
            "declare": builtin_declare, "typeset": builtin_declare, "unset": builtin_unset,
            "shift": builtin_shift, "set": builtin_set, "shopt": builtin_shopt}
