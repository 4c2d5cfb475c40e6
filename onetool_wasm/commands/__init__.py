"""Command specs, the registry, built-in groups and presets, and helpers for writing commands."""
from .helpers import (format_vfs_error, missing_adapter_error, no_input_error, read_bytes_input, read_json_input,
                      read_text_input, usage_error)
from .registry import CommandRegistry, register_commands
from .selection import (GROUP_NAMES, PRESETS, CommandGroup, builtin_groups, collect_commands,
                        create_command_registry, define_command_group, list_builtin_commands)
from .spec import Adapters, CommandContext, CommandFailed, CommandSpec, invoke_command

__all__ = [
    "Adapters", "CommandContext", "CommandFailed", "CommandGroup", "CommandRegistry", "CommandSpec",
    "GROUP_NAMES", "PRESETS", "builtin_groups", "collect_commands", "create_command_registry",
    "define_command_group", "format_vfs_error", "invoke_command", "list_builtin_commands",
    "missing_adapter_error", "no_input_error", "read_bytes_input", "read_json_input", "read_text_input",
    "register_commands", "usage_error",
]
