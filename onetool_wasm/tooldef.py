"""The `run` tool as a model sees it: description texts and tool definitions."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .commands.registry import CommandRegistry
from .commands.naming import command_table

if TYPE_CHECKING:
    from .runtime import AgentCLI

VARIANTS = ("full-tool-description", "minimal-tool-description", "terse")
FORMATS = ("openai", "openai-responses", "anthropic", "mcp")

# The strict grammar's header is upstream's, byte for byte.
HEADER = [
    "Run CLI-style commands over registered tools and a rooted virtual file system.",
    "This is not a real shell. Only registered commands are allowed.",
    "Supported operators: |  &&  ||  ;",
    "No env expansion, no globbing, no command substitution, no redirection.",
    "Paths are rooted to '/'. Relative paths also resolve under '/'.",
]

BASH_HEADER = [
    "Run bash command lines over registered commands and a rooted virtual file system.",
    "The shell is bash 5 compatible: pipes, && || ;, redirections (> >> < 2>&1 &> here-documents "
    "<<EOF, here-strings <<<), variables, $(...), $((...)), globs, brace expansion, arrays, "
    "if/for/while/until/case, functions, [[ ]], and builtins such as cd, export, read, printf, set -e.",
    "Only the registered commands exist (listed below, or by 'help'); there is no network and no package "
    "installation. "
    "Background jobs (&) and process substitution are not supported.",
]
FRESH_STATE = "Each call starts a fresh shell in / (variables, functions and cd do not carry over); files persist."
SESSION_STATE = "Shell variables, functions and the working directory carry over from one call to the next."


def build_tool_description(registry: CommandRegistry, variant: str = "full-tool-description",
                           operations: Any = None, grammar: str = "strict", session: bool = False) -> str:
    """The description a model reads; it says which language the tool speaks."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown description variant: {variant} (use one of {', '.join(VARIANTS)})")
    header = HEADER if grammar == "strict" else [*BASH_HEADER, SESSION_STATE if session else FRESH_STATE]
    specs = registry.all()
    if not specs:
        return "\n".join([*header, "", "Available commands:", "  (no commands registered)", "",
                          "Register built-in or custom commands before exposing the run tool."])
    has_help = registry.has("help")
    api = _api_section(operations, variant)
    if variant == "minimal-tool-description":
        return "\n".join([*header, "", *_minimal_discovery(registry.names(), has_help), *api])
    listing = command_table(specs) if variant == "full-tool-description" else [f"  {s.name}" for s in specs]
    return "\n".join([*header, "", "Available commands:", *listing, "", *api, *_discovery(has_help)])


def _api_section(operations: Any, variant: str) -> list[str]:
    """The registered API operations; nothing at all when there are none."""
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
    """One string, nothing else (`additionalProperties: false`, so OpenAI's strict mode holds)."""
    return {
        "type": "object",
        "properties": {"command": {"type": "string", "description": "The CLI command to execute."}},
        "required": ["command"],
        "additionalProperties": False,
    }


def build_tool_definition(runtime: "AgentCLI", tool_name: str = "run",
                          description_variant: str = "full-tool-description",
                          format: str = "openai") -> dict[str, Any]:
    """The tool in the shape a client expects: OpenAI Chat Completions (`openai`), the OpenAI
    Responses API (`openai-responses`), Anthropic, or MCP."""
    description = runtime.build_tool_description(description_variant)
    if format == "openai":
        return {"type": "function", "function": {"name": tool_name, "description": description,
                                                 "parameters": input_schema(), "strict": True}}
    if format == "openai-responses":
        return {"type": "function", "name": tool_name, "description": description, "parameters": input_schema(),
                "strict": True}
    if format == "anthropic":
        return {"name": tool_name, "description": description, "input_schema": input_schema()}
    if format == "mcp":
        return {"name": tool_name, "description": description, "inputSchema": input_schema()}
    raise ValueError(f"unknown tool definition format: {format} (use one of {', '.join(FORMATS)})")
