"""A name -> CommandSpec map with explicit conflict handling."""
from __future__ import annotations

from typing import Iterable, Literal

from .spec import CommandSpec

ConflictMode = Literal["error", "replace", "skip"]


def c_locale_key(text: str) -> bytes:
    """Sort key matching C-locale byte order (what upstream and GNU under LC_ALL=C use)."""
    return text.encode("utf-8", errors="surrogatepass")


class CommandRegistry:
    # Set for the readOnly preset: the shell refuses redirects into files as well.
    read_only: bool = False

    def __init__(self, commands: Iterable[CommandSpec] = ()) -> None:
        self._commands: dict[str, CommandSpec] = {}
        register_commands(self, commands)

    def register(self, spec: CommandSpec) -> None:
        if spec.name in self._commands:
            raise ValueError(f"command already registered: {spec.name}")
        self._commands[spec.name] = spec

    def has(self, name: str) -> bool:
        return name in self._commands

    def get(self, name: str) -> CommandSpec | None:
        return self._commands.get(name)

    def replace(self, spec: CommandSpec) -> None:
        if spec.name not in self._commands:
            raise KeyError(f"command not registered: {spec.name}")
        self._commands[spec.name] = spec

    def unregister(self, name: str) -> bool:
        return self._commands.pop(name, None) is not None

    def all(self) -> list[CommandSpec]:
        return sorted(self._commands.values(), key=lambda spec: c_locale_key(spec.name))

    def names(self) -> list[str]:
        return sorted(self._commands, key=c_locale_key)

    def __len__(self) -> int:
        return len(self._commands)

    def __contains__(self, name: object) -> bool:
        return name in self._commands


def register_commands(registry: CommandRegistry, specs: Iterable[CommandSpec],
                      on_conflict: ConflictMode = "error") -> None:
    if on_conflict not in ("error", "replace", "skip"):
        raise ValueError(f"unknown conflict mode: {on_conflict}")
    for spec in specs:
        if not registry.has(spec.name):
            registry.register(spec)
        elif on_conflict == "replace":
            registry.replace(spec)
        elif on_conflict == "error":
            registry.register(spec)  # raises with the duplicate's name
