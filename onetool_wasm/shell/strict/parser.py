"""Tokens -> a chain of pipelines: `|` binds commands, `&&` `||` `;` bind pipelines."""

from __future__ import annotations

from collections.abc import Sequence

from . import errors
from .errors import ParseError
from .nodes import ChainItem, Pipeline, SimpleCommand
from .tokens import WORD, Token, tokenize


def parse_command_line(line: str) -> list[ChainItem]:
    """Parse a command line; raise ParseError with the message to show the model."""
    return parse_tokens(tokenize(line))


def parse_tokens(tokens: Sequence[Token]) -> list[ChainItem]:
    builder = _ChainBuilder()
    for token in tokens:
        if token.kind == WORD:
            builder.argv.append(token.value)
        else:
            builder.operator(token.value)
    return builder.finish()


def _refuse(message: str) -> ParseError:
    return ParseError(message, errors.PARSE)


class _ChainBuilder:
    """Collects argv into commands, commands into pipelines, pipelines into the chain."""

    def __init__(self) -> None:
        self.chain: list[ChainItem] = []
        self.relation: str | None = None  # the operator before the pipeline being built
        self.commands: list[SimpleCommand] = []
        self.argv: list[str] = []

    def operator(self, value: str) -> None:
        self._end_command()
        if value != "|":
            self._end_pipeline(next_relation=value)

    def finish(self) -> list[ChainItem]:
        if self.argv:
            self._end_command()
            self._end_pipeline(next_relation=None)
        elif self.commands or self.relation in ("&&", "||"):
            raise _refuse(errors.UNEXPECTED_END)
        elif not self.chain:
            raise _refuse(errors.EMPTY_COMMAND)
        # Otherwise the line ended with `;`, which is allowed (docs/DIFFERENCES.md).
        return self.chain

    def _end_command(self) -> None:
        if not self.argv:
            raise _refuse(errors.UNEXPECTED_OPERATOR)
        self.commands.append(SimpleCommand(tuple(self.argv)))
        self.argv = []

    def _end_pipeline(self, next_relation: str | None) -> None:
        self.chain.append(ChainItem(self.relation, Pipeline(tuple(self.commands))))
        self.commands = []
        self.relation = next_relation
