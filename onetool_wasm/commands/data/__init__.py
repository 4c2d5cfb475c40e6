"""The data group: structured data and calculators (JSON, CSV, base64, bc, calc, expr, jq).

One module a command; `COMMAND_MODULES` lists them, one a line, sorted (a module whose
name starts with `_` helps the group's commands and is not one).
"""

COMMAND_MODULES = (
    "base64",
    "bc",
    "calc",
    "csv",
    "expr",
    "hexdump",
    "jq",
    "json",
    "od",
    "xxd",
)
