"""The state of one shell: variables (scalars, indexed and associative arrays, with function-local scopes),
functions, positional parameters, options, the working directory and the last status.

A run starts from a fresh state (the cwd `/`); a host that wants a session keeps one.
`( ... )` and `$( ... )` run in a copy (`fork`), so nothing they change leaks out.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


# bash's $MACHTYPE and ${BASH_VERSINFO[5]} for the sandbox's machine (uname -m: wasm32).
MACHTYPE = "wasm32-unknown-linux-gnu"
# Links followed from a nameref before giving up (bash warns of a circular reference).
MAX_NAMEREF_HOPS = 8


class ShellError(Exception):
    """An error the shell reports on stderr as `bash: line N: message` and that ends the
    current command with `status` (an expansion error, a readonly variable...).
    fatal: a non-interactive shell leaves the whole script (`${x?}`, `set -u` unset)."""

    def __init__(self, message: str, status: int = 1, fatal: bool = False, with_line: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.fatal = fatal
        self.with_line = with_line  # False: bash prints `bash: message` (failglob's "no match")


class LineError(ShellError):
    """An error that ends the rest of the current line but not the script (an assignment to
    a readonly variable, an arithmetic error in an expansion), as in a non-interactive bash."""


class Assoc:
    """An associative array (`declare -A`): string keys. Its elements come out (`${m[@]}`,
    `${!m[@]}`) in bash's order, which scripts see: bash keeps them in a hash table of 1024
    buckets (FNV-1 hash of the key) and walks the buckets in turn, newest key first within
    one."""

    BUCKETS = 1024

    def __init__(self, items: dict[str, str] | None = None, assigned: bool = False) -> None:
        self.items: dict[str, str] = dict(items or {})
        # `declare -A m` alone shows as `declare -A m`; once assigned (even emptied), `m=()`.
        self.assigned = assigned or bool(self.items)

    def __setitem__(self, key: str, value: str) -> None:
        self.items[key] = value
        self.assigned = True

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.items.get(key, default)

    def pop(self, key: str, default: str | None = None) -> str | None:
        return self.items.pop(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.items

    def __len__(self) -> int:
        return len(self.items)

    def keys(self) -> list[str]:
        """The keys in bash's order (insertion order within a bucket, reversed)."""
        buckets: dict[int, list[str]] = {}
        for key in self.items:
            buckets.setdefault(_fnv1(key) & (self.BUCKETS - 1), []).append(key)
        return [key for bucket in sorted(buckets) for key in reversed(buckets[bucket])]

    def __deepcopy__(self, memo) -> "Assoc":
        return Assoc(self.items, self.assigned)


def _fnv1(key: str) -> int:
    """bash's hash_string: 32-bit FNV-1 of the key's bytes."""
    value = 2166136261
    for byte in key.encode("utf-8", "surrogateescape"):
        value = (value * 16777619) & 0xFFFFFFFF
        value ^= byte
    return value


@dataclass
class Variable:
    # A dict is an indexed (sparse) array, an Assoc an associative one; None is declared but
    # unset (`local v`).
    value: str | dict[int, str] | Assoc | None = ""
    exported: bool = False
    readonly: bool = False
    integer: bool = False
    ref: str | None = None  # `declare -n`: the name this one stands for (value unused)
    letter_case: str | None = None  # `declare -l` "lower" / `declare -u` "upper": on assignment

    def flags(self) -> str:
        """The attributes as `declare -p` and `${x@a}` show them (`aA i l r u x`)."""
        return ("A" if self.is_assoc else "a" if self.is_array else "") + ("i" if self.integer else "") + \
            ("l" if self.letter_case == "lower" else "") + ("r" if self.readonly else "") + \
            ("u" if self.letter_case == "upper" else "") + ("x" if self.exported else "")

    def cased(self, value: str) -> str:
        if self.letter_case == "lower":
            return value.lower() if value.isascii() else "".join(c.lower() if c.isascii() else c for c in value)
        if self.letter_case == "upper":
            return value.upper() if value.isascii() else "".join(c.upper() if c.isascii() else c for c in value)
        return value

    @property
    def is_array(self) -> bool:
        return isinstance(self.value, (dict, Assoc))

    @property
    def is_assoc(self) -> bool:
        return isinstance(self.value, Assoc)

    def scalar(self) -> str:
        """`$a` of an array is element 0 (key "0" of an associative one)."""
        if isinstance(self.value, dict):
            return self.value.get(0, "")
        if isinstance(self.value, Assoc):
            return self.value.get("0", "")
        return self.value or ""

    def elements(self) -> list[str]:
        if isinstance(self.value, dict):
            return [self.value[k] for k in sorted(self.value)]
        if isinstance(self.value, Assoc):
            return [self.value.items[k] for k in self.value.keys()]
        return [] if self.value is None else [self.value]

    def keys(self) -> list[str]:
        """`${!a[@]}`: the indices or keys that are set."""
        if isinstance(self.value, dict):
            return [str(key) for key in sorted(self.value)]
        if isinstance(self.value, Assoc):
            return self.value.keys()
        return [] if self.value is None else ["0"]


@dataclass
class Options:
    errexit: bool = False    # set -e
    nounset: bool = False    # set -u
    pipefail: bool = False   # set -o pipefail
    xtrace: bool = False     # set -x
    noglob: bool = False     # set -f
    noclobber: bool = False  # set -C
    nullglob: bool = False   # shopt -s nullglob
    failglob: bool = False   # shopt -s failglob
    dotglob: bool = False    # shopt -s dotglob
    nocasematch: bool = False
    extglob: bool = False
    globstar: bool = False   # shopt -s globstar: `**` spans directories
    lastpipe: bool = False   # shopt -s lastpipe: a pipeline's last command runs in this shell
    expand_aliases: bool = False  # shopt -s expand_aliases (off in scripts, as in bash)

    def flags(self) -> str:
        """`$-` in bash's order (h and B are always on there; c: commands came from -c)."""
        letters = [("e", self.errexit), ("f", self.noglob), ("h", True), ("u", self.nounset),
                   ("x", self.xtrace), ("B", True), ("C", self.noclobber), ("c", True)]
        return "".join(letter for letter, on in letters if on)


@dataclass
class ShellState:
    scopes: list[dict[str, Variable]] = field(default_factory=lambda: [{}])
    functions: dict[str, Any] = field(default_factory=dict)   # name -> ast.FunctionDef
    positional: list[str] = field(default_factory=list)
    script_name: str = "bash"                                  # $0
    options: Options = field(default_factory=Options)
    cwd: str = "/"
    directory_stack: list[str] = field(default_factory=list)   # pushd / popd
    getopts_offset: tuple[int, int] = (0, 0)                   # (OPTIND, position) inside -abc
    last_status: int = 0
    function_depth: int = 0
    subshell_depth: int = 0
    exit_trap: str | None = None                               # `trap '...' EXIT`
    err_trap: str | None = None                                # `trap '...' ERR` (not in subshells)
    call_stack: list[str] = field(default_factory=list)         # FUNCNAME, innermost last
    umask: int = 0o022
    last_argument: str = ""                                     # `$_`: the last word of the last command
    aliases: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (text, line defined)
    # Run from a script file (`bash FILE`): a fatal expansion error exits 1, not 127.
    script_file: bool = False

    @classmethod
    def fresh(cls, environment: dict[str, str] | None = None) -> "ShellState":
        state = cls()
        defaults = {"HOME": "/", "PATH": "/usr/local/bin:/usr/bin:/bin", "PWD": "/", "SHELL": "/bin/bash",
                    "USER": "user", "LOGNAME": "user", "TERM": "dumb", "LANG": "C", "LC_ALL": "C"}
        for name, value in {**defaults, **(environment or {})}.items():
            state.scopes[0][name] = Variable(value, exported=True)
        state.scopes[0]["IFS"] = Variable(" \t\n")
        state.scopes[0]["OPTIND"] = Variable("1")
        state.scopes[0]["BASH_VERSION"] = Variable("5.2.15(1)-release")
        state.scopes[0]["BASH_VERSINFO"] = Variable(
            dict(enumerate(("5", "2", "15", "1", "release", MACHTYPE))), readonly=True)
        # The sandbox's identity, as whoami, id, uname and hostname give it (commands/system/).
        for name, value in (("UID", "1000"), ("EUID", "1000"), ("PPID", "999")):
            state.scopes[0][name] = Variable(value, readonly=True)
        for name, value in (("HOSTNAME", "onetool"), ("HOSTTYPE", "wasm32"), ("MACHTYPE", MACHTYPE),
                            ("OSTYPE", "linux-gnu"), ("SHLVL", "1")):
            state.scopes[0].setdefault(name, Variable(value))
        return state

    def fork(self) -> "ShellState":
        """A subshell's copy: changes to it never reach this state."""
        child = copy.deepcopy(self)
        child.subshell_depth += 1
        child.err_trap = None  # bash: without `set -E`, subshells do not inherit it
        return child

    # ------------------------------------------------------------ variables

    def lookup(self, name: str) -> Variable | None:
        """The variable `name` stands for (a nameref followed to its target), or None."""
        for scope in reversed(self.scopes):
            variable = scope.get(name)
            if variable is not None:
                return variable if variable.ref is None else self.lookup_raw(self.resolve(name))
        return None

    def lookup_raw(self, name: str) -> Variable | None:
        """The variable of that very name, a nameref itself included."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def resolve(self, name: str) -> str:
        """The name at the end of `name`'s nameref chain (`declare -n r=v`: r -> v); a
        circular chain resolves to a name that is never set."""
        for _ in range(MAX_NAMEREF_HOPS):
            variable = self.lookup_raw(name)
            if variable is None or variable.ref is None:
                return name
            name = variable.ref
        return "\x00circular"

    def make_ref(self, name: str, target: str, *, local: bool = False) -> None:
        """`declare -n name=target`."""
        if target == name:
            raise ShellError(f"{name}: nameref variable self references not allowed")
        scope = self.scopes[-1] if local else self._scope_of(name)
        variable = scope.get(name)
        if variable is not None and variable.readonly:
            raise ShellError(f"{name}: readonly variable")
        scope[name] = Variable(None, exported=bool(variable and variable.exported), ref=target)

    def get(self, name: str) -> str | None:
        """A scalar variable's value (element 0 of an array), None when unset."""
        variable = self.lookup(name)
        if variable is None:
            return None
        value = variable.value
        if type(value) is str:  # the common case first
            return value
        if value is None or isinstance(value, dict) and 0 not in value or isinstance(value, Assoc) and "0" not in value:
            return None
        return variable.scalar()

    def is_assoc(self, name: str) -> bool:
        variable = self.lookup(name)
        return variable is not None and variable.is_assoc

    def get_element(self, name: str, index: int | str) -> str | None:
        """Element `index` of an indexed array (an int), or key `index` of an associative one."""
        variable = self.lookup(name)
        if variable is None:
            return None
        if isinstance(variable.value, Assoc):
            return variable.value.get(str(index))
        if isinstance(variable.value, dict):
            if index < 0:
                keys = sorted(variable.value)
                index = keys[index] if -index <= len(keys) else -1
            return variable.value.get(index)
        return variable.value if index == 0 else None

    def set(self, name: str, value: str, *, local: bool = False) -> None:
        variable = self._writable(name, local)
        if variable.letter_case:
            value = variable.cased(value)
        current = variable.value
        if type(current) is str or current is None:
            variable.value = value
        elif isinstance(current, dict):
            current[0] = value
        else:
            current["0"] = value

    def set_element(self, name: str, index: int | str, value: str) -> None:
        variable = self._writable(name, False)
        if variable.letter_case:
            value = variable.cased(value)
        if isinstance(variable.value, Assoc):
            variable.value[str(index)] = value
            return
        if not isinstance(variable.value, dict):
            variable.value = {0: variable.value} if variable.value else {}
        if index < 0:
            keys = sorted(variable.value)
            if -index > len(keys):
                raise ShellError(f"{name}[{index}]: bad array subscript")
            index = keys[-1] + 1 + index
        variable.value[index] = value

    def make_assoc(self, name: str, *, local: bool = False) -> Variable:
        """`declare -A name`: an empty associative array, unless it already is one."""
        variable = self.declare_local(name) if local else self._writable(name, False)
        if not isinstance(variable.value, Assoc):
            if isinstance(variable.value, dict) and variable.value:
                raise ShellError(f"{name}: cannot convert indexed to associative array")
            variable.value = Assoc()
        return variable

    def set_array(self, name: str, values: list[str], *, append: bool = False, local: bool = False) -> None:
        variable = self._writable(name, local)
        current = variable.value if isinstance(variable.value, dict) else (
            {0: variable.value} if append and variable.value else {})
        if not append:
            current = {}
        start = max(current) + 1 if current else 0
        for offset, value in enumerate(values):
            current[start + offset] = variable.cased(value) if variable.letter_case else value
        variable.value = current

    def unset(self, name: str, *, reference: bool = False) -> None:
        """Unset the variable `name` stands for; `reference` (`unset -n`): the nameref itself."""
        if not reference:
            name = self.resolve(name)
        for scope in reversed(self.scopes):
            if name in scope:
                if scope[name].readonly:
                    raise ShellError(f"unset: {name}: cannot unset: readonly variable")
                del scope[name]
                return

    def unset_element(self, name: str, index: int | str) -> None:
        variable = self.lookup(name)
        if variable is not None and isinstance(variable.value, Assoc):
            variable.value.pop(str(index))
        elif variable is not None and isinstance(variable.value, dict):
            variable.value.pop(index, None)
        elif variable is not None and index == 0:
            self.unset(name)

    def declare_local(self, name: str) -> Variable:
        """`local name`: a variable of the innermost function scope (unset until assigned,
        as bash shows it to `${name-unset}`)."""
        scope = self.scopes[-1]
        if name not in scope:
            outer = self.lookup(name)
            scope[name] = Variable(None, exported=bool(outer and outer.exported))
        return scope[name]

    def exported(self) -> dict[str, str]:
        """The environment a command sees: every exported scalar, innermost scope winning."""
        environment: dict[str, str] = {}
        for scope in self.scopes:
            for name, variable in scope.items():
                if variable.exported and not variable.is_array:
                    environment[name] = variable.scalar()
                elif name in environment and not variable.exported:
                    environment.pop(name)
        return environment

    def names(self) -> list[str]:
        seen: dict[str, None] = {}
        for scope in self.scopes:
            for name in scope:
                seen[name] = None
        return sorted(seen)

    def save(self, name: str) -> Variable | None:
        """A copy of a variable as it is now, for `restore` (`X=1 cmd` holds for cmd only)."""
        variable = self.lookup(name)
        return copy.deepcopy(variable) if variable is not None else None

    def restore(self, name: str, saved: Variable | None) -> None:
        name = self.resolve(name)
        scope = self._scope_of_resolved(name)
        if saved is None:
            scope.pop(name, None)
        else:
            scope[name] = saved

    def _scope_of(self, name: str) -> dict[str, Variable]:
        return self._scope_of_resolved(self.resolve(name))

    def _scope_of_resolved(self, name: str) -> dict[str, Variable]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope
        return self.scopes[0]

    def _writable(self, name: str, local: bool) -> Variable:
        # One walk over the scopes in the common case (no nameref on the way): assignments
        # are the hottest path of a loop.
        scope, variable = self.scopes[0], None
        for candidate in reversed(self.scopes):
            variable = candidate.get(name)
            if variable is not None:
                scope = candidate
                break
        if variable is not None and variable.ref is not None:
            name = self.resolve(name)
            scope = self._scope_of_resolved(name)
            variable = scope.get(name)
        if local:
            scope = self.scopes[-1]
            variable = scope.get(name)
        if variable is None:
            variable = scope[name] = Variable("")
        elif variable.readonly:
            raise LineError(f"{name}: readonly variable")
        return variable
