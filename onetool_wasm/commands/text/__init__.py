"""The text group: line and text tools, GNU coreutils' and friends'.

One module a command; `COMMAND_MODULES` lists them, one a line, sorted (a module whose
name starts with `_` helps the group's commands and is not one).
"""

COMMAND_MODULES = (
)
