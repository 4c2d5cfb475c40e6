"""Build a ready runtime from a world spec (files, search docs, fetch resources, memory)."""
from __future__ import annotations

import json
from importlib import resources
from typing import Any, Callable, Mapping

from ..memory import SimpleMemory
from ..runtime import AgentCLI, create_agent_cli
from ..vfs.memory import MemoryVFS
from ..vfs.paths import parent_of
from .adapters import DemoFetch, DemoSearch
from .files import file_bytes


async def populate_vfs(vfs: Any, files: Mapping[str, Any]) -> None:
    for path, content in files.items():
        data = file_bytes(content)
        if data is None:
            await vfs.mkdir(path, True)
        else:
            await vfs.mkdir(parent_of(vfs.normalize(path)), True)
            await vfs.write_bytes(path, data)


async def seed_world(world: Mapping[str, Any], *, now_ms: Callable[[], int] | None = None,
                     resource_policy: Any = None) -> tuple[MemoryVFS, SimpleMemory, dict[str, Any]]:
    """What a world spec describes: a MemoryVFS holding its files, a SimpleMemory holding its
    notes, and demo search/fetch adapters over its documents and resources."""
    vfs = MemoryVFS(now_ms=now_ms, resource_policy=resource_policy)
    await populate_vfs(vfs, world.get("files") or {})
    memory = SimpleMemory(now_ms=now_ms)
    for entry in world.get("memory") or []:
        memory.store(entry if isinstance(entry, str) else entry["text"])
    adapters: dict[str, Any] = {}
    if world.get("searchDocs") is not None:
        adapters["search"] = DemoSearch(world["searchDocs"])
    if world.get("fetchResources") is not None:
        adapters["fetch"] = DemoFetch(world["fetchResources"])
    return vfs, memory, adapters


async def build_world(world: Mapping[str, Any] | None = None, *, now_ms: Callable[[], int] | None = None,
                      **runtime_options: Any) -> AgentCLI:
    """A runtime over a MemoryVFS seeded from `world` (upstream JSON keys accepted)."""
    world = dict(world or {})
    vfs, memory, adapters = await seed_world(world, now_ms=now_ms, resource_policy=world.get("vfsResourcePolicy"))
    limits = world.get("outputLimits", world.get("output_limits"))
    return await create_agent_cli(vfs=vfs, memory=memory, adapters=adapters, output_limits=limits,
                                  **runtime_options)


def demo_world() -> dict[str, Any]:
    """The demo world: notes, logs, configs, an account, a draft, a binary logo, docs and resources."""
    text = resources.files(__package__).joinpath("demo_world.json").read_text(encoding="utf-8")
    return json.loads(text)
