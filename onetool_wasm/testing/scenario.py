"""Scenarios: a world, an oracle (the commands a good agent would run) and assertions."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Union

OracleStep = Union[str, Mapping[str, Any]]


@dataclass
class ScenarioSpec:
    id: str
    world: dict[str, Any] = field(default_factory=dict)
    oracle: list[OracleStep] = field(default_factory=list)
    assertions: dict[str, Any] = field(default_factory=dict)
    category: str = "composition"
    description: str = ""
    prompt: str = ""
    prompt_variant: str = "full-tool-description"
    max_turns: int = 10
    max_tool_calls: int = 20

    @classmethod
    def coerce(cls, value: "ScenarioSpec | Mapping[str, Any]") -> "ScenarioSpec":
        """Accept a ScenarioSpec or the upstream JSON structure (camelCase keys)."""
        if isinstance(value, ScenarioSpec):
            return value
        data = dict(value)
        aliases = {"promptVariant": "prompt_variant", "maxTurns": "max_turns", "maxToolCalls": "max_tool_calls"}
        known = {aliases.get(k, k): v for k, v in data.items() if k != "repeats"}
        unknown = set(known) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown scenario keys: {', '.join(sorted(unknown))}")
        return cls(**known)


@dataclass(frozen=True)
class OracleStepTrace:
    command: str
    output: str
    body: str
    exit_code: int
    expected_exit_code: int


@dataclass(frozen=True)
class OracleTrace:
    scenario_id: str
    steps: tuple[OracleStepTrace, ...]
    final_output: str
    final_body: str
    final_exit_code: int
    total_duration_ms: float


@dataclass(frozen=True)
class AssertionResult:
    passed: bool
    failures: tuple[str, ...]
