"""Agent scenarios over the demo provider world: a pet store and an inventory behind `run`."""
from __future__ import annotations

import pytest

from onetool_wasm.testing import ScenarioSpec, assert_scenario, build_world, run_oracle
from onetool_wasm.testing.providers import DEMO_POLICY, demo_providers

from .helpers import arun

SCENARIOS = [
    ScenarioSpec(
        id="count-sold-pets", category="api",
        prompt="How many pets have been sold?",
        oracle=["api services", "petstore listPets status=sold | grep '\"name\"' | wc -l"],
        assertions={"finalAnswer": {"exact": "3"},
                    "trace": {"steps": [{"index": 0, "contains": ["petstore", "inventory"]}]}}),
    ScenarioSpec(
        id="find-pet-by-name", category="api",
        prompt="What is Luna's id and status?",
        oracle=["api operations petstore", "petstore findPetByName name=Luna | json get id",
                "petstore findPetByName name=luna | json get status"],
        assertions={"finalAnswer": {"exact": "sold"},
                    "trace": {"steps": [{"index": 0, "contains": ["petstore:findPetByName"]},
                                        {"index": 1, "exact": "4"}]}}),
    ScenarioSpec(
        id="typed-id-schema-feedback", category="api",
        prompt="Show pet number two.",
        oracle=[{"command": "petstore getPet id=two", "expectedExitCode": 1}, "petstore getPet id=2"],
        assertions={"trace": {"steps": [{"index": 0, "exitCode": 1, "contains": [
            "invalid input for petstore:getPet (1 problem):", "at /id: 'two' is not of type 'integer'",
            "Input schema:", '"type": "integer"']}]},
            "finalAnswer": {"contains": ['"name": "Rex"']}}),
    ScenarioSpec(
        id="cross-namespace-stock", category="api",
        prompt="Is there food in stock for Milo?",
        oracle=["petstore findPetByName name=Milo | json get foodSku", "inventory getStock sku=CAT-FOOD-02 | json get quantity"],
        assertions={"finalAnswer": {"exact": "0"},
                    "trace": {"steps": [{"index": 0, "exact": "CAT-FOOD-02"}], "mustInclude": ["inventory getStock"]}}),
    ScenarioSpec(
        id="write-with-consent", category="api",
        prompt="Add a hamster called Nibbles and tag it 'new'.",
        oracle=["petstore createPet name=Nibbles species=hamster | json get id", "petstore addTags id=8 tags=new",
                "petstore findPetByName name=Nibbles | json get tags"],
        assertions={"trace": {"steps": [{"index": 0, "exact": "8"}]}, "finalAnswer": {"contains": ['"new"']}}),
    ScenarioSpec(
        id="denied-write-reported", category="api",
        prompt="Delete Bella from the store.",
        oracle=[{"command": "petstore deletePet id=1", "expectedExitCode": 1},
                "petstore getPet id=1 | json get name"],
        assertions={"trace": {"steps": [{"index": 0, "exitCode": 1, "exact":
            '[error] petstore: petstore:deletePet denied by policy (matches deny pattern "*:delete*"); '
            "nothing was run"}]},
            "finalAnswer": {"exact": "Bella"}}),
]

REQUIRED = {"count-sold-pets": ("grep", "wc")}


def scenario_world(asked):
    def confirm(request):
        asked.append(request.ref)
        return "approved"
    return build_world({}, providers=demo_providers(), policy=DEMO_POLICY, confirm=confirm)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    asked = []

    async def go():
        runtime = await scenario_world(asked)
        missing = [name for name in REQUIRED.get(scenario.id, ()) + ("json",) if not runtime.registry.has(name)]
        if missing:
            return None, missing
        trace = await run_oracle(runtime, scenario)
        return await assert_scenario(scenario, trace, runtime), missing

    result, missing = arun(go())
    if missing:
        print(f"skipped: commands not registered yet: {', '.join(missing)}")
        pytest.skip(f"commands not registered yet: {', '.join(missing)}")
    assert result.passed, "\n".join(result.failures)
    expected_asks = {"write-with-consent": ["petstore:createPet", "petstore:addTags"]}
    assert asked == expected_asks.get(scenario.id, [])
