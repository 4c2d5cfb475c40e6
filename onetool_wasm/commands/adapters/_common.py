"""What search and fetch share: calling a host adapter, reading its fields, wording its errors."""
from __future__ import annotations

import inspect
from typing import Any
from ...redaction import context_secrets, redact_text
from ...result import printable


async def _call(adapter: Any, method: str, *args: Any) -> Any:
    """adapter.method(*args), or adapter(*args) for a bare callable; awaited if needed."""
    target = getattr(adapter, method, None)
    if target is None and callable(adapter):
        target = adapter
    if target is None:
        raise TypeError(f"the {method} adapter has no {method}() method")
    result = target(*args)
    return await result if inspect.isawaitable(result) else result


def _field(item: Any, *names: str) -> Any:
    """A field of a dataclass/object or a mapping, by its first present name."""
    for name in names:
        if isinstance(item, dict) and name in item:
            return item[name]
        if not isinstance(item, dict) and hasattr(item, name):
            return getattr(item, name)
    return None


def error_message(error: BaseException) -> str:
    """What the host's exception says; KeyError's repr quotes are dropped."""
    if isinstance(error, KeyError) and len(error.args) == 1:
        return str(error.args[0])
    return str(error) or type(error).__name__


def _text(value: Any) -> str:
    return printable("" if value is None else str(value))




def redacted(ctx: Any, text: str) -> str:
    """What an adapter said, with secrets hidden: the runtime's registered values and known
    credential shapes (`Bearer ...`, `api_key=...`, `sk-...`), before the model sees it."""
    return redact_text(text, context_secrets(ctx))
