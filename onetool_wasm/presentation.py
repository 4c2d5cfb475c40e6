"""Turn a chain's result into the one text block a model reads.

Binary stdout is held back and saved; long text is previewed and saved whole under
/.system/cmd-output/ with commands to explore it; stderr becomes `[error]` (failure)
or `[stderr]` (success); a footer `[exit:N | Xms]` closes every block.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .commands.spec import CommandContext
from .result import CommandResult
from .textutil import format_duration, format_size, looks_binary
from .vfs.errors import VFSError

DEFAULT_MAX_LINES = 200
DEFAULT_MAX_BYTES = 50 * 1024
BINARY_NOTICE = "[error] command produced binary output that should not be sent to the model."


@dataclass(frozen=True)
class OutputLimits:
    max_lines: int = DEFAULT_MAX_LINES
    max_bytes: int = DEFAULT_MAX_BYTES

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> "OutputLimits":
        options = dict(options or {})
        max_lines = options.pop("max_lines", options.pop("maxLines", DEFAULT_MAX_LINES))
        max_bytes = options.pop("max_bytes", options.pop("maxBytes", DEFAULT_MAX_BYTES))
        if options:
            raise ValueError(f"unknown output_limits option: {', '.join(options)}")
        require_non_negative_int(max_lines, "output_limits.max_lines")
        require_non_negative_int(max_bytes, "output_limits.max_bytes")
        return cls(max_lines, max_bytes)


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


def split_lines(text: str) -> list[str]:
    """Lines of text; a final newline ends the last line rather than starting a new one."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def footer(exit_code: int, duration_ms: int) -> str:
    return f"[exit:{exit_code} | {format_duration(duration_ms)}]"


async def present(ctx: CommandContext, result: CommandResult, duration_ms: int,
                  limits: OutputLimits) -> Presentation:
    parts: list[str] = []
    mode, saved, total_bytes, total_lines = "plain", None, None, None
    if result.stdout:
        if looks_binary(result.stdout):
            mode, total_bytes = "binary-guard", len(result.stdout)
            saved, failure = await save_artifact(ctx, result.stdout, ".bin")
            guidance = f"Saved to: {saved}\nUse: stat {saved}" if saved else failure
            parts.append(f"{BINARY_NOTICE}\n{guidance}")
        else:
            text = result.stdout.decode("utf-8", errors="replace")
            lines = split_lines(text)
            if len(lines) > limits.max_lines or len(result.stdout) > limits.max_bytes:
                mode, total_bytes, total_lines = "truncated", len(result.stdout), len(lines)
                saved, failure = await save_artifact(ctx, result.stdout, ".txt")
                text = truncated_view(lines, limits, total_bytes, saved, failure)
            if text.strip():
                parts.append(text.rstrip())
    stderr = result.stderr.strip()
    if stderr:
        parts.append(f"[error] {stderr}" if result.exit_code != 0 else f"[stderr] {stderr}")
    body = "\n\n".join(parts)
    text = "\n\n".join([*parts, footer(result.exit_code, duration_ms)])
    return Presentation(text, body, mode, saved, total_bytes, total_lines)


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


async def save_artifact(ctx: CommandContext, data: bytes, suffix: str) -> tuple[str | None, str]:
    """Save to the next cmd-NNNN file; on failure say why instead of a path."""
    ctx.output_counter += 1
    target = f"{ctx.output_dir}/cmd-{ctx.output_counter:04d}{suffix}"
    try:
        return await ctx.vfs.write_bytes(target, data), ""
    except VFSError as error:
        details = error.details or {}
        if error.code == "ERESOURCE_LIMIT" and "limit" in details:
            return None, (f"Full output could not be saved because {details.get('limitKind')} was exceeded "
                          f"({details.get('actual')} > {details.get('limit')}).")
        return None, f"Full output could not be saved: {error}."
