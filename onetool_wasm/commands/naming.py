"""Command names as the agent sees them: the `name — summary` table of the tool description
and `help`, and "did you mean" suggestions for a mistyped name."""
from __future__ import annotations

from .spec import CommandSpec


def command_table(specs: list[CommandSpec]) -> list[str]:
    """`  name     — summary` lines, as the tool description and `help` print them."""
    return [f"  {spec.name.ljust(8)} — {spec.summary}" for spec in specs]


def grouped_command_table(specs: list[CommandSpec], group_order: tuple[str, ...]) -> list[str]:
    """The same table under one `group:` heading a group: the built-in groups in their
    order, then any other (a host's `custom`, `api`...) by name."""
    groups: dict[str, list[CommandSpec]] = {}
    for spec in specs:
        groups.setdefault(spec.group, []).append(spec)
    order = [g for g in group_order if g in groups] + sorted(g for g in groups if g not in group_order)
    lines: list[str] = []
    for group in order:
        lines += ([""] if lines else []) + [f"{group}:", *command_table(groups[group])]
    return lines


def edit_distance(left: str, right: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, transpositions."""
    previous2: list[int] = []
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b))
            if i > 1 and j > 1 and a == right[j - 2] and left[i - 2] == b:
                cost = min(cost, previous2[j - 2] + 1)
            current.append(cost)
        previous2, previous = previous, current
    return previous[-1]


def closest_names(name: str, names: list[str], limit: int = 3) -> list[str]:
    """The nearest names (a typo or two away), best first; none when nothing is close."""
    allowed = max(1, len(name) // 3)
    scored = sorted((edit_distance(name, candidate), candidate) for candidate in names)
    best = [(d, c) for d, c in scored if d <= allowed]
    return [c for d, c in best if d == best[0][0]][:limit] if best else []


def unknown_command_message(name: str, names: list[str]) -> str:
    """`unknown command: x`, a suggestion when one is close, then what is available."""
    suggestions = closest_names(name, names)
    lines = [f"unknown command: {name}"]
    if suggestions:
        lines.append(f"did you mean: {', '.join(suggestions)}?")
    lines.append(f"Available: {', '.join(names) if names else '(none)'}")
    return "\n".join(lines)
