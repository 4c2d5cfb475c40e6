"""The shell grammar: command line -> tokens -> a chain of pipelines of argv (DESIGN §4.3)."""

from .errors import ParseError
from .nodes import ChainItem, Pipeline, SimpleCommand, ast_to_json
from .parser import parse_command_line, parse_tokens
from .tokens import Token, tokenize

__all__ = [
    "ChainItem",
    "ParseError",
    "Pipeline",
    "SimpleCommand",
    "Token",
    "ast_to_json",
    "parse_command_line",
    "parse_tokens",
    "tokenize",
]
