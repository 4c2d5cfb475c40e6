"""The upstream one-tool grammar (`grammar="strict"`): a chain of pipelines of argv.

Byte-exact with the recorded upstream behaviour: `|`, `&&`, `||`, `;`, quotes and
backslash; everything else is a parse error naming what to do instead.
"""

from .errors import ParseError
from .nodes import ChainItem, Pipeline, SimpleCommand, ast_to_json
from .parser import parse_command_line, parse_tokens
from .tokens import Token, tokenize

__all__ = ["ChainItem", "ParseError", "Pipeline", "SimpleCommand", "Token", "ast_to_json",
           "parse_command_line", "parse_tokens", "tokenize"]
