"""The shell's builtin commands, one module a concern; each module's BUILTINS maps a name to
`async def builtin(shell, args, io) -> status`. A builtin wins over a registered command of
the same name (as in bash), so `echo`, `printf`, `test` and `pwd` run here."""
from __future__ import annotations

from . import aliases, directories, flow, input, lookup, options, output, scripts, umask, variables

BUILTINS = {**aliases.BUILTINS, **directories.BUILTINS, **flow.BUILTINS, **input.BUILTINS, **lookup.BUILTINS,
            **options.BUILTINS, **output.BUILTINS, **scripts.BUILTINS, **umask.BUILTINS,
            **variables.BUILTINS}

# Builtins whose assignment-like arguments (`local x=$(cmd)`) are not split or globbed.
DECLARATIONS = {"declare", "typeset", "local", "export", "readonly"}
