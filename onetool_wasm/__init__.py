"""onetool-wasm: one `run` tool for AI agents, on CPython and in the browser (Pyodide)."""
from .commands import CommandRegistry, CommandSpec, create_command_registry
from .memory import SimpleMemory
from .policy import Policy
from .result import CommandResult, err, ok, ok_bytes
from .runtime import AgentCLI, RunExecution, create_agent_cli, run_sync
from .tooldef import build_tool_definition
from .vfs import DirectoryVFS, MemoryVFS

__version__ = "0.1.0"

__all__ = [
    "AgentCLI", "CommandRegistry", "CommandResult", "CommandSpec", "DirectoryVFS", "MemoryVFS",
    "Policy", "RunExecution", "SimpleMemory", "build_tool_definition", "create_agent_cli",
    "create_command_registry", "err", "ok", "ok_bytes", "run_sync",
]
