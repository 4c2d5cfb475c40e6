"""The text group: line and text tools, GNU coreutils' and friends'.

One module a command; `COMMAND_MODULES` lists them, one a line, sorted (a module whose
name starts with `_` helps the group's commands and is not one).
"""

COMMAND_MODULES = (
    "awk",
    "cmp",
    "column",
    "comm",
    "cut",
    "echo",
    "expand",
    "fmt",
    "fold",
    "grep",
    "hashsum",
    "head",
    "join",
    "nl",
    "numfmt",
    "paste",
    "rev",
    "rg",
    "sed",
    "seq",
    "sort",
    "split",
    "tac",
    "tail",
    "tee",
    "tr",
    "unexpand",
    "uniq",
    "wc",
    "xargs",
    "yes",
)
