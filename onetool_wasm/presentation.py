"""Turn a chain's result into the one text block a model reads.

Binary stdout is held back and saved; long text is previewed and saved whole under
/.system/cmd-output/ with commands to explore it; stderr becomes `[error]` (failure)
or `[stderr]` (success); a footer `[exit:N | Xms]` closes every block.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Mapping

from .commands.spec import CommandContext
from .redaction import redact_spill
from .result import CommandResult
from .textutil import format_duration, format_size, looks_binary
from .vfs.errors import VFSError

DEFAULT_MAX_LINES = 200
DEFAULT_MAX_BYTES = 50 * 1024
# What the spill files of one runtime may hold in all; the oldest go first past it.
DEFAULT_MAX_SPILL_BYTES = 64 * 1024 * 1024
_SPILL_NAME = re.compile(r"cmd-(\d+)\.(?:txt|bin)$")
BINARY_NOTICE = "[error] command produced binary output that should not be sent to the model."


@dataclass(frozen=True)
class OutputLimits:
    max_lines: int = DEFAULT_MAX_LINES
    max_bytes: int = DEFAULT_MAX_BYTES
    max_spill_bytes: int = DEFAULT_MAX_SPILL_BYTES

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> "OutputLimits":
        options = dict(options or {})
        max_lines = options.pop("max_lines", options.pop("maxLines", DEFAULT_MAX_LINES))
        max_bytes = options.pop("max_bytes", options.pop("maxBytes", DEFAULT_MAX_BYTES))
        max_spill = options.pop("max_spill_bytes", options.pop("maxSpillBytes", DEFAULT_MAX_SPILL_BYTES))
        if options:
            raise ValueError(f"unknown output_limits option: {', '.join(options)}")
        require_non_negative_int(max_lines, "output_limits.max_lines")
        require_non_negative_int(max_bytes, "output_limits.max_bytes")
        require_non_negative_int(max_spill, "output_limits.max_spill_bytes")
        return cls(max_lines, max_bytes, max_spill)


def require_non_negative_int(value: Any, label: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{label} must be a non-negative integer")


@dataclass(frozen=True)
class Presentation:
    text: str
    body: str
    stdout_mode: str  # "plain" | "truncated" | "binary-guard"
    saved_path: str | None = None
    total_bytes: int | None = None
    total_lines: int | None = None
    duration_ms: int = 0  # what the footer says: the whole run, this presentation included


def split_lines(text: str) -> list[str]:
    """Lines of text; a final newline ends the last line rather than starting a new one."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def footer(exit_code: int, duration_ms: int) -> str:
    return f"[exit:{exit_code} | {format_duration(duration_ms)}]"


async def present(ctx: CommandContext, result: CommandResult, started: float,
                  limits: OutputLimits) -> Presentation:
    """The text block of a run that began at `started` (time.perf_counter()); the footer's
    time is read last, so it covers spilling the output too."""
    parts: list[str] = []
    mode, saved, total_bytes, total_lines = "plain", None, None, None
    if result.stdout:
        if looks_binary(result.stdout):
            mode, total_bytes = "binary-guard", len(result.stdout)
            saved, failure = await save_artifact(ctx, result.stdout, ".bin", limits.max_spill_bytes)
            guidance = f"Saved to: {saved}\nUse: stat {saved}" if saved else failure
            parts.append(f"{BINARY_NOTICE}\n{guidance}")
        else:
            text = result.stdout.decode("utf-8", errors="replace")
            lines = split_lines(text)
            if len(lines) > limits.max_lines or len(result.stdout) > limits.max_bytes:
                mode, total_bytes, total_lines = "truncated", len(result.stdout), len(lines)
                saved, failure = await save_artifact(ctx, result.stdout, ".txt", limits.max_spill_bytes)
                text = truncated_view(lines, limits, total_bytes, saved, failure)
            if text.strip():
                parts.append(text.rstrip())
    stderr = result.stderr.strip()
    if stderr:
        parts.append(f"[error] {stderr}" if result.exit_code != 0 else f"[stderr] {stderr}")
    body = "\n\n".join(parts)
    duration_ms = max(0, round((time.perf_counter() - started) * 1000))
    text = "\n\n".join([*parts, footer(result.exit_code, duration_ms)])
    return Presentation(text, body, mode, saved, total_bytes, total_lines, duration_ms)


def truncated_view(lines: list[str], limits: OutputLimits, total_bytes: int,
                   saved: str | None, failure: str) -> str:
    preview = "\n".join(lines[:limits.max_lines])
    preview = preview.encode("utf-8")[:limits.max_bytes].decode("utf-8", errors="ignore")
    meta = f"--- output truncated ({len(lines)} lines, {format_size(total_bytes)}) ---\n"
    if saved:
        meta += (f"Full output: {saved}\n"
                 f"Explore: cat {saved} | grep <pattern>\n"
                 f"         cat {saved} | tail -n 100")
    else:
        meta += failure
    return f"{preview}\n\n{meta}" if preview else meta


async def save_artifact(ctx: CommandContext, data: bytes, suffix: str,
                        max_spill_bytes: int = DEFAULT_MAX_SPILL_BYTES) -> tuple[str | None, str]:
    """Save to the next cmd-NNNN file, first removing the oldest spill files while the
    store would hold more than `max_spill_bytes`; on failure say why instead of a path."""
    if len(data) > max_spill_bytes:
        return None, (f"Full output could not be saved: {format_size(len(data))} is more than the spill store "
                      f"keeps ({format_size(max_spill_bytes)}, output_limits.max_spill_bytes).")
    data = redact_spill(data, ctx)  # registered secrets never reach a spill file
    ctx.output_counter += 1
    target = f"{ctx.output_dir}/cmd-{ctx.output_counter:04d}{suffix}"
    try:
        await _make_room(ctx, max_spill_bytes - len(data))
        return await ctx.vfs.write_bytes(target, data), ""
    except VFSError as error:
        details = error.details or {}
        if error.code == "ERESOURCE_LIMIT" and "limit" in details:
            return None, (f"Full output could not be saved because {details.get('limitKind')} was exceeded "
                          f"({details.get('actual')} > {details.get('limit')}).")
        return None, f"Full output could not be saved: {error}."


async def spill_files(ctx: CommandContext) -> list[tuple[int, str, int]]:
    """(number, path, size) of the spill files, oldest first."""
    try:
        names = await ctx.vfs.listdir(ctx.output_dir)
    except VFSError:
        return []
    found = []
    for name in names:
        match = _SPILL_NAME.match(name)
        if match:
            path = f"{ctx.output_dir}/{name}"
            found.append((int(match.group(1)), path, (await ctx.vfs.stat(path)).size))
    return sorted(found)


async def _make_room(ctx: CommandContext, budget: int) -> None:
    files = await spill_files(ctx)
    total = sum(size for _, _, size in files)
    for _, path, size in files:
        if total <= budget:
            break
        await ctx.vfs.delete(path)
        total -= size
