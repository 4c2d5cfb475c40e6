"""The parsed command line: a chain of pipelines of argv, and its recorded JSON shape."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SimpleCommand:
    argv: tuple[str, ...]


@dataclass(frozen=True)
class Pipeline:
    commands: tuple[SimpleCommand, ...]


@dataclass(frozen=True)
class ChainItem:
    relation: str | None  # None for the first item, else "&&", "||" or ";"
    pipeline: Pipeline


def ast_to_json(chain: Iterable[ChainItem]) -> list[dict[str, Any]]:
    """The shape upstream records (`relationFromPrevious`, `pipeline.commands[].argv`)."""
    return [
        {
            "relationFromPrevious": item.relation,
            "pipeline": {
                "commands": [{"argv": list(command.argv)} for command in item.pipeline.commands]
            },
        }
        for item in chain
    ]
