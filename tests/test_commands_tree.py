"""The commands tree stays walkable: `commands/<group>/<command>.py`, each group's
`COMMAND_MODULES` listing exactly its command modules, engines in packages of their own that
never import the commands, and no import cycle among the package's modules."""
from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import onetool_wasm
from onetool_wasm.commands import GROUP_NAMES, builtin_groups

PACKAGE = Path(onetool_wasm.__file__).parent
COMMANDS = PACKAGE / "commands"
ENGINES = ("regex", "sed", "diff", "awk", "jq", "patch", "bc")


@pytest.mark.parametrize("group", GROUP_NAMES)
def test_each_group_lists_exactly_its_command_modules_sorted(group):
    package = importlib.import_module(f"onetool_wasm.commands.{group}")
    found = sorted(info.name for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith("_"))
    assert list(package.COMMAND_MODULES) == found


@pytest.mark.parametrize("group", GROUP_NAMES)
def test_each_command_module_has_a_docstring_and_its_commands(group):
    package = importlib.import_module(f"onetool_wasm.commands.{group}")
    for name in package.COMMAND_MODULES:
        module = importlib.import_module(f"{package.__name__}.{name}")
        assert (module.__doc__ or "").strip(), name
        assert module.COMMANDS, name
        assert all(spec.group in (group, "custom") for spec in module.COMMANDS), name


def test_no_command_lives_outside_the_group_packages():
    flat = [info.name for info in pkgutil.iter_modules([str(COMMANDS)]) if not info.ispkg]
    assert [name for name in flat if hasattr(importlib.import_module(f"onetool_wasm.commands.{name}"), "COMMANDS")] == []


def test_every_builtin_is_in_the_group_of_its_package():
    for group, members in builtin_groups().items():
        for spec in members.commands:
            assert spec.group == group


def _imports(path: Path, package: str) -> set[str]:
    """Modules of onetool_wasm a file imports when it is loaded: its top level, not imports
    inside functions (deliberate late binding) nor `if TYPE_CHECKING:` blocks (annotations)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    nodes = list(tree.body)
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.If):
            type_only = isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            nodes.extend(node.orelse if type_only else node.body + node.orelse)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("onetool_wasm"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("onetool_wasm"):
                found.add(module)
                found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _module_graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = {m for m in _imports(path, package) if m in modules and m != name}
    return graph


def test_engines_never_import_the_commands():
    graph = _module_graph()
    offenders = {name: sorted(m for m in deps if m.startswith("onetool_wasm.commands"))
                 for name, deps in graph.items()
                 if name.split(".")[1:2] and name.split(".")[1] in ENGINES}
    assert {name: deps for name, deps in offenders.items() if deps} == {}


def test_no_import_cycles_between_modules():
    graph = _module_graph()
    # A package's __init__ re-exporting its own modules is not a cycle of design.
    edges = {name: {dep for dep in deps if not (name + ".").startswith(dep + ".")} for name, deps in graph.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    for start in sorted(edges):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(edges[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(child) == 1:
                cycles.append(path[path.index(child):] + [child])
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))
    assert cycles == []
