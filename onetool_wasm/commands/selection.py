"""Built-in command groups, the five presets, and building a registry from a selection."""
from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..result import err
from .registry import CommandRegistry, ConflictMode, register_commands
from .spec import CommandContext, CommandSpec

GROUP_NAMES = ("system", "fs", "text", "adapters", "data")


@dataclass(frozen=True)
class CommandGroup:
    name: str
    commands: tuple[CommandSpec, ...]


def define_command_group(name: str, commands: Iterable[CommandSpec]) -> CommandGroup:
    """A named set of commands; each spec is tagged with the group it belongs to."""
    tagged = tuple(dataclasses.replace(spec, group=name) for spec in commands)
    names = [spec.name for spec in tagged]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"duplicate commands in group {name}: {', '.join(duplicates)}")
    return CommandGroup(name, tagged)


def collect_commands(*sources: CommandGroup | CommandSpec | Iterable[CommandSpec]) -> list[CommandSpec]:
    """Flatten groups, specs and lists of specs into one list, in order."""
    specs: list[CommandSpec] = []
    for source in sources:
        if isinstance(source, CommandGroup):
            specs.extend(source.commands)
        elif isinstance(source, CommandSpec):
            specs.append(source)
        else:
            specs.extend(source)
    return specs


@functools.cache
def builtin_groups() -> dict[str, CommandGroup]:
    """Every built-in, grouped as the tree is: `commands/<group>/<command>.py`.

    Each group package lists its command modules (`COMMAND_MODULES`); each module's
    `COMMANDS` holds its specs, so a command lives in exactly one place.
    """
    members: dict[str, list[CommandSpec]] = {name: [] for name in GROUP_NAMES}
    for group, module in _command_modules():
        for spec in module.COMMANDS:
            if spec.group not in (group, "custom"):
                raise ValueError(f"built-in {spec.name} lives in {group} but names the group {spec.group}")
            members[group].append(dataclasses.replace(spec, group=group))
    return {name: define_command_group(name, specs) for name, specs in members.items()}


def _command_modules() -> list[tuple[str, Any]]:
    """(group, module) for every command module: the group packages' listed modules, and
    the flat modules of this package that still define `COMMANDS` (each spec names its group)."""
    found: list[tuple[str, Any]] = []
    for group in GROUP_NAMES:
        package = importlib.import_module(f"{__package__}.{group}")
        found.extend((group, importlib.import_module(f"{package.__name__}.{name}")) for name in package.COMMAND_MODULES)
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg:
            module = importlib.import_module(f"{__package__}.{info.name}")
            found.extend((spec.group, module) for spec in getattr(module, "COMMANDS", ())[:1])
    return found


PRESETS: dict[str, dict[str, Any]] = {
    "full": {},
    "readOnly": {"include_groups": list(GROUP_NAMES), "read_only": True},
    "filesystem": {"include_groups": ["system", "fs", "text"], "exclude_commands": ["memory"]},
    "textOnly": {"include_groups": ["system", "text"], "exclude_commands": ["memory"]},
    "dataOnly": {"include_groups": ["system", "adapters", "data"], "exclude_commands": ["memory"]},
}


def list_builtin_commands(preset: str | None = None, include_groups: Sequence[str] | None = None,
                          exclude_commands: Sequence[str] = ()) -> list[CommandSpec]:
    """The built-in specs a selection picks, in group order."""
    if preset is not None and preset not in PRESETS:
        raise ValueError(f"unknown builtin command preset: {preset}")
    base = PRESETS.get(preset or "full", {})
    groups = include_groups if include_groups is not None else base.get("include_groups", GROUP_NAMES)
    excluded = set(base.get("exclude_commands", ())) | set(exclude_commands)
    available = builtin_groups()
    specs: list[CommandSpec] = []
    for name in dict.fromkeys(groups):
        if name not in available:
            raise ValueError(f"unknown builtin command group: {name}")
        specs.extend(s for s in available[name].commands if s.name not in excluded)
    if base.get("read_only"):
        specs = [_read_only(s) for s in specs if s.kind != "write"]
    return specs


def _read_only(spec: CommandSpec) -> CommandSpec:
    """A spec whose writing invocations (`sed -i`, `memory store`) are refused."""
    if not callable(spec.kind):
        return spec
    inner = spec.handler

    def guarded(ctx: CommandContext, args: list[str], stdin: bytes) -> Any:
        if spec.kind_for(args) == "write":
            return err(f"{spec.name}: refused: this runtime is read-only (preset readOnly)")
        return inner(ctx, args, stdin)

    # The streaming handler would bypass the guard: such a spec runs through `handler` only.
    return dataclasses.replace(spec, handler=guarded, stream=None)


def normalize_selection(selection: Mapping[str, Any] | None) -> dict[str, Any]:
    """Accept snake_case or upstream camelCase keys ({"includeGroups": [...]})."""
    aliases = {"includeGroups": "include_groups", "excludeCommands": "exclude_commands",
               "onConflict": "on_conflict"}
    out: dict[str, Any] = {}
    for key, value in (selection or {}).items():
        key = aliases.get(key, key)
        if key not in ("preset", "include_groups", "exclude_commands", "on_conflict"):
            raise ValueError(f"unknown builtin_commands option: {key}")
        out[key] = value
    return out


def create_command_registry(preset: str | None = None, include_groups: Sequence[str] | None = None,
                            exclude_commands: Sequence[str] = (), commands: Iterable[CommandSpec] | None = None,
                            on_conflict: ConflictMode = "error") -> CommandRegistry:
    """Built-ins per the selection, then `commands` registered on top."""
    registry = CommandRegistry(list_builtin_commands(preset, include_groups, exclude_commands))
    # The shell refuses redirects into files too when the preset is read-only.
    registry.read_only = bool(PRESETS.get(preset or "full", {}).get("read_only"))
    if commands is not None:
        register_commands(registry, commands, on_conflict)
    return registry
