"""What a command hands back: bytes on stdout, a one-line stderr, an exit code."""
from __future__ import annotations

import re
from dataclasses import dataclass

TEXT = "text/plain"
JSON = "application/json"
OCTET = "application/octet-stream"


@dataclass(frozen=True)
class CommandResult:
    stdout: bytes = b""
    stderr: str = ""
    exit_code: int = 0
    content_type: str = TEXT

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")


_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def printable(text: str) -> str:
    """Text safe to encode as UTF-8: lone surrogates become U+FFFD, as TextEncoder does."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def encode_text(text: str) -> bytes:
    """UTF-8, with each lone surrogate (possible in JSON tool input) replaced by one U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return printable(text).encode("utf-8")


def ok(text: str = "", content_type: str = TEXT) -> CommandResult:
    """A successful result carrying text."""
    return CommandResult(stdout=encode_text(text), content_type=content_type)


def ok_bytes(data: bytes, content_type: str = OCTET) -> CommandResult:
    """A successful result carrying raw bytes."""
    return CommandResult(stdout=bytes(data), content_type=content_type)


def err(message: str, exit_code: int = 1) -> CommandResult:
    """A failed result: the message goes to stderr, stdout stays empty."""
    return CommandResult(stderr=message, exit_code=exit_code)
