"""The `run` tool as a model sees it: description texts and tool definitions."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .commands.registry import CommandRegistry
from .commands.system import command_table

if TYPE_CHECKING:
    from .runtime import AgentCLI

VARIANTS = ("full-tool-description", "minimal-tool-description", "terse")
FORMATS = ("openai", "anthropic", "mcp")

HEADER = [
    "Run CLI-style commands over registered tools and a rooted virtual file system.",
    "This is not a real shell. Only registered commands are allowed.",
    "Supported operators: |  &&  ||  ;",
    "No env expansion, no globbing, no command substitution, no redirection.",
    "Paths are rooted to '/'. Relative paths also resolve under '/'.",
]


def build_tool_description(registry: CommandRegistry, variant: str = "full-tool-description",
                           operations: Any = None) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"unknown description variant: {variant} (use one of {', '.join(VARIANTS)})")
    specs = registry.all()
    if not specs:
        return "\n".join([*HEADER, "", "Available commands:", "  (no commands registered)", "",
                          "Register built-in or custom commands before exposing the run tool."])
    has_help = registry.has("help")
    api = _api_section(operations, variant)
    if variant == "minimal-tool-description":
        return "\n".join([*HEADER, "", *_minimal_discovery(registry.names(), has_help), *api])
    listing = command_table(specs) if variant == "full-tool-description" else [f"  {s.name}" for s in specs]
    return "\n".join([*HEADER, "", "Available commands:", *listing, "", *api, *_discovery(has_help)])


def _api_section(operations: Any, variant: str) -> list[str]:
    """The registered API operations (DESIGN §5); nothing at all when there are none."""
    if operations is None or not operations.providers():
        return []
    if variant == "minimal-tool-description":
        return ["  - run 'api services' to list API services, 'api operations <namespace>' for operations"]
    from .commands.api import catalog_description
    return [*catalog_description(operations), ""]


def _discovery(has_help: bool) -> list[str]:
    lines = ["Discovery pattern:"]
    if has_help:
        lines.append("  - run 'help' to list commands")
    return [*lines, "  - run '<command>' with no args for usage", "  - use pipes for composition"]


def _minimal_discovery(names: list[str], has_help: bool) -> list[str]:
    lines = ["Command discovery:"]
    if has_help:
        lines.append("  - run 'help' to list commands")
    else:
        lines += ["  - available command names:", *[f"      {name}" for name in names]]
    lines += ["  - run '<command>' with no args for usage", "  - use pipes for composition"]
    if has_help:
        lines.append("  - detailed command catalog omitted in this variant")
    return lines


def input_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"command": {"type": "string", "description": "The CLI command to execute."}},
        "required": ["command"],
    }


def build_tool_definition(runtime: "AgentCLI", tool_name: str = "run",
                          description_variant: str = "full-tool-description",
                          format: str = "openai") -> dict[str, Any]:
    """The tool in the shape an OpenAI, Anthropic or MCP client expects."""
    description = runtime.build_tool_description(description_variant)
    if format == "openai":
        return {"type": "function",
                "function": {"name": tool_name, "description": description, "parameters": input_schema()}}
    if format == "anthropic":
        return {"name": tool_name, "description": description, "input_schema": input_schema()}
    if format == "mcp":
        return {"name": tool_name, "description": description, "inputSchema": input_schema()}
    raise ValueError(f"unknown tool definition format: {format} (use one of {', '.join(FORMATS)})")
