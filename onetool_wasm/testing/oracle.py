"""Run a scenario's oracle commands and check the scenario's assertions."""
from __future__ import annotations

import re
import time
from typing import Any, Mapping

from ..runtime import AgentCLI
from .scenario import AssertionResult, OracleStepTrace, OracleTrace, ScenarioSpec

_FOOTER = re.compile(r"\[exit:(\d+) \| [^\]]+\]\s*$")


def split_presented(output: str) -> tuple[str, int]:
    """(body, exit code) of a presented run() output."""
    match = _FOOTER.search(output)
    if match is None:
        raise ValueError(f"output is missing an exit footer:\n{output}")
    return output[:match.start()].rstrip("\n"), int(match.group(1))


async def run_oracle(runtime: AgentCLI, scenario: ScenarioSpec | Mapping[str, Any]) -> OracleTrace:
    scenario = ScenarioSpec.coerce(scenario)
    if not scenario.oracle:
        raise ValueError(f"scenario {scenario.id} does not define an oracle")
    started = time.perf_counter()
    steps = []
    for step in scenario.oracle:
        command, expected = (step, 0) if isinstance(step, str) else (step["command"], step.get("expectedExitCode", 0))
        output = await runtime.run(command)
        body, exit_code = split_presented(output)
        steps.append(OracleStepTrace(command, output, body, exit_code, expected))
    last = steps[-1]
    return OracleTrace(scenario.id, tuple(steps), last.output, last.body, last.exit_code,
                       (time.perf_counter() - started) * 1000)


async def assert_scenario(scenario: ScenarioSpec | Mapping[str, Any], trace: OracleTrace,
                          runtime: AgentCLI) -> AssertionResult:
    scenario = ScenarioSpec.coerce(scenario)
    sid, checks, failures = scenario.id, scenario.assertions, []
    if len(trace.steps) > scenario.max_tool_calls:
        failures.append(f"{sid}: oracle used {len(trace.steps)} tool calls, exceeding maxToolCalls={scenario.max_tool_calls}")
    for index, step in enumerate(trace.steps):
        if step.exit_code != step.expected_exit_code:
            failures.append(f"{sid}: oracle step {index} exited {step.exit_code}, "
                            f"expected {step.expected_exit_code}: {step.command}")
    if "finalAnswer" in checks:
        check_text(trace.final_body, checks["finalAnswer"], f"{sid}: final output", failures)
    for file_check in checks.get("files", []):
        await _check_file(sid, file_check, runtime, failures)
    memory_texts = [item.text for item in runtime.ctx.memory.recent(10**9)]
    for expected in checks.get("memory", {}).get("contains", []):
        if not any(expected in text for text in memory_texts):
            failures.append(f'{sid}: expected memory to contain "{expected}"')
    _check_trace(sid, checks.get("trace", {}), trace, failures)
    return AssertionResult(not failures, tuple(failures))


_TEXT_KEYS = ("exact", "contains", "notContains", "regex")


def check_text(actual: str, spec: Mapping[str, Any], label: str, failures: list[str]) -> None:
    if "exact" in spec and actual != spec["exact"]:
        failures.append(f'{label}: expected exact match "{spec["exact"]}", got "{actual}"')
    for expected in spec.get("contains", []):
        if expected not in actual:
            failures.append(f'{label}: expected output to include "{expected}"')
    for forbidden in spec.get("notContains", []):
        if forbidden in actual:
            failures.append(f'{label}: expected output not to include "{forbidden}"')
    for pattern in spec.get("regex", []):
        if not re.search(pattern, actual):
            failures.append(f"{label}: expected output to match /{pattern}/")


async def _check_file(sid: str, spec: Mapping[str, Any], runtime: AgentCLI, failures: list[str]) -> None:
    vfs = runtime.ctx.vfs
    path = vfs.normalize(spec["path"])
    exists = await vfs.exists(path) and not await vfs.is_dir(path)
    if "exists" in spec and exists != spec["exists"]:
        failures.append(f"{sid}: expected file {path} exists={spec['exists']}, got {exists}")
    has_text_checks = any(key in spec for key in _TEXT_KEYS)
    if not exists:
        if has_text_checks:
            failures.append(f"{sid}: expected file {path} to exist for content assertions")
        return
    if has_text_checks:
        contents = (await vfs.read_bytes(path)).decode("utf-8", errors="replace")
        check_text(contents, spec, f"{sid}: file {path}", failures)


def _check_trace(sid: str, spec: Mapping[str, Any], trace: OracleTrace, failures: list[str]) -> None:
    commands = [step.command for step in trace.steps]
    if "maxCalls" in spec and len(commands) > spec["maxCalls"]:
        failures.append(f"{sid}: expected at most {spec['maxCalls']} oracle calls, got {len(commands)}")
    for expected in spec.get("mustInclude", []):
        if not any(expected in command for command in commands):
            failures.append(f'{sid}: expected at least one oracle command to include "{expected}"')
    for forbidden in spec.get("forbidden", []):
        if any(forbidden in command for command in commands):
            failures.append(f'{sid}: expected no oracle command to include "{forbidden}"')
    for step_spec in spec.get("steps", []):
        index = step_spec["index"]
        if index >= len(trace.steps):
            failures.append(f"{sid}: expected trace step {index} to exist")
            continue
        step = trace.steps[index]
        if "exitCode" in step_spec and step.exit_code != step_spec["exitCode"]:
            failures.append(f"{sid}: expected trace step {index} to exit {step_spec['exitCode']}, got {step.exit_code}")
        check_text(step.body, step_spec, f"{sid}: trace step {index}", failures)
