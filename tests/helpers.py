"""Small shared helpers for the test suite (runs on CPython and inside Pyodide)."""
from __future__ import annotations

import asyncio
import re

from onetool_wasm import CommandSpec, create_agent_cli
from onetool_wasm.vfs import MemoryVFS


def arun(coro):
    return asyncio.run(coro)


def command(name, handler, **meta):
    return CommandSpec(name=name, summary=f"{name} for tests", usage=f"{name} [args]",
                       details=f"Examples:\n  {name}", handler=handler, **meta)


def run_line(line, **options):
    """Present one command line on a fresh runtime, footer timing zeroed."""
    async def go():
        runtime = await create_agent_cli(vfs=options.pop("vfs", MemoryVFS()), **options)
        return await runtime.run(line)
    return zero_duration(arun(go()))


def zero_duration(text):
    return re.sub(r"\[exit:(\d+) \| [^\]]+\]", r"[exit:\1 | 0ms]", text)


IN_PYODIDE = __import__("os").environ.get("ONETOOL_RUNTIME") == "pyodide"


def examples(count: int) -> int:
    """Hypothesis example count: as asked on CPython, a sixth inside Pyodide (WebAssembly is slower)."""
    return max(10, count // 6) if IN_PYODIDE else count
