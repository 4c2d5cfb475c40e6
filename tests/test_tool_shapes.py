"""The `run` tool in the shape each client expects: OpenAI Chat Completions and Responses
(strict mode), Anthropic, MCP."""
from __future__ import annotations

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.tooldef import FORMATS, build_tool_definition

from .helpers import arun

SCHEMA = {
    "type": "object",
    "properties": {"command": {"type": "string", "description": "The CLI command to execute."}},
    "required": ["command"],
    "additionalProperties": False,
}


def definition(format: str, **options):
    async def go():
        runtime = await create_agent_cli()
        return build_tool_definition(runtime, format=format, **options), runtime.build_tool_description()
    return arun(go())


def test_openai_chat_completions_shape_is_strict():
    tool, description = definition("openai")
    assert tool == {"type": "function", "function": {"name": "run", "description": description,
                                                     "parameters": SCHEMA, "strict": True}}


def test_openai_responses_shape_is_flat_and_strict():
    tool, description = definition("openai-responses", tool_name="shell")
    assert tool == {"type": "function", "name": "shell", "description": description, "parameters": SCHEMA,
                    "strict": True}


def test_anthropic_and_mcp_shapes():
    anthropic, description = definition("anthropic")
    assert anthropic == {"name": "run", "description": description, "input_schema": SCHEMA}
    mcp, _ = definition("mcp")
    assert mcp == {"name": "run", "description": description, "inputSchema": SCHEMA}


def test_every_format_is_listed_and_an_unknown_one_names_them():
    assert FORMATS == ("openai", "openai-responses", "anthropic", "mcp")
    with pytest.raises(ValueError, match=r"unknown tool definition format: yaml \(use one of openai, "
                                         r"openai-responses, anthropic, mcp\)"):
        definition("yaml")


def test_strict_mode_rules_hold_for_the_schema():
    # OpenAI strict mode: every property required, no additional properties.
    assert set(SCHEMA["required"]) == set(SCHEMA["properties"]) and SCHEMA["additionalProperties"] is False
