"""The fs group: files and directories of the virtual file system.

One module a command; `COMMAND_MODULES` lists them, one a line, sorted (a module whose
name starts with `_` helps the group's commands and is not one).
"""

COMMAND_MODULES = (
    "append",
    "basename",
    "cat",
    "chmod",
    "cp",
    "diff",
    "dirname",
    "du",
    "file",
    "find",
    "gzip",
    "ln",
    "ls",
    "mkdir",
    "mktemp",
    "mv",
    "patch",
    "readlink",
    "realpath",
    "rm",
    "rmdir",
    "stat",
    "tar",
    "touch",
    "tree",
    "truncate",
    "unlink",
    "write",
)
