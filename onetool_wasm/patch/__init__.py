"""GNU patch 2.7.6 as a library: reading unified, context and normal diffs (with `diff
--git` headers, /dev/null for new and deleted files, `\\ No newline at end of file`),
choosing the file to patch, applying hunks with GNU's offsets and fuzz, and writing the
hunks that fail as reject files.

`run_patch(data, Options(...))` is a generator that asks for file-system work (see
session.py) and returns an Outcome (stdout, stderr, status); `Applier`, `PatchInput`,
`Hunk` are the pieces. Pure functions over bytes; it never imports onetool_wasm.commands.
"""
from .apply import Applier, reject_hunk, split_lines
from .reader import CONTEXT_DIFF, NO_DIFF, NORMAL_DIFF, UNI_DIFF, Hunk, PatchFatal, PatchInput
from .session import Options, Outcome, quote, run_patch

__all__ = ["Applier", "CONTEXT_DIFF", "Hunk", "NORMAL_DIFF", "NO_DIFF", "Options", "Outcome", "PatchFatal",
           "PatchInput", "UNI_DIFF", "quote", "reject_hunk", "run_patch", "split_lines"]
