"""The sed engine: GNU sed's script language (script.py) and its cycle (execute.py), over bytes.

It knows nothing of commands, shells or file systems: the `sed` command
(onetool_wasm/commands/text/sed.py) reads the options and the inputs, parses the script with
`parse_script`, and runs it with a `SedMachine`, giving it the files `r`/`R` read and taking
back what `w`/`W` wrote. Regular expressions come from onetool_wasm.regex.
"""
from .execute import Line, Output, SedMachine, SedRuntimeError, split_input
from .script import Program, ScriptError, parse_script

__all__ = ["Line", "Output", "Program", "SedMachine", "SedRuntimeError", "ScriptError", "parse_script",
           "split_input"]
