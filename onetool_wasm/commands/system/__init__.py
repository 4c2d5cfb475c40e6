"""The system group: the runtime itself (help, memory) and the environment of a command.

One module a command; `COMMAND_MODULES` lists them, one a line, sorted (a module whose
name starts with `_` helps the group's commands and is not one).
"""

COMMAND_MODULES = (
    "date",
    "env",
    "help",
    "hostname",
    "id",
    "memory",
    "nproc",
    "printenv",
    "timeout",
    "uname",
    "whoami",
)
