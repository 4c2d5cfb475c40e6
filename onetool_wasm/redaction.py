"""Redaction: secrets never reach the model, in results, error details or consent prompts.

A key is secret when, after dropping case, `-`, `_` and spaces, it names a credential
(`apiKey`, `x-api-key`, `client_secret`, `password`, `authorization`, ...) or ends in
`token` (`accessToken`, `idToken`) — except pagination keys such as `NextToken`.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from .policy import normalize_name

REDACTED = "**REDACTED**"

_SECRET_KEYS = frozenset("""
    apikey xapikey apikeys secret secrets clientsecret secretkey secretaccesskey
    awssecretaccesskey password passwd pwd passphrase privatekey authorization
    proxyauthorization auth xauth cookie setcookie credential credentials token bearer
    signature xsignature sessionid sessionkey connectionstring
""".split())
_SECRET_SUFFIXES = ("token", "secret", "password", "passwd", "passphrase", "apikey", "privatekey",
                    "accesskey", "secretkey", "credentials", "authorization")
# Keys ending in "token" that carry a page position, not a credential.
_PAGINATION_PREFIXES = frozenset("""
    next nextpage page continuation pagination cursor prev previous resume start marker
    sync after before last
""".split())


def is_secret_key(key: Any) -> bool:
    if not isinstance(key, str):
        return False
    norm = normalize_name(key)
    if norm in _SECRET_KEYS:
        return True
    if norm.endswith("token") and norm[:-len("token")] in _PAGINATION_PREFIXES:
        return False
    return any(norm.endswith(suffix) for suffix in _SECRET_SUFFIXES)


def redact(value: Any) -> Any:
    """A copy of a JSON-like value with every secret-keyed entry replaced, at any depth."""
    if isinstance(value, dict):
        return {key: REDACTED if is_secret_key(key) and item is not None else redact(item)
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(item) for item in value]
    return value


def restore_redacted(edited: Any, original: Any) -> Any:
    """Put back the secrets a human saw as REDACTED and left unchanged in an edited input."""
    if isinstance(edited, dict) and isinstance(original, dict):
        return {key: original[key] if item == REDACTED and key in original
                else restore_redacted(item, original.get(key)) for key, item in edited.items()}
    if isinstance(edited, list) and isinstance(original, list):
        return [restore_redacted(item, original[i] if i < len(original) else None)
                for i, item in enumerate(edited)]
    return edited


_KEY_VALUE = re.compile(
    r"""(?P<key>["']?(?P<name>[A-Za-z][A-Za-z0-9_\-]*)["']?\s*[:=]\s*)"""
    r"""(?P<value>"(?:[^"\\]|\\.)*"|'[^']*'|(?:Bearer|Basic)\s+\S+|[^\s,;&}\]]+)""")


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Hide known secret values, and values after secret keys (`"password": "x"`, `api_key=x`)."""
    for secret in secrets:
        if isinstance(secret, str) and len(secret) >= 4:
            text = text.replace(secret, REDACTED)

    def replace(match: re.Match[str]) -> str:
        if not is_secret_key(match.group("name")):
            return match.group(0)
        value = match.group("value")
        quote = value[0] if value[:1] in ("'", '"') else ""
        return f"{match.group('key')}{quote}{REDACTED}{quote}"

    return _KEY_VALUE.sub(replace, text)
