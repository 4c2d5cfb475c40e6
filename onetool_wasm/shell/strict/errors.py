"""Parse errors and their messages.

The messages are part of the contract with the model: the ones upstream has are
kept byte for byte (the parity corpus checks them), and each says what to do instead.
"""

from __future__ import annotations

TOKENIZE = "tokenize"
PARSE = "parse"

EMPTY_COMMAND = "empty command string"
DANGLING_ESCAPE = "dangling escape at end of command"
COMMAND_SUBSTITUTION = (
    "command substitution is not supported. Compose commands explicitly with pipes and files."
)
BACKGROUND_OPERATOR = (
    "background operator '&' is not supported. Use ';' or explicit chaining instead."
)
UNEXPECTED_END = "unexpected end of command"
UNEXPECTED_OPERATOR = "unexpected operator"


def unterminated_quote(quote: str) -> str:
    return f"unterminated {quote} quote"


def redirection_operator(char: str) -> str:
    # Upstream names the first character of the operator (`>>` and `2>` say '>').
    return f"redirection operator '{char}' is not supported. Use pipes plus write/append instead."


def variable_expansion(reference: str) -> str:
    # Not an upstream message: upstream passes `$NAME` through literally (docs/DIFFERENCES.md, item 5).
    return (
        f"variable expansion '{reference}' is not supported. "
        "Write the value directly, or use single quotes for a literal '$'."
    )


class ParseError(Exception):
    """A command line the shell refuses; `str(error)` is the message shown to the model."""

    def __init__(self, message: str, stage: str) -> None:
        super().__init__(message)
        self.message = message
        self.stage = stage  # "tokenize" or "parse": which step refused the line
