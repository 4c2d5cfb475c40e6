"""Consent: requests, answers, and what the runtime does with them."""
from __future__ import annotations

import asyncio
import time

import pytest

from onetool_wasm import Policy, create_agent_cli, ok
from onetool_wasm.consent import ConsentDecision, ConsentRequest, ask, make_request, read_decision
from onetool_wasm.redaction import REDACTED
from onetool_wasm.testing.providers import DEMO_POLICY, demo_providers

from .helpers import arun, command, zero_duration

REQUEST = make_request("petstore:createPet", "write", "write operation", "Add a pet",
                       {"name": "Rex", "apiKey": "k-123"}, {"type": "object"})


# --- reading answers -------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, outcome", [
    ("approved", "approved"), ("declined", "declined"), ("unavailable", "unavailable"), (" Approved ", "approved"),
    (True, "approved"), (False, "declined"), (None, "unavailable"),
    ({"approved": True}, "approved"), ({"approved": False}, "declined"), ({"approved": "yes"}, "declined"),
    ({"decision": "unavailable"}, "unavailable"), ({"outcome": "declined"}, "declined"),
    ("ok", "declined"), ({"whatever": 1}, "declined"), (42, "declined"),
])
def test_read_decision(answer, outcome):
    assert read_decision(answer, REQUEST).outcome == outcome


def test_unreadable_answers_decline_and_say_why():
    assert read_decision("sure", REQUEST) == ConsentDecision("declined", note="unrecognised answer 'sure'")


def test_edited_input_is_returned_with_redacted_secrets_restored():
    decision = read_decision({"approved": True, "input": {"name": "Max", "apiKey": REDACTED}}, REQUEST)
    assert decision == ConsentDecision("approved", {"name": "Max", "apiKey": "k-123"}, True)
    same = read_decision({"approved": True, "input": {"name": "Rex", "apiKey": REDACTED}}, REQUEST)
    assert (same.outcome, same.edited) == ("approved", False)


def test_request_shows_input_redacted_and_renders_a_prompt():
    assert REQUEST.input == {"name": "Rex", "apiKey": REDACTED}
    assert (REQUEST.namespace, REQUEST.operation) == ("petstore", "createPet")
    assert REQUEST.prompt == ('Allow petstore:createPet (write)?\nAdd a pet\nReason: write operation\n'
                              'Input: {"apiKey": "**REDACTED**", "name": "Rex"}')
    assert "k-123" not in repr(REQUEST) and "k-123" not in str(REQUEST.to_dict())
    assert REQUEST.to_dict()["inputSchema"] == {"type": "object"}


# --- asking ----------------------------------------------------------------------------------------

def test_ask_calls_sync_and_async_confirm_functions():
    seen = []

    def sync_confirm(request):
        seen.append(request.ref)
        return "approved"

    async def async_confirm(request):
        seen.append(request.kind)
        return {"approved": True}

    assert arun(ask(sync_confirm, REQUEST)).outcome == "approved"
    assert arun(ask(async_confirm, REQUEST)).outcome == "approved"
    assert seen == ["petstore:createPet", "write"]


def test_ask_without_confirm_is_unavailable_and_a_failing_confirm_declines():
    assert arun(ask(None, REQUEST)) == ConsentDecision("unavailable", note="no confirm function configured")

    def broken(request):
        raise RuntimeError("dialog closed")

    # The exception's text ("dialog closed") is not repeated: it may hold what must not leak.
    assert arun(ask(broken, REQUEST)) == ConsentDecision("declined", note="confirm failed (RuntimeError)")


# --- in the runtime ----------------------------------------------------------------------------------

def run_lines(lines, **options):
    async def go():
        runtime = await create_agent_cli(**options)
        return [zero_duration(await runtime.run(line)) for line in lines]
    return arun(go())


def test_fail_closed_without_a_confirm_function():
    [out, check] = run_lines(["petstore createPet name=Nibbles species=hamster", "petstore findPetByName name=Nibbles"],
                             providers=demo_providers())
    assert out == ("[error] petstore: petstore:createPet needs confirmation (write operation) but no one could "
                   "confirm it; nothing was run\n\n[exit:1 | 0ms]")
    assert "no pet named Nibbles" in check


def test_on_no_confirm_allow_runs_without_asking():
    [out] = run_lines(["petstore createPet name=Nibbles species=hamster"], providers=demo_providers(),
                      policy={"onNoConfirm": "allow"})
    assert '"name": "Nibbles"' in out and out.endswith("[exit:0 | 0ms]")


def test_unavailable_answer_follows_on_no_confirm():
    [out] = run_lines(["petstore createPet name=N species=s"], providers=demo_providers(),
                      confirm=lambda request: "unavailable")
    assert "needs confirmation (write operation) but no one could confirm it" in out


def test_declined_does_nothing_and_says_why():
    requests = []

    def confirm(request):
        requests.append(request)
        return "declined"

    out = run_lines(["petstore createPet name=Nibbles species=hamster", "petstore findPetByName name=Nibbles"],
                    providers=demo_providers(), confirm=confirm)
    assert out[0] == ("[error] petstore: petstore:createPet was declined by the user; nothing was run"
                      "\n\n[exit:1 | 0ms]")
    assert "no pet named Nibbles" in out[1]
    [request] = requests
    assert (request.ref, request.kind, request.reason, request.summary) == (
        "petstore:createPet", "write", "write operation", "Add a pet to the store")
    assert request.input == {"name": "Nibbles", "species": "hamster"}
    assert request.input_schema["required"] == ["name", "species"]


def test_edited_input_runs_with_the_edit():
    def confirm(request):
        return {"approved": True, "input": {**request.input, "name": "Nibbles II"}}

    [out] = run_lines(["petstore createPet name=Nibbles species=hamster"], providers=demo_providers(),
                      confirm=confirm)
    assert '"name": "Nibbles II"' in out


def test_edited_input_is_validated_again_and_nothing_runs_when_invalid():
    def confirm(request):
        return {"approved": True, "input": {"name": "", "species": 7}}

    out = run_lines(["petstore createPet name=Nibbles species=hamster", "petstore listPets species=hamster"],
                    providers=demo_providers(), confirm=confirm)
    assert out[0].startswith(
        "[error] petstore: edited input for petstore:createPet is invalid; nothing was run (2 problems):\n"
        "  - at /name: '' should be non-empty\n"
        "  - at /species: 7 is not of type 'string'\nInput schema:\n{")
    assert out[1] == "[]\n\n[exit:0 | 0ms]"


def test_denied_operation_never_asks():
    asked = []
    [out] = run_lines(["petstore deletePet id=1"], providers=demo_providers(), policy=DEMO_POLICY,
                      confirm=lambda request: asked.append(request) or "approved")
    assert out == ('[error] petstore: petstore:deletePet denied by policy (matches deny pattern "*:delete*"); '
                   "nothing was run\n\n[exit:1 | 0ms]")
    assert asked == []


def test_reads_are_not_asked_about():
    asked = []
    [out] = run_lines(["petstore getPet id=1"], providers=demo_providers(),
                      confirm=lambda request: asked.append(request) or "declined")
    assert '"name": "Bella"' in out and asked == []


# --- built-in commands under a policy -------------------------------------------------------------------

def test_without_a_policy_builtins_run_as_upstream():
    asked = []
    out = run_lines(["write /a.txt hi", "cat /a.txt"], confirm=lambda r: asked.append(r) or "declined")
    assert out == ["wrote 2B to /a.txt\n\n[exit:0 | 0ms]", "hi\n\n[exit:0 | 0ms]"]
    assert asked == []


def test_denied_builtin_does_nothing_and_exits_1():
    out = run_lines(["write /a.txt hi", "rm /a.txt", "cat /a.txt"],
                    policy={"allow": ["fs:write"], "deny": ["fs:rm"]})
    assert out == ["wrote 2B to /a.txt\n\n[exit:0 | 0ms]",
                   '[error] rm: fs:rm denied by policy (matches deny pattern "fs:rm"); nothing was run\n\n'
                   "[exit:1 | 0ms]",
                   "hi\n\n[exit:0 | 0ms]"]


def test_builtin_write_needs_consent_under_a_guided_policy():
    requests = []

    def confirm(request: ConsentRequest):
        requests.append(request)
        return "declined"

    out = run_lines(['write /a.txt "hello there"', "cat /a.txt", "echo fine"], policy={}, confirm=confirm)
    assert out[0] == "[error] write: fs:write was declined by the user; nothing was run\n\n[exit:1 | 0ms]"
    assert out[1] == "[error] cat: /a.txt: No such file or directory\n\n[exit:1 | 0ms]"
    assert out[2] == "fine\n\n[exit:0 | 0ms]"
    [request] = requests
    assert (request.ref, request.kind, request.command_line) == ("fs:write", "write", "write /a.txt 'hello there'")
    assert request.input == {"args": ["/a.txt", "hello there"]}


def test_a_redirect_into_a_file_is_a_write_under_the_policy():
    requests = []

    def confirm(request: ConsentRequest):
        requests.append(request)
        return "declined" if len(requests) == 1 else "approved"

    out = run_lines(["echo secret > /a.txt", "cat /a.txt", "echo kept >> /b.txt && cat /b.txt"],
                    policy={}, confirm=confirm)
    assert out[0] == ("[error] bash: line 1: /a.txt: write: fs:write was declined by the user; nothing was run"
                      "\n\n[exit:1 | 0ms]")
    assert out[1] == "[error] cat: /a.txt: No such file or directory\n\n[exit:1 | 0ms]"
    assert out[2] == "kept\n\n[exit:0 | 0ms]"
    assert [(r.ref, r.kind, r.input) for r in requests] == [
        ("fs:write", "write", {"args": ["/a.txt"]}), ("fs:write", "write", {"args": ["/b.txt"]})]


def test_builtin_kind_follows_the_arguments():
    asked = []
    touchy = command("touchy", lambda ctx, args, stdin: ok(" ".join(args)), accepts_stdin=False, min_args=0,
                     kind=lambda args: "write" if "-w" in args else "read")
    out = run_lines(["touchy a", "touchy -w b"], commands=[touchy], policy={},
                    confirm=lambda r: asked.append((r.ref, r.kind, r.command_line)) or "approved")
    assert out == ["a\n\n[exit:0 | 0ms]", "-w b\n\n[exit:0 | 0ms]"]
    assert asked == [("custom:touchy", "write", "touchy -w b")]


def test_builtin_edited_arguments_are_used_and_validated():
    out = run_lines(["write /a.txt x", "cat /a.txt"], policy={},
                    confirm=lambda r: {"approved": True, "input": {"args": ["/a.txt", "edited"]}})
    assert out == ["wrote 6B to /a.txt\n\n[exit:0 | 0ms]", "edited\n\n[exit:0 | 0ms]"]
    [bad] = run_lines(["write /a.txt x"], policy={}, confirm=lambda r: {"approved": True, "input": {"args": [1]}})
    assert bad.startswith("[error] write: edited input is invalid (1 problem):\n  - at /args/0: 1 is not of type 'string'")


def test_strict_policy_denies_unlisted_builtins_in_a_pipeline():
    [out] = run_lines(["echo hi | wc -l"], policy={"mode": "strict", "allow": ["text:echo"]})
    assert out == ("[error] wc: text:wc denied by policy (strict mode and not in the allow list); nothing was run"
                   "\n\n[exit:1 | 0ms]")


@pytest.mark.parametrize("exception", [RuntimeError(), KeyboardInterrupt(), SystemExit(3), asyncio.CancelledError(),
                                       GeneratorExit(), ValueError("sk-secret-in-text")])
def test_a_confirm_raising_anything_declines_naming_only_the_type(exception):
    def broken(request):
        raise exception

    async def broken_async(request):
        raise exception

    expected = ConsentDecision("declined", note=f"confirm failed ({type(exception).__name__})")
    assert arun(ask(broken, REQUEST)) == expected
    assert arun(ask(broken_async, REQUEST)) == expected


def test_a_confirm_that_never_answers_declines_at_the_policy_timeout():
    async def never(request):
        await asyncio.Event().wait()

    started = time.perf_counter()
    lines = run_lines(["rm /x"], policy={"confirm": ["fs:rm"], "confirmTimeoutSeconds": 0.2}, confirm=never)
    assert time.perf_counter() - started < 5
    assert lines[0].startswith("[error] rm: fs:rm was declined by the user (no answer within 0.2 s); nothing was run")


def test_a_run_with_a_raising_confirm_returns_a_block_and_the_text_stays_out():
    def broken(request):
        raise KeyboardInterrupt("token=sk-abc123")

    [out] = run_lines(["rm /x"], policy={"confirm": ["fs:rm"]}, confirm=broken)
    assert out == ("[error] rm: fs:rm was declined by the user (confirm failed (KeyboardInterrupt)); nothing was run"
                   "\n\n[exit:1 | 0ms]")


def test_the_confirm_timeout_is_validated():
    assert Policy.from_dict({"confirmTimeoutSeconds": 5}).confirm_timeout_seconds == 5
    assert Policy.from_dict({"confirm_timeout_seconds": None}).confirm_timeout_seconds is None
    assert Policy.from_dict({}).confirm_timeout_seconds == 300
    for bad in (0, -1, "5", True):
        with pytest.raises(ValueError, match="confirmTimeoutSeconds"):
            Policy.from_dict({"confirmTimeoutSeconds": bad})


OVERWRITE_POLICY = {"allow": ["fs:*", "text:*"], "confirmOverwrites": True}


@pytest.mark.parametrize("line, asked", [
    ("write /new.txt x", []),
    ("write /f.txt y", ["overwrites /f.txt"]),
    ("cp /a.txt /f.txt", ["overwrites /f.txt"]),
    ("cp /a.txt /d", ["overwrites /d/a.txt"]),
    ("cp /a.txt /d/new.txt", []),
    ("mv /a.txt /f.txt", ["overwrites /f.txt"]),
    ("echo x > /f.txt", ["overwrites /f.txt"]),
    ("echo x >> /f.txt", []),
    ("echo x > /new.txt", []),
    ("sed -i d /f.txt", ["overwrites /f.txt"]),
    ("sed -n p /f.txt", []),
    ("echo x | tee /f.txt /new.txt", ["overwrites /f.txt"]),
    ("echo x | tee -a /f.txt", []),
    ("sort -o /f.txt /a.txt", ["overwrites /f.txt"]),
    ("mkdir -p /d/e && touch /f.txt", []),
])
def test_confirm_overwrites_asks_before_a_file_is_replaced(line, asked):
    reasons = []

    def confirm(request):
        reasons.append(request.reason)
        return "approved"

    async def go():
        from onetool_wasm import MemoryVFS
        vfs = MemoryVFS()
        for path, data in {"/a.txt": b"a\n", "/f.txt": b"keep\n", "/d/a.txt": b"old\n"}.items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs, policy=OVERWRITE_POLICY, confirm=confirm)
        return await runtime.run_detailed(line)

    execution = arun(go())
    assert execution.exit_code == 0, execution.stderr
    assert reasons == asked


def test_a_declined_overwrite_leaves_the_file_as_it_was():
    async def go():
        from onetool_wasm import MemoryVFS
        vfs = MemoryVFS()
        await vfs.write_bytes("/f.txt", b"keep\n")
        runtime = await create_agent_cli(vfs=vfs, policy=OVERWRITE_POLICY, confirm=lambda request: "declined")
        text = await runtime.run("echo gone > /f.txt")
        return text, await vfs.read_bytes("/f.txt")

    text, data = arun(go())
    assert data == b"keep\n"
    assert text.startswith("[error] bash: line 1: /f.txt: write: fs:write was declined by the user; nothing was run")


def test_confirm_overwrites_is_validated():
    assert Policy.from_dict({"confirmOverwrites": True}).confirm_overwrites is True
    assert Policy.from_dict({}).confirm_overwrites is False
    with pytest.raises(ValueError, match="confirmOverwrites must be true or false"):
        Policy.from_dict({"confirmOverwrites": "yes"})
