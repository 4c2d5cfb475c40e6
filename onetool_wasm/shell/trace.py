"""What a run reports about itself: its top-level pipelines, run or skipped, each with the
commands that ran under it (the runtime turns these into PipelineTrace / CommandTrace)."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class CommandRecord:
    argv: tuple[str, ...]
    status: int
    stdin_bytes: int = 0
    stdout_bytes: int = 0
    stderr: str = ""
    duration_ms: int = 0


@dataclasses.dataclass
class StepRecord:
    """One pipeline of the script's top level: run (with the commands it ran) or skipped."""
    relation: str | None
    executed: bool
    status: int | None = None
    commands: list[CommandRecord] = dataclasses.field(default_factory=list)
    skipped_reason: str | None = None


@dataclasses.dataclass
class RunRecord:
    """What the runtime reports about one run: its top-level pipelines, each with the
    commands that ran under it (loops included, up to a cap), in order."""
    steps: list[StepRecord] = dataclasses.field(default_factory=list)
    content_type: str = "text/plain"
    MAX_COMMANDS = 1000

    def add(self, argv: list[str], status: int, stdin_bytes: int = 0, stdout_bytes: int = 0,
            stderr: str = "") -> "CommandRecord | None":
        if self.steps and len(self.steps[-1].commands) < self.MAX_COMMANDS:
            entry = CommandRecord(tuple(argv), status, stdin_bytes, stdout_bytes, stderr)
            self.steps[-1].commands.append(entry)
            return entry
        return None
