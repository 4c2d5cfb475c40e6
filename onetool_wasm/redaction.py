"""Redaction: secrets never reach the model, in results, error details or consent prompts.

Two ways a secret is recognised:

* by KEY. A key is split into words (camelCase, snake_case, kebab-case, dots, spaces:
  `privateKeyPem` -> private key pem). It is secret when, after dropping case and
  separators, it names a credential (`apiKey`, `x-api-key`, `client_secret`, `password`,
  `authorization`...) or ends in one (`accessToken`, `db_password`), or when one of its
  words is a credential word (`secret_value`, `jwt`, `private_key_pem`). Not secret:
  pagination keys (`NextToken`), keys whose credential word is followed by a describing word
  (`token_count`, `tokenType`, `secretary_name`, `password_hint`) and counts (`maxTokens`).
  A few words are only "weakly" secret (`tokens`, `session`, `auth`): their text values are
  hidden, their numbers, booleans and objects are kept (`{"tokens": 5}` stays readable).
* by VALUE, in any text: the values a host registered (`Provider(secrets=[...])`: plain,
  base64 at any alignment, URL- and JSON-escaped), and known credential shapes: `Bearer`/
  `Basic` credentials, `sk-`, `ghp_`, `github_pat_`, `xoxb-`, AWS key ids with the secret
  next to them, JWTs, PEM private key blocks, `key=value`/`key: value`/`"key": "value"` and
  `--key value` pairs with a secret key, header pairs (`["Authorization", "..."]`,
  `{"name": "Authorization", "value": "..."}`) and URL passwords (`scheme://user:PASS@`).

Every pattern is linear and bounded: 1 MB of any text is redacted in well under a second.
"""
from __future__ import annotations

import base64
import dataclasses
import functools
import json
import re
from typing import Any, Iterable, Sequence
from urllib.parse import quote, quote_plus


REDACTED = "**REDACTED**"

# --- keys ------------------------------------------------------------------------------------

_SECRET_KEYS = frozenset("""
    apikey xapikey apikeys secret secrets clientsecret secretkey secretaccesskey
    awssecretaccesskey password passwd pwd passphrase privatekey authorization
    proxyauthorization auth xauth cookie setcookie credential credentials token bearer
    signature xsignature sessionid sessionkey connectionstring jwt
""".split())
_SECRET_SUFFIXES = ("token", "secret", "password", "passwd", "passphrase", "apikey", "privatekey",
                    "accesskey", "secretkey", "credentials", "authorization")
# Keys ending in "token" that carry a page position, not a credential.
_PAGINATION_PREFIXES = frozenset("""
    next nextpage page continuation pagination cursor prev previous resume start marker
    sync after before last
""".split())
# One word is enough: `secret_value`, `db-password-file`... (unless a describing word follows).
_SECRET_WORDS = frozenset("""
    password passwords passwd pwd passphrase secret secrets token credential credentials
    jwt bearer authorization cookie cookies apikey apikeys accesstoken refreshtoken idtoken
    privatekey secretkey clientsecret dsn
""".split())
# Two adjacent words: `private key`, `api key`, `access key`, `session id`...
_SECRET_PAIRS = frozenset([
    ("api", "key"), ("api", "keys"), ("private", "key"), ("access", "key"), ("secret", "key"),
    ("client", "secret"), ("session", "id"), ("session", "key"), ("session", "token"),
    ("connection", "string"), ("auth", "token"), ("auth", "key"), ("signing", "key"),
    ("encryption", "key"), ("master", "key"), ("account", "key"), ("shared", "key"),
])
# Weakly secret: text values hidden, numbers/booleans/objects kept.
_WEAK_WORDS = frozenset("tokens session auth sessions".split())
# A word after the credential word that makes the key describe the credential, not hold it.
_DESCRIBING = frozenset("""
    count counts type types kind name names length len size limit limits max min used usage
    remaining url uri urls endpoint path file filename dir env var field fields param hint
    format expires expiry expiration exp ttl timeout at in enabled required rotation policy
    version prefix label description ref arn location provider method mode scheme source
    status strength valid validity index position
""".split())
# Words before `tokens` that make it a count (`maxTokens`, `prompt_tokens`).
_COUNT_WORDS = frozenset("""
    max min total prompt completion input output num n cached cache reasoning remaining used
    context response request generated
""".split())

_WORDS = re.compile(r"[A-Z]{1,64}(?![a-z])|[A-Z]?[a-z]{1,64}|[0-9]{1,64}")


@functools.lru_cache(maxsize=4096)
def _key_class(key: str) -> int:
    """0: not secret, 1: weakly secret (text values only), 2: secret."""
    words = [word.lower() for word in _WORDS.findall(key[:200])]
    norm = "".join(words)
    if not norm:
        return 0
    if norm.endswith("token") and norm[:-len("token")] in _PAGINATION_PREFIXES:
        return 0
    for index, word in enumerate(words):
        pair = index + 1 < len(words) and (word, words[index + 1]) in _SECRET_PAIRS
        if word not in _SECRET_WORDS and word not in _WEAK_WORDS and not pair:
            continue
        rest = words[index + (2 if pair else 1):]
        if any(other in _DESCRIBING for other in rest):
            return 0
        if word == "token" and index > 0 and words[index - 1] in _PAGINATION_PREFIXES:
            return 0
        if word == "tokens" and index > 0 and words[index - 1] in _COUNT_WORDS:
            return 0
        return 1 if word in _WEAK_WORDS and not pair else 2
    if norm in _SECRET_KEYS or any(norm.endswith(suffix) for suffix in _SECRET_SUFFIXES):
        return 2
    return 0


def is_secret_key(key: Any) -> bool:
    """A key whose every value is a secret (`password`, `apiKey`, `privateKeyPem`)."""
    return isinstance(key, str) and _key_class(key) == 2


def _secret_key_for(key: Any, value: Any) -> bool:
    """Whether `value`, found under `key`, is hidden (weak keys hide text only)."""
    if not isinstance(key, str) or value is None or isinstance(value, bool):
        return False
    level = _key_class(key)
    if level == 1:
        return isinstance(value, str) or (isinstance(value, (list, tuple)) and bool(value)
                                          and all(isinstance(item, str) for item in value))
    return level == 2


# --- structured values -------------------------------------------------------------------------

_HEADER_NAME_FIELDS = ("name", "key", "header")


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of a JSON-like value with every secret hidden, at any depth: values under a
    secret key, header pairs, and secrets inside strings (registered values, token shapes)."""
    forms = _forms(_secret_tuple(secrets))
    return _redact_value(value, forms, 0)


def _redact_value(value: Any, forms: tuple[str, ...], depth: int) -> Any:
    if depth > 200:
        return REDACTED  # deeper than any JSON we show; hide rather than recurse without end
    if isinstance(value, str):
        return _redact_string(value, forms)
    if isinstance(value, dict):
        header = _header_field(value)
        out = {}
        for key, item in value.items():
            if _secret_key_for(key, item) or (header and key == "value" and item is not None):
                out[key] = REDACTED
            else:
                out[key] = _redact_value(item, forms, depth + 1)
        return out
    if isinstance(value, (list, tuple)):
        if (len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], str)
                and _key_class(value[0]) and value[1]):
            return [value[0], REDACTED]  # ["Authorization", "Bearer ..."]
        return [_redact_value(item, forms, depth + 1) for item in value]
    return value


def _header_field(value: dict) -> bool:
    """{"name": "Authorization", "value": "..."}: the value is a secret."""
    if "value" not in value:
        return False
    return any(isinstance(value.get(field), str) and _key_class(value[field]) for field in _HEADER_NAME_FIELDS)


def restore_redacted(edited: Any, original: Any, shown: Any = None) -> Any:
    """Put back the secrets a human saw redacted and left unchanged in an edited input.
    `shown` is what they were shown (the redacted input): a part equal to it is the original."""
    if shown is not None and edited == shown and original is not None:
        return original
    if isinstance(edited, dict) and isinstance(original, dict):
        shown_map = shown if isinstance(shown, dict) else {}
        return {key: original[key] if item == REDACTED and key in original
                else restore_redacted(item, original.get(key), shown_map.get(key))
                for key, item in edited.items()}
    if isinstance(edited, list) and isinstance(original, list):
        shown_list = shown if isinstance(shown, list) else []
        return [restore_redacted(item, original[i] if i < len(original) else None,
                                 shown_list[i] if i < len(shown_list) else None)
                for i, item in enumerate(edited)]
    return edited


# --- registered secrets ------------------------------------------------------------------------

_MIN_SECRET = 4
_MIN_FRAGMENT = 8
_URLSAFE = str.maketrans("+/", "-_")


def _secret_tuple(secrets: Iterable[str] | None) -> tuple[str, ...]:
    if not secrets:
        return ()
    return tuple(sorted({s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET
                         and s not in REDACTED}))


@functools.lru_cache(maxsize=256)
def _forms(secrets: tuple[str, ...]) -> tuple[str, ...]:
    """Every form a registered secret is hidden in, longest first."""
    forms: set[str] = set()
    for secret in secrets:
        forms.update({secret, quote(secret, safe=""), quote_plus(secret), quote(secret),
                      json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]})
        data = secret.encode("utf-8")
        for shift in range(3):
            encoded = base64.b64encode(b"\0" * shift + data).decode("ascii")
            if shift == 0:
                forms.update({encoded, encoded.translate(_URLSAFE), encoded.rstrip("=")})
            # the characters that depend on the secret's bytes only, at this alignment
            fragment = encoded[-(-8 * shift // 6):(8 * (shift + len(data))) // 6]
            if len(fragment) >= _MIN_FRAGMENT:
                forms.update({fragment, fragment.translate(_URLSAFE)})
    return tuple(sorted((f for f in forms if len(f) >= _MIN_SECRET and f not in REDACTED),
                        key=lambda f: (-len(f), f)))


def redact_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """Hide the registered secrets only (plain, base64, URL- and JSON-escaped)."""
    for form in _forms(_secret_tuple(secrets)):
        if form in text:
            text = text.replace(form, REDACTED)
    return text


def redact_secret_bytes(data: bytes, secrets: Iterable[str] = ()) -> bytes:
    """redact_secrets for bytes (spill files): the forms as UTF-8, replaced in place."""
    marker = REDACTED.encode()
    for form in _forms(_secret_tuple(secrets)):
        encoded = form.encode("utf-8")
        if encoded in data:
            data = data.replace(encoded, marker)
    return data


# --- token shapes --------------------------------------------------------------------------------

_VALUE_SKIP = frozenset("""
    true false null none nil undefined yes no on off enabled disabled required optional
    redacted hidden masked
""".split())
_VARIABLE = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]{0,63}\}?")
_SCHEME = re.compile(r"(?i:bearer|basic|token|digest|apikey)[ \t]{1,8}")

# key=value, key: value, "key": "value", 'key' => 'value' (the key at a word's start).
_PAIR = re.compile(
    r"""(?<![A-Za-z0-9_.\-])(?P<key>(?:--?)?(?P<q>["']?)(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,63})(?P=q)"""
    r"""[ \t]{0,8}(?::|=>?)[ \t]{0,8})"""
    r"""(?P<value>"(?:[^"\\\r\n]|\\.){0,4096}"|'[^'\r\n]{0,4096}'"""
    r"""|(?:(?i:bearer|basic|token|digest)[ \t]{1,8})?[^\s,;&}\]{\[)"'<>*][^\s,;&}\]{\[)"'<>]{0,4095})""")
# Header lines whose whole value is the secret: `Cookie: a=1; b=2`, `Authorization: Basic x`.
_HEADER_LINE = re.compile(
    r"""(?<![A-Za-z0-9_\-])(?P<key>(?i:proxy-authorization|authorization|set-cookie|cookie)[ \t]{0,8}:[ \t]{0,8})"""
    r"""(?P<value>[^\r\n"'\\]{1,4096})""")
# --password value, -token value (the value not an option).
_FLAG = re.compile(
    r"""(?<![A-Za-z0-9_\-])(?P<key>--?(?P<name>[A-Za-z][A-Za-z0-9_\-]{0,63})[ \t]{1,8})"""
    r"""(?P<value>"[^"\r\n]{1,1024}"|'[^'\r\n]{1,1024}'|[^\s\-"'][^\s"']{0,1023})""")
# ["Authorization", "Bearer x"] and {"name": "X-Api-Key", "value": "x"}
_HEADER_PAIR = re.compile(
    r"""\[[ \t]{0,8}(?P<q>["'])(?P<name>[A-Za-z][A-Za-z0-9_.\-]{0,63})(?P=q)[ \t]{0,8},[ \t]{0,8}"""
    r"""(?P<v>["'])(?P<value>(?:[^"'\\\r\n]|\\.){1,4096})(?P=v)[ \t]{0,8}\]""")
_NAME_VALUE = re.compile(
    r"""(?P<pre>["']?(?:name|key|header)["']?[ \t]{0,8}[:=][ \t]{0,8}(?P<q>["'])(?P<name>[A-Za-z][A-Za-z0-9_.\-]{0,63})(?P=q)"""
    r"""[ \t]{0,8},[ \t\r\n]{0,16}["']?value["']?[ \t]{0,8}[:=][ \t]{0,8}(?P<v>["']))"""
    r"""(?P<value>(?:[^"'\\\r\n]|\\.){1,4096})(?P=v)""")
# ?api_key=VALUE&...
_QUERY = re.compile(r"(?P<key>[?&;](?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,63})=)(?P<value>[^&#\s\"'<>*][^&#\s\"'<>]{0,4095})")
# scheme://user:PASSWORD@host
_USERINFO = re.compile(r"(?P<pre>://[^:/?#@\s\"'<>]{0,256}:)(?P<value>[^@/?#\s\"'<>]{1,512})@")
_SCHEME_CRED = re.compile(
    r"""(?P<scheme>(?:Bearer|bearer|BEARER|Basic|basic|BASIC)(?<![A-Za-z0-9_][A-Za-z]{6})[ \t]{1,8})"""
    r"""(?P<cred>[A-Za-z0-9\-._~+/]{8,4096}={0,2})""")
# (literals one of which the text must hold, the pattern: literal first, so the search is fast)
_TOKENS = (
    (("sk-",), re.compile(r"sk-(?<![A-Za-z0-9_\-]sk-)[A-Za-z0-9_\-]{20,4096}")),
    (("k_live_", "k_test_"), re.compile(r"[sr]k_(?:live|test)_(?<![A-Za-z0-9_\-].k_...._)[A-Za-z0-9]{16,1024}")),
    (("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), re.compile(r"gh[pousr]_(?<![A-Za-z0-9_\-]gh._)[A-Za-z0-9]{20,1024}")),
    (("github_pat_",), re.compile(r"github_pat_(?<![A-Za-z0-9_\-]github_pat_)[A-Za-z0-9_]{20,1024}")),
    (("xox",), re.compile(r"xox[bpasore]-(?<![A-Za-z0-9_\-]xox.-)[A-Za-z0-9\-]{10,1024}")),
    (("glpat-",), re.compile(r"glpat-(?<![A-Za-z0-9_\-]glpat-)[A-Za-z0-9_\-]{20,1024}")),
    (("AIza",), re.compile(r"AIza(?<![A-Za-z0-9_\-]AIza)[A-Za-z0-9_\-]{35}")),
    (("eyJ",), re.compile(r"eyJ(?<![A-Za-z0-9_\-]eyJ)[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{4,8192}\.[A-Za-z0-9_\-]{0,4096}")),
)
# A text with none of these holds no secret key (a cheap gate before the key/value passes).
_KEY_HINTS = ("pass", "pwd", "secret", "token", "credential", "jwt", "bearer", "auth", "cookie", "key", "session",
              "dsn", "signature", "connection")
_AWS_ID = re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_BODY = re.compile(r"(?:[ \t]{0,8}\r?\n[ \t]{0,8}[A-Za-z0-9+/=:*\- ]{1,4096})+")


def _looks_random(value: str) -> bool:
    """A credential, not a word: has a digit, a symbol, or capitals after the first letter."""
    return (len(value) >= 8 and (any(c.isdigit() for c in value) or any(c in "-._~+/=" for c in value)
            or (any(c.isupper() for c in value[1:]) and any(c.islower() for c in value))))


def _hidden_value(value: str) -> bool:
    """Whether a value after a secret key stays shown (literals, variables, already hidden)."""
    bare = value.strip("\"'") if value[:1] in "\"'" or value[-1:] in "\"'" else value
    if not bare:
        return True
    first = bare[0]
    if first == "$":
        return _VARIABLE.fullmatch(bare) is not None
    if first in "*\u2022":
        return REDACTED in bare or not bare.strip("*\u2022")
    if len(bare) <= 9 and bare.lower() in _VALUE_SKIP:
        return True
    return REDACTED in bare


def _pair(match: re.Match[str]) -> str:
    key, name, value = match.group("key", "name", "value")
    level = _key_class(name)
    if not level or _hidden_value(value):
        return match.group(0)
    if level == 1 and value.isdigit():
        return match.group(0)  # tokens: 5
    if value[0] == '"' or value[0] == "'":
        return key + value[0] + REDACTED + value[0]
    return key + REDACTED


def _flag(match: re.Match[str]) -> str:
    value = match.group("value")
    if _key_class(match.group("name")) != 2 or _hidden_value(value):
        return match.group(0)
    return f"{match.group('key')}{REDACTED}"


def _header_line(match: re.Match[str]) -> str:
    value = match.group("value").rstrip()
    if _hidden_value(value):
        return match.group(0)
    tail = match.group("value")[len(value):]
    return f"{match.group('key')}{REDACTED}{tail}"


def _header_pair(match: re.Match[str]) -> str:
    if not _key_class(match.group("name")) or _hidden_value(match.group("value")):
        return match.group(0)
    return match.group(0)[:match.start("value") - match.start()] + REDACTED + match.group(0)[match.end("value") - match.start():]


def _userinfo(match: re.Match[str]) -> str:
    if match.group("value") == REDACTED:
        return match.group(0)
    return f"{match.group('pre')}{REDACTED}@"


def _scheme(match: re.Match[str]) -> str:
    if not _looks_random(match.group("cred")):
        return match.group(0)
    return f"{match.group('scheme')}{REDACTED}"


def _token(match: re.Match[str]) -> str:
    token = match.group(0)
    if token.startswith("sk-") and not any(c.isdigit() or c.isupper() for c in token[3:]):
        return token  # sk-some-long-lowercase-words
    return REDACTED


def _replace_spans(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    out, last = [], 0
    for start, end in sorted(spans):
        if start < last:
            start = last
        if start >= end:
            continue
        out.append(text[last:start])
        out.append(REDACTED)
        last = end
    out.append(text[last:])
    return "".join(out)


def _aws(text: str) -> str:
    """AWS key ids, and a 40-character secret within 160 characters of one (windows merged,
    so each character is scanned once)."""
    spans, windows = [], []
    for match in _AWS_ID.finditer(text):
        spans.append(match.span())
        lo, hi = max(0, match.start() - 160), match.end() + 160
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    for lo, hi in windows:
        spans += [(lo + m.start(), lo + m.end()) for m in _AWS_SECRET.finditer(text[lo:hi])]
    return _replace_spans(text, spans)


def _pem(text: str) -> str:
    """Keep the BEGIN/END lines, hide what is between (the base64 lines when no END follows)."""
    out, position, no_end = [], 0, False
    while True:
        begin = _PEM_BEGIN.search(text, position)
        if begin is None:
            break
        end = None if no_end else _PEM_END.search(text, begin.end())
        no_end = end is None
        out.append(text[position:begin.end()])
        if end is not None:
            body = text[begin.end():end.start()]
            out.append(body if body.strip() == REDACTED else "\n" + REDACTED + "\n")
            out.append(end.group(0))
            position = end.end()
        else:
            hidden = "\n" + REDACTED
            if text.startswith(hidden, begin.end()):
                out.append(hidden)  # already redacted
                position = begin.end() + len(hidden)
                continue
            body = _PEM_BODY.match(text, begin.end())
            if body is not None:
                out.append(hidden)
            position = body.end() if body is not None else begin.end()
    out.append(text[position:])
    return "".join(out)


def redact_shapes(text: str) -> str:
    """Hide the known credential shapes and the values of secret keys (no registered values).
    Each pass runs only when the text holds what it looks for."""
    if not text:
        return text
    lower = text.lower()
    if "PRIVATE KEY" in text:
        text = _pem(text)
    if any(hint in lower for hint in _KEY_HINTS):
        if "authorization" in lower or "cookie" in lower:
            text = _HEADER_LINE.sub(_header_line, text)
        if "[" in text:
            text = _HEADER_PAIR.sub(_header_pair, text)
        if "value" in text and ("name" in text or "key" in text or "header" in text):
            text = _NAME_VALUE.sub(_header_pair, text)
        if ":" in text or "=" in text:
            text = _PAIR.sub(_pair, text)
        if " -" in text or "\t-" in text or text[:1] == "-":
            text = _FLAG.sub(_flag, text)
        if "?" in text and "=" in text:
            text = _QUERY.sub(_pair, text)
    if "://" in text and "@" in text:
        text = _USERINFO.sub(_userinfo, text)
    if "bearer" in lower or "basic" in lower:
        text = _SCHEME_CRED.sub(_scheme, text)
    for literals, pattern in _TOKENS:
        if any(literal in text for literal in literals):
            text = pattern.sub(_token, text)
    if "AKIA" in text or "ASIA" in text:
        text = _aws(text)
    return text


def _redact_string(text: str, forms: tuple[str, ...]) -> str:
    for form in forms:
        if form in text:
            text = text.replace(form, REDACTED)
    return redact_shapes(text)


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Hide registered secret values (in every form), known token shapes, and the values
    after secret keys (`"password": "x"`, `api_key=x`, `Authorization: Bearer x`)."""
    return _redact_string(text, _forms(_secret_tuple(secrets)))


def redact_argv(argv: Sequence[str], secrets: Iterable[str] = ()) -> tuple[str, ...]:
    """Each argument redacted; and the one after a secret flag (`--password hunter2`)."""
    forms = _forms(_secret_tuple(secrets))
    out: list[str] = []
    for index, arg in enumerate(argv):
        previous = argv[index - 1] if index else ""
        if (previous.startswith("-") and "=" not in previous and _key_class(previous.lstrip("-")) == 2
                and not arg.startswith("-") and not _hidden_value(arg)):
            out.append(REDACTED)
        else:
            out.append(_redact_string(arg, forms))
    return tuple(out)


# --- a runtime's secrets and a run -------------------------------------------------------------

def context_secrets(ctx: Any) -> list[str]:
    """The secrets registered with a runtime's providers (`Provider(secrets=...)`)."""
    catalog = getattr(ctx, "operations", None)
    secrets = getattr(catalog, "secrets", None)
    if not callable(secrets):
        return []
    try:
        return [s for s in secrets() if isinstance(s, str)]
    except Exception:  # a host's catalog must not stop the run's text from being shown
        return []


def redact_spill(data: bytes, ctx: Any) -> bytes:
    """A spill file's bytes with the runtime's registered secrets hidden (plain and encoded)."""
    return redact_secret_bytes(data, context_secrets(ctx))


def redact_execution(execution: Any, ctx: Any) -> Any:
    """A RunExecution with its presentation text, stderr and traces (argv, stderr) redacted:
    registered secrets and token shapes. stdout (the host's bytes) is left as it is."""
    secrets = context_secrets(ctx)
    forms = _forms(_secret_tuple(secrets))

    def text(value: Any) -> Any:
        return _redact_string(value, forms) if isinstance(value, str) and value else value

    def command(trace: Any) -> Any:
        return dataclasses.replace(trace, argv=redact_argv(trace.argv, secrets), stderr=text(trace.stderr))

    presentation = execution.presentation
    presentation = dataclasses.replace(presentation, text=text(presentation.text), body=text(presentation.body))
    trace = tuple(dataclasses.replace(pipeline, commands=tuple(command(c) for c in pipeline.commands))
                  for pipeline in execution.trace)
    return dataclasses.replace(execution, stderr=text(execution.stderr), trace=trace, presentation=presentation)
