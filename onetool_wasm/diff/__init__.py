"""Comparing line sequences and printing the result as GNU diffutils 3.8 does.

`algorithm.edit_script` chooses the changes (GNU's choices among minimal scripts);
`format.render` prints them in normal, unified, context or ed style and `side.render_side`
side by side. This package knows nothing of commands or file systems: the `diff` command
(onetool_wasm/commands/fs/diff.py) finds what to compare and calls it.
"""
from .algorithm import Change, edit_script
from .format import DiffSide, Layout, context_time, quote_name, render, unified_time
from .side import render_side, side_widths

__all__ = ["Change", "DiffSide", "Layout", "context_time", "edit_script", "quote_name", "render",
           "render_side", "side_widths", "unified_time"]
