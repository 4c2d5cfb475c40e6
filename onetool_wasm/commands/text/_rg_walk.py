"""Which files rg searches: ignore files, -g globs, -t types, hidden entries, depth.

The rules follow ripgrep's `ignore` walker. For each entry below a directory operand:
an -g/--iglob glob that matches decides (a plain glob whitelists, `!glob` ignores; with
any plain glob, files that match none are ignored); else the ignore files decide, the
deepest directory first and, within one directory, `.rgignore` over `.ignore` over
`.gitignore` (the last only inside a git repository, a tree with a `.git` folder), the
last matching line of a file winning; then -t/-T types (files only); then, unless
something whitelisted the entry, names starting with `.` are hidden. An ignored
directory is not entered. Entries are visited depth first in byte order of their names,
which is `rg --sort path`'s order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from ...vfs.errors import VFSError
from ...vfs.paths import base_name

SYSTEM_DIR = "/.system"  # the runtime's own files: never walked into from above
IGNORE_FILES = (".rgignore", ".ignore")

# The common types of `rg --type-list` (ripgrep 13), name -> globs.
TYPES: dict[str, tuple[str, ...]] = {
    "c": ("*.[chH]", "*.[chH].in", "*.cats"),
    "cpp": ("*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in",
            "*.hh", "*.hh.in", "*.inl"),
    "css": ("*.css", "*.scss"),
    "go": ("*.go",),
    "html": ("*.ejs", "*.htm", "*.html"),
    "java": ("*.java", "*.jsp", "*.jspx", "*.properties"),
    "js": ("*.js", "*.jsx", "*.vue"),
    "json": ("*.json", "composer.lock"),
    "md": ("*.markdown", "*.md", "*.mdown", "*.mkdn"),
    "py": ("*.py",),
    "rust": ("*.rs",),
    "sh": ("*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh",
           ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login", ".logout",
           ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "bash_login",
           "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout", "zprofile", "zshenv",
           "zshrc"),
    "toml": ("*.toml", "Cargo.lock"),
    "ts": ("*.ts", "*.tsx"),
    "txt": ("*.txt",),
    "yaml": ("*.yaml", "*.yml"),
}
# Common aliases ripgrep also knows.
TYPE_ALIASES = {"python": "py", "rs": "rust", "markdown": "md", "yml": "yaml", "javascript": "js",
                "typescript": "ts", "golang": "go"}


class GlobError(ValueError):
    """A glob that cannot be read (an unclosed `[` or `{`)."""


def glob_to_regex(glob: str) -> str:
    """A gitignore-style glob as a regex over a `/`-separated path (`*` stays in one name)."""
    out: list[str] = []
    i, n = 0, len(glob)
    depth = 0  # open `{` alternations
    while i < n:
        char = glob[i]
        if glob.startswith("**", i) and (i == 0 or glob[i - 1] == "/") and (i + 2 == n or glob[i + 2] == "/"):
            if i + 2 == n:
                out.append(".*")
                i += 2
            else:
                out.append("(?:.*/)?")
                i += 3
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", i + 2)
            if end < 0:
                raise GlobError(f"unclosed character class in glob '{glob}'")
            body = glob[i + 1:end]
            negated = body[:1] in ("!", "^")
            body = body[1:] if negated else body
            escaped = "".join("\\" + c if c in "\\^[]" else c for c in body)
            out.append("[" + ("^/" if negated else "") + escaped + "]")
            i = end
        elif char == "{":
            depth += 1
            out.append("(?:")
        elif char == "}" and depth:
            depth -= 1
            out.append(")")
        elif char == "," and depth:
            out.append("|")
        elif char == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(char))
        i += 1
    if depth:
        raise GlobError(f"unclosed alternation in glob '{glob}'")
    return "".join(out)


@dataclass
class Rule:
    pattern: re.Pattern[str]
    negated: bool
    dir_only: bool


def parse_rule(line: str, case_insensitive: bool = False) -> Rule | None:
    """One gitignore line (None: blank or comment)."""
    text = line.rstrip("\r")
    stripped = text.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(text):
        stripped += " "
    text = stripped
    if not text or text.startswith("#"):
        return None
    negated = text.startswith("!")
    if negated:
        text = text[1:]
    elif text.startswith(("\\!", "\\#")):
        text = text[1:]
    dir_only = text.endswith("/")
    text = text.rstrip("/")
    if not text:
        return None
    if "/" in text:
        text = text.lstrip("/")
    else:
        text = "**/" + text
    try:
        source = glob_to_regex(text)
        pattern = re.compile(source, re.DOTALL | (re.IGNORECASE if case_insensitive else 0))
    except (GlobError, re.error):
        return None
    return Rule(pattern, negated, dir_only)


def match_rules(rules: Iterable[Rule], relative: str, is_dir: bool) -> bool | None:
    """True: ignored, False: whitelisted, None: no rule matches (the last match wins)."""
    verdict: bool | None = None
    for rule in rules:
        if rule.dir_only and not is_dir:
            continue
        if rule.pattern.fullmatch(relative):
            verdict = not rule.negated
    return verdict


@dataclass
class Filters:
    """What the command line asks of the walk."""
    hidden: bool = False
    no_ignore: bool = False
    max_depth: int | None = None
    overrides: list[Rule] = field(default_factory=list)  # -g: negated=True means a whitelist
    whitelists: int = 0
    types_select: list[re.Pattern[str]] = field(default_factory=list)
    types_negate: list[re.Pattern[str]] = field(default_factory=list)

    def add_glob(self, glob: str, case_insensitive: bool) -> None:
        """`-g GLOB` whitelists, `-g !GLOB` ignores (rules read as gitignore lines, inverted)."""
        whitelist = not glob.startswith("!")
        rule = parse_rule(glob if whitelist else glob[1:], case_insensitive)
        if rule is None:
            raise GlobError(f"invalid glob '{glob}'")
        rule.negated = whitelist
        self.whitelists += whitelist
        self.overrides.append(rule)


def type_patterns(name: str, types: dict[str, tuple[str, ...]] | None = None) -> list[re.Pattern[str]] | None:
    """The file-name patterns of a type (None: no such type)."""
    globs = (types or TYPES).get(name) or TYPES.get(TYPE_ALIASES.get(name, name))
    if globs is None:
        return None
    try:
        return [re.compile(glob_to_regex(glob), re.DOTALL) for glob in globs]
    except (GlobError, re.error):
        raise GlobError(f"invalid glob in type '{name}'") from None


class Walker:
    """Yields (absolute path, shown path) for every file a directory operand holds."""

    def __init__(self, vfs, filters: Filters, cancelled) -> None:
        self.vfs = vfs
        self.filters = filters
        self.cancelled = cancelled
        self.errors: list[str] = []
        self._rules: dict[str, list[list[Rule]]] = {}
        self._git: dict[str, bool] = {}

    async def _load(self, directory: str, name: str) -> list[Rule]:
        path = directory.rstrip("/") + "/" + name
        try:
            data = await self.vfs.read_bytes(path)
        except (VFSError, OSError):
            return []
        text = data.decode("utf-8", "replace")
        return [rule for line in text.split("\n") if (rule := parse_rule(line)) is not None]

    async def _in_git(self, directory: str) -> bool:
        """Whether the directory or one above it holds `.git` (iterative: no deep recursion)."""
        chain: list[str] = []
        current: str | None = directory
        found = False
        while current is not None and current not in self._git:
            chain.append(current)
            if await self._exists(current.rstrip("/") + "/.git"):
                found = True
                break
            current = _parent(current)
        if not found and current is not None:
            found = self._git[current]
        for name in chain:
            self._git[name] = found
        return found

    async def _exists(self, path: str) -> bool:
        try:
            return await self.vfs.exists(path)
        except (VFSError, OSError):
            return False

    async def _levels(self, directory: str) -> list[list[Rule]]:
        """The ignore rules of one directory, strongest first."""
        if directory not in self._rules:
            levels = [await self._load(directory, name) for name in IGNORE_FILES]
            if await self._in_git(directory):
                levels.append(await self._load(directory, ".gitignore"))
            self._rules[directory] = [level for level in levels if level]
        return self._rules[directory]

    async def _ignore_verdict(self, path: str, is_dir: bool) -> bool | None:
        directory = _parent(path)
        while directory is not None:
            relative = path[len(directory.rstrip("/")) + 1:]
            for rules in await self._levels(directory):
                verdict = match_rules(rules, relative, is_dir)
                if verdict is not None:
                    return verdict
            directory = _parent(directory)
        return None

    async def skipped(self, path: str, shown: str, is_dir: bool) -> bool:
        filters = self.filters
        if filters.overrides:
            relative = shown[2:] if shown.startswith("./") else shown
            verdict = match_rules(filters.overrides, relative, is_dir)
            if verdict is not None:
                return verdict
            if filters.whitelists and not is_dir:
                return True
        whitelisted = False
        if not filters.no_ignore:
            verdict = await self._ignore_verdict(path, is_dir)
            if verdict:
                return True
            whitelisted = verdict is False
        if not is_dir and (filters.types_select or filters.types_negate):
            name = base_name(path)
            if any(p.fullmatch(name) for p in filters.types_negate):
                return True
            if filters.types_select:
                if not any(p.fullmatch(name) for p in filters.types_select):
                    return True
                whitelisted = True
        return not whitelisted and not filters.hidden and base_name(path).startswith(".")

    async def walk(self, directory: str, shown: str):
        """(path, shown) of the files below `directory`, depth first, names in byte order;
        `shown` is how the directory is written in output ("" for the implicit cwd). An
        explicit stack of directory listings keeps the Python stack flat."""
        stack: list[tuple[list[tuple[str, str, bool]], int]] = []
        listing = await self._listing(directory, shown, 0)
        if listing is not None:
            stack.append((listing, 0))
        while stack:
            if self.cancelled():
                return
            entries, depth = stack[-1]
            if not entries:
                stack.pop()
                continue
            path, child, is_dir = entries.pop()
            if await self.skipped(path, child, is_dir):
                continue
            if not is_dir:
                yield path, child
                continue
            listing = await self._listing(path, child, depth + 1)
            if listing is not None:
                stack.append((listing, depth + 1))

    async def _listing(self, directory: str, label: str, depth: int) -> list[tuple[str, str, bool]] | None:
        """The entries of one directory in byte order, or None past --max-depth."""
        if self.filters.max_depth is not None and depth >= self.filters.max_depth:
            return None
        try:
            names = await self.vfs.listdir(directory)
        except (VFSError, OSError) as error:
            self.errors.append(f"rg: {label or '.'}: {getattr(error, 'message', error)}")
            return None
        entries = []
        for entry in sorted(names, key=lambda item: item.rstrip("/").encode("utf-8", "surrogateescape")):
            name = entry.rstrip("/")
            path = directory.rstrip("/") + "/" + name
            if path != SYSTEM_DIR:
                entries.append((path, _below(label, name), entry.endswith("/")))
        entries.reverse()  # popped from the end
        return entries


def _parent(path: str) -> str | None:
    if path in ("", "/"):
        return None
    head = path.rstrip("/").rsplit("/", 1)[0]
    return head or "/"


def _below(label: str, name: str) -> str:
    if label == "":
        return name
    return label + name if label.endswith("/") else f"{label}/{name}"
