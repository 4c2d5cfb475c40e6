"""Testing helpers: command harness, conformance cases, worlds, scenarios and oracles."""
from .adapters import DemoFetch, DemoSearch
from .conformance import ConformanceCase, create_command_conformance_cases
from .harness import (RegisteredCommandRun, create_test_command_context, create_test_command_registry,
                      run_registered_command, stdout_text)
from .providers import DEMO_POLICY, demo_providers
from .oracle import assert_scenario, run_oracle, split_presented
from .scenario import AssertionResult, OracleTrace, ScenarioSpec
from .world import build_world, demo_world

__all__ = [
    "AssertionResult", "ConformanceCase", "DEMO_POLICY", "demo_providers", "DemoFetch", "DemoSearch", "OracleTrace",
    "RegisteredCommandRun", "ScenarioSpec", "assert_scenario", "build_world",
    "create_command_conformance_cases", "create_test_command_context",
    "create_test_command_registry", "demo_world", "run_oracle", "run_registered_command",
    "split_presented", "stdout_text",
]
