"""Regular expressions as the text tools read them, over bytes in the C locale.

`syntax` parses GNU's basic and extended syntaxes into a tree, `posix` turns the tree into a
compiled matcher (Python's `re` where its backtracking is provably linear, the lazy DFA
`dfa` over `nfa`'s program elsewhere and for leftmost-longest spans, `backtrack` with a step
budget for back-references), and `rust` reads ripgrep's dialect into the same tree.
"""
from .posix import Regex, RegexCancelled, Span, compile_grep, compile_regex, split_patterns
from .syntax import RegexError

__all__ = ["Regex", "RegexCancelled", "RegexError", "Span", "compile_grep", "compile_regex", "split_patterns"]
