"""The shell languages.

* the default, a bash-compatible language read top-down: `lexer` -> `parser` (to the
  nodes of `ast`) -> `expansion` -> `interpreter` (with `pipes`, `redirections` and
  `builtins`);
* `strict`: the upstream one-tool grammar, kept byte-exact as `grammar="strict"`.

The names exported here are the strict grammar's, which the parity corpus replays.
"""

from .strict import (ChainItem, ParseError, Pipeline, SimpleCommand, Token, ast_to_json,
                     parse_command_line, parse_tokens, tokenize)

__all__ = ["ChainItem", "ParseError", "Pipeline", "SimpleCommand", "Token", "ast_to_json",
           "parse_command_line", "parse_tokens", "tokenize"]
