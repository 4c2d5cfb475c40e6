"""Multi-step agent scenarios over the demo world: what a good agent would run, and what it sees."""
from __future__ import annotations

import pytest

from onetool_wasm.testing import ScenarioSpec, assert_scenario, build_world, demo_world, run_oracle

from .helpers import arun


def with_demo(files=None, **extra):
    world = demo_world()
    world["files"].update(files or {})
    world.update(extra)
    return world


BIG_LOG = "".join(f"2026-03-12T12:{i // 60:02d}:{i % 60:02d}Z INFO heartbeat seq={i:04d}\n" for i in range(300)) \
    .replace("seq=0217\n", "seq=0217 ERROR disk full\n")

SCENARIOS = [
    ScenarioSpec(
        id="discovery-then-read", category="discovery", world=with_demo(),
        oracle=["help", "ls /", "ls /notes", "cat /notes/todo.txt"],
        assertions={"finalAnswer": {"exact": "1. Review refund incident timeline\n2. Confirm Acme renewal owner\n"
                                              "3. Draft follow-up email"},
                    "trace": {"steps": [{"index": 1, "contains": ["logs\n", "notes"]}]}}),
    ScenarioSpec(
        id="count-errors-in-log", category="composition", world=with_demo(),
        oracle=["cat /logs/app.log | grep ERROR | wc -l"],
        assertions={"finalAnswer": {"exact": "3"}}),
    ScenarioSpec(
        id="structured-data-from-fetch", category="structured", world=with_demo(),
        oracle=["fetch order:123 | json get customer.email", "fetch order:123 | json get amount"],
        assertions={"finalAnswer": {"exact": "1499"},
                    "trace": {"steps": [{"index": 0, "exact": "buyer@acme.example"}]}}),
    ScenarioSpec(
        id="search-into-a-file", category="files", world=with_demo(),
        oracle=['search "refund timeout" | write /reports/refund.txt', "cat /reports/refund.txt"],
        assertions={"files": [{"path": "/reports/refund.txt", "contains": ["Refund timeout incident retro"]}],
                    "finalAnswer": {"contains": ["kb://incidents/refund-timeout"]}}),
    ScenarioSpec(
        id="memory-round-trip", category="memory", world=with_demo(),
        oracle=['grep "^Owner:" /accounts/acme.md | memory store', "memory search acme owner"],
        assertions={"memory": {"contains": ["Owner: sara@example.com"]},
                    "finalAnswer": {"contains": ["sara@example.com"]}}),
    ScenarioSpec(
        id="binary-recovery", category="binary", world=with_demo(),
        # GNU cat prints the bytes; the presentation holds binary output back from the model.
        oracle=[{"command": "cat /images/logo.png", "expectedExitCode": 0}, "stat /images/logo.png"],
        assertions={"trace": {"steps": [{"index": 0, "contains": [
            "command produced binary output that should not be sent to the model",
            "Saved to: /.system/cmd-output/cmd-0001.bin"]}]},
                    "finalAnswer": {"contains": ["/images/logo.png", "12"]}}),
    ScenarioSpec(
        id="overflow-navigation", category="overflow",
        world=with_demo(files={"/logs/big.log": BIG_LOG}, outputLimits={"maxLines": 20}),
        oracle=["cat /logs/big.log", "cat /.system/cmd-output/cmd-0001.txt | grep ERROR"],
        assertions={"trace": {"steps": [{"index": 0, "contains": ["--- output truncated (300 lines,",
                                                                  "Full output: /.system/cmd-output/cmd-0001.txt"]}]},
                    "finalAnswer": {"exact": "2026-03-12T12:03:37Z INFO heartbeat seq=0217 ERROR disk full"}}),
    ScenarioSpec(
        id="unknown-command-recovery", category="discovery", world=with_demo(),
        oracle=[{"command": "cta /notes/todo.txt", "expectedExitCode": 127}, "cat /notes/todo.txt | head -n 1"],
        assertions={"trace": {"steps": [{"index": 0, "contains": ["did you mean: cat?"]}]},
                    "finalAnswer": {"exact": "1. Review refund incident timeline"}}),
    ScenarioSpec(
        id="path-clamping", category="safety", world=with_demo(),
        oracle=["write ../../outside.txt safe", "cat /outside.txt", "ls /../../.."],
        assertions={"files": [{"path": "/outside.txt", "exact": "safe"}],
                    "trace": {"steps": [{"index": 0, "exact": "wrote 4B to /outside.txt"}]}}),
    ScenarioSpec(
        id="malformed-json-recovery", category="structured",
        world=with_demo(files={"/config/broken.json": '{"env": "prod",'}),
        oracle=[{"command": "json get env /config/broken.json", "expectedExitCode": 1},
                "cat /config/broken.json", "json get env /config/prod.json"],
        assertions={"trace": {"steps": [{"index": 0, "contains": ["json", "/config/broken.json"]}]},
                    "finalAnswer": {"exact": "prod"}}),
    ScenarioSpec(
        id="fallback-config", category="composition", world=with_demo(),
        oracle=["cat /config/prod-missing.json 2>/dev/null || cat /config/default.json | json get region"],
        assertions={"finalAnswer": {"exact": "us-east-1"}}),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    async def go():
        runtime = await build_world(scenario.world)
        trace = await run_oracle(runtime, scenario)
        return await assert_scenario(scenario, trace, runtime)
    result = arun(go())
    assert result.failures == ()
    assert result.passed is True


def test_scenarios_accept_the_upstream_json_shape():
    spec = {"id": "plain-dict", "category": "composition", "description": "d", "prompt": "p",
            "maxTurns": 3, "maxToolCalls": 2, "world": {"files": {"/a.txt": "hello\n"}},
            "oracle": ["cat /a.txt"], "assertions": {"finalAnswer": {"exact": "hello"}}}

    async def go():
        runtime = await build_world(spec["world"])
        trace = await run_oracle(runtime, spec)
        return trace, await assert_scenario(spec, trace, runtime)
    trace, result = arun(go())
    assert (trace.final_body, trace.final_exit_code, result.passed) == ("hello", 0, True)


def test_assert_scenario_reports_every_failure():
    spec = {"id": "bad", "world": {}, "maxToolCalls": 1,
            "oracle": ["echo one", {"command": "nope", "expectedExitCode": 0}],
            "assertions": {"finalAnswer": {"exact": "two"},
                           "files": [{"path": "/missing.txt", "exists": True}],
                           "trace": {"mustInclude": ["grep"], "forbidden": ["echo"]}}}

    async def go():
        runtime = await build_world(spec["world"])
        return await assert_scenario(spec, await run_oracle(runtime, spec), runtime)
    result = arun(go())
    assert result.passed is False
    assert result.failures[:2] == ("bad: oracle used 2 tool calls, exceeding maxToolCalls=1",
                                   "bad: oracle step 1 exited 127, expected 0: nope")
    assert len(result.failures) == 6
