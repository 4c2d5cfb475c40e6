"""The files a shell's process substitutions show under /dev/fd.

`diff <(sort a) <(sort b)` hands `diff` two paths, /dev/fd/63 and /dev/fd/62 as in bash.
Here they are not pipes to processes running beside the command: `<(cmd)` has already run
and its output is the file's content; what a command writes to a `>(cmd)` file collects in
`written`, which the shell gives `cmd` as its input once the command has ended. The shell
opens them while it expands a command's words and closes them when that command ends
(`PipeFiles.mark` / `close_from`); the cwd view (cwd.py) serves them to commands.
"""
from __future__ import annotations

from typing import Any

PIPE_DIRECTORY = "/dev/fd/"
FIRST_DESCRIPTOR = 63  # bash numbers them down from here


class PipeFile:
    """One end: readable (`data`, what `<(cmd)` printed) or writable (`script`, the
    `>(cmd)` that reads `written` when the command is done)."""

    def __init__(self, path: str, data: bytes | None, script: Any = None) -> None:
        self.path = path
        self.data = data
        self.script = script
        self.written = bytearray()

    @property
    def writable(self) -> bool:
        return self.data is None


class PipeFiles:
    """A shell's open process-substitution files, newest last. A subshell starts with a copy
    of its parent's (it may read them) and closes only its own."""

    def __init__(self, inherited: list[PipeFile] | None = None) -> None:
        self.files: list[PipeFile] = list(inherited or ())

    def open(self, data: bytes | None, script: Any = None) -> PipeFile:
        path = f"{PIPE_DIRECTORY}{FIRST_DESCRIPTOR - len(self.files)}"
        pipe = PipeFile(path, data, script)
        self.files.append(pipe)
        return pipe

    def get(self, path: str) -> PipeFile | None:
        if not self.files or not path.startswith(PIPE_DIRECTORY):
            return None
        for pipe in reversed(self.files):
            if pipe.path == path:
                return pipe
        return None

    def mark(self) -> int:
        return len(self.files)

    def close_from(self, mark: int) -> list[PipeFile]:
        """Close the files opened since `mark`; returns them, oldest first."""
        closed = self.files[mark:]
        del self.files[mark:]
        return closed
