"""Policy: which operations run, which need a human's consent, which are refused.

Subjects are `namespace:operation` (built-in commands are `<group>:<command>`, `fs:rm`).
Patterns use `*` as a wildcard; a pattern without `:` applies to every namespace.
Matching ignores case, `-`, `_` and spaces, so `petstore:delete_pet` matches `deletePet`.

Precedence: deny, allow, confirm, sensitive (-> confirm), strict mode (-> deny),
read (-> allow), anything else (-> confirm).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

VERDICTS = ("allow", "confirm", "deny")
DEFAULT_CONFIRM_TIMEOUT_SECONDS = 300.0
MODES = ("guided", "strict")
KINDS = ("read", "write", "sensitive")

# First words that name an operation which only reads. Matched as whole words.
READ_VERBS = frozenset("""
    list get describe search query lookup head scan select check test validate preview
    estimate simulate verify discover count detect is can has filter retrieve
    view read poll peek find fetch show exists
""".split())

# Words that change something. Fail-safe: one anywhere in a name makes it a write, even after
# a read verb (`findOneAndDelete`, `getOrCreateUser`, `testAndSet`, `validateAndCommit`).
WRITE_VERBS = frozenset("""
    add append apply approve archive assign attach ban block cancel change charge clear close
    commit configure create decline delete deploy destroy detach disable drop edit enable
    erase execute expire flush grant import insert install invite invoke kill lock mark merge
    modify move mutate patch pay post publish purge push put reboot refund register reject
    remove rename replace reset resolve restart restore revoke rotate run save send set start
    stop store submit suspend terminate transfer trigger truncate uninstall unlock unregister
    update upload upsert write
""".split())

# First words that ask a question (`canEdit`, `isDeleted`): reads, unless the name goes on
# to do something (`existsOrCreate`).
PREDICATES = frozenset({"is", "can", "has", "exists"})

# A leading word that says "many of": the next word is the verb (`batchDeleteThings`).
BATCH_WORDS = frozenset({"batch", "bulk"})

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_SEPARATORS = re.compile(r"[-_\s]")


def name_words(name: str) -> list[str]:
    """`get_send_quota` -> [get, send, quota]; `batchGetItems` -> [batch, get, items]."""
    return [word.lower() for word in _WORD.findall(name)]


def infer_kind(name: str) -> str:
    """"read" when the name's first word (after `batch`/`bulk`) is a read verb and no word
    is a write verb, or when it asks a question (`canEdit`); anything else is a "write"
    (fail-safe: an unknown name asks first)."""
    words = name_words(name)
    if words and words[0] in BATCH_WORDS:
        words = words[1:]
    if words and words[0] in PREDICATES and not {"and", "or"} & set(words):
        return "read"
    if any(word in WRITE_VERBS for word in words):
        return "write"
    return "read" if words and words[0] in READ_VERBS else "write"


def normalize_name(text: str) -> str:
    """The form patterns and subjects are compared in: lower case, no `-`, `_` or spaces."""
    return _SEPARATORS.sub("", text).lower()


@dataclass(frozen=True)
class Pattern:
    """One policy pattern, `namespace:operation` or `operation`, with `*` wildcards."""
    text: str
    namespace: re.Pattern[str] | None
    operation: re.Pattern[str]

    @classmethod
    def parse(cls, text: str) -> "Pattern":
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"policy pattern must be a non-empty string, got {text!r}")
        namespace, _, operation = text.rpartition(":")
        return cls(text, _wildcard(namespace) if ":" in text else None, _wildcard(operation))

    def matches(self, namespace: str, operation: str) -> bool:
        """`deletePet` against `*:delete*`; a batch form (`batchDeletePets`) matches what the
        same name without its batch word matches."""
        if self.namespace is not None and not self.namespace.fullmatch(normalize_name(namespace)):
            return False
        return any(self.operation.fullmatch(form) for form in _operation_forms(operation))


def _operation_forms(operation: str) -> list[str]:
    forms = [normalize_name(operation)]
    words = name_words(operation)
    if len(words) > 1 and words[0] in BATCH_WORDS:
        forms.append("".join(words[1:]))
    return forms


def _wildcard(text: str) -> re.Pattern[str]:
    parts = normalize_name(text).split("*")
    return re.compile(".*".join(re.escape(part) for part in parts))


@dataclass(frozen=True)
class Decision:
    verdict: str            # "allow" | "confirm" | "deny"
    reason: str             # why, in words a model and a human can read
    kind: str               # the effective kind: "read" | "write" | "sensitive"
    rule: str | None = None  # the pattern that decided, when one did

    @property
    def allowed(self) -> bool:
        return self.verdict == "allow"


@dataclass(frozen=True)
class Policy:
    mode: str = "guided"
    allow: tuple[Pattern, ...] = ()
    confirm: tuple[Pattern, ...] = ()
    deny: tuple[Pattern, ...] = ()
    sensitive: tuple[Pattern, ...] = ()
    on_no_confirm: str = "deny"  # what "confirm" becomes when nobody can be asked
    # How long a human may take to answer before the ask counts as declined (None: no limit).
    confirm_timeout_seconds: float | None = DEFAULT_CONFIRM_TIMEOUT_SECONDS
    # Ask before a built-in replaces or truncates a file that exists, even where it is allowed.
    confirm_overwrites: bool = False
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_dict(cls, options: Mapping[str, Any] | None) -> "Policy":
        """Build from {"mode", "allow", "confirm", "deny", "sensitive", "onNoConfirm",
        "confirmTimeoutSeconds"} (or snake_case)."""
        data = dict(options or {})
        for camel, snake in (("onNoConfirm", "on_no_confirm"), ("confirmTimeoutSeconds", "confirm_timeout_seconds"),
                             ("confirmOverwrites", "confirm_overwrites")):
            if camel in data:
                data[snake] = data.pop(camel)
        unknown = set(data) - {"mode", "allow", "confirm", "deny", "sensitive", "on_no_confirm",
                               "confirm_timeout_seconds", "confirm_overwrites"}
        if unknown:
            raise ValueError(f"unknown policy option: {', '.join(sorted(unknown))}")
        mode = data.get("mode", "guided")
        if mode not in MODES:
            raise ValueError(f"policy mode must be one of {', '.join(MODES)}, got {mode!r}")
        on_no_confirm = data.get("on_no_confirm", "deny")
        if on_no_confirm not in ("deny", "allow"):
            raise ValueError(f"policy onNoConfirm must be 'deny' or 'allow', got {on_no_confirm!r}")
        timeout = data.get("confirm_timeout_seconds", DEFAULT_CONFIRM_TIMEOUT_SECONDS)
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                    or not timeout > 0):
            raise ValueError(f"policy confirmTimeoutSeconds must be a positive number or null, got {timeout!r}")
        lists = {key: _patterns(data.get(key), key) for key in ("allow", "confirm", "deny", "sensitive")}
        overwrites = data.get("confirm_overwrites", False)
        if not isinstance(overwrites, bool):
            raise ValueError(f"policy confirmOverwrites must be true or false, got {overwrites!r}")
        return cls(mode=mode, on_no_confirm=on_no_confirm, confirm_timeout_seconds=timeout,
                   confirm_overwrites=overwrites, source=dict(options or {}), **lists)

    @classmethod
    def coerce(cls, value: "Policy | Mapping[str, Any] | None") -> "Policy | None":
        if value is None or isinstance(value, Policy):
            return value
        if isinstance(value, Mapping):
            return cls.from_dict(value)
        raise TypeError(f"policy must be a Policy or a dict, got {type(value).__name__}")

    def kind_of(self, namespace: str, operation: str, declared: str | None = None) -> str:
        """The sensitive list first, then the declared kind, then the name's first word."""
        if _first_match(self.sensitive, namespace, operation):
            return "sensitive"
        if declared is not None:
            if declared not in KINDS:
                raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {declared!r}")
            return declared
        return infer_kind(operation)

    def decide(self, namespace: str, operation: str, kind: str | None = None) -> Decision:
        kind = self.kind_of(namespace, operation, kind)
        for verdict, patterns in (("deny", self.deny), ("allow", self.allow), ("confirm", self.confirm)):
            rule = _first_match(patterns, namespace, operation)
            if rule is not None:
                return Decision(verdict, f'matches {verdict} pattern "{rule.text}"', kind, rule.text)
        if kind == "sensitive":
            return Decision("confirm", "sensitive operation", kind)
        if self.mode == "strict":
            return Decision("deny", "strict mode and not in the allow list", kind)
        if kind == "read":
            return Decision("allow", "read operation", kind)
        return Decision("confirm", "write operation", kind)


def _patterns(value: Any, key: str) -> tuple[Pattern, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Iterable):
        raise ValueError(f"policy {key} must be a list of patterns")
    return tuple(Pattern.parse(item) for item in value)


def _first_match(patterns: tuple[Pattern, ...], namespace: str, operation: str) -> Pattern | None:
    return next((p for p in patterns if p.matches(namespace, operation)), None)


GUIDED = Policy()
