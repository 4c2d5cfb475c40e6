"""The call gate: policy decision, then a human's consent when the policy asks for it.

Used for operations (`api call`) and for built-in commands when a runtime has a policy
(subjects `<group>:<command>`). A refused call does nothing; its message says why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..consent import APPROVED, DECLINED, ConsentDecision, ask, make_request
from ..policy import Decision, Policy
from ..redaction import context_secrets
from ..result import CommandResult, err
from .validation import format_problems, validate

if TYPE_CHECKING:
    from ..commands.spec import CommandContext, CommandSpec

# What a human may change when approving a built-in command: its arguments.
COMMAND_INPUT_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {"args": {"type": "array", "items": {"type": "string"}}},
    "required": ["args"],
}


@dataclass(frozen=True)
class GateOutcome:
    allowed: bool
    decision: Decision
    input: Any = None                     # the input to run with (edited by the human, maybe)
    edited: bool = False
    refusal: str = ""                     # why nothing runs, when not allowed
    consent: ConsentDecision | None = None


async def pass_gate(policy: Policy, confirm: Callable[..., Any] | None, *, namespace: str, name: str,
                    kind: str | None, input: Any, summary: str = "",
                    input_schema: Mapping[str, Any] | None = None,
                    command_line: str | None = None, secrets: Sequence[str] = (),
                    overwrites: Sequence[str] = ()) -> GateOutcome:
    """`overwrites`: existing files the call would replace; with the policy's
    `confirm_overwrites`, a call the policy allows asks first."""
    ref = f"{namespace}:{name}"
    decision = policy.decide(namespace, name, kind)
    if decision.verdict == "deny":
        return GateOutcome(False, decision, refusal=f"{ref} denied by policy ({decision.reason}); nothing was run")
    if decision.verdict == "allow" and policy.confirm_overwrites and overwrites:
        decision = Decision("confirm", f"overwrites {', '.join(overwrites)}", decision.kind, decision.rule)
    if decision.verdict == "allow":
        return GateOutcome(True, decision, input)
    request = make_request(ref, decision.kind, decision.reason, summary, input, input_schema, command_line,
                           secrets=secrets)
    consent = await ask(confirm, request, policy.confirm_timeout_seconds)
    if consent.outcome == APPROVED:
        edited = consent.edited
        return GateOutcome(True, decision, consent.input if edited else input, edited, consent=consent)
    if consent.outcome == DECLINED:
        note = f" ({consent.note})" if consent.note else ""
        return GateOutcome(False, decision, refusal=f"{ref} was declined by the user{note}; nothing was run",
                           consent=consent)
    if policy.on_no_confirm == "allow":
        return GateOutcome(True, decision, input, consent=consent)
    return GateOutcome(False, decision, consent=consent,
                       refusal=f"{ref} needs confirmation ({decision.reason}) but no one could confirm it; "
                               "nothing was run")


async def gate_command(ctx: "CommandContext", spec: "CommandSpec", args: list[str]) -> list[str] | CommandResult:
    """The arguments to run a built-in with, or the refusal. No policy: run as upstream."""
    policy = Policy.coerce(getattr(ctx, "policy", None))
    if policy is None:
        return args
    overwrites = await _existing_targets(ctx, spec, args) if policy.confirm_overwrites else []
    outcome = await pass_gate(policy, getattr(ctx, "confirm", None), namespace=spec.group, name=spec.name,
                              kind=spec.kind_for(args), input={"args": list(args)}, summary=spec.summary,
                              input_schema=COMMAND_INPUT_SCHEMA, command_line=_command_line(spec.name, args),
                              secrets=context_secrets(ctx), overwrites=overwrites)
    if not outcome.allowed:
        return err(f"{spec.name}: {outcome.refusal}")
    if not outcome.edited:
        return args
    problems = validate(COMMAND_INPUT_SCHEMA, outcome.input)
    if problems:
        return err(f"{spec.name}: " + format_problems("edited input is invalid", problems, COMMAND_INPUT_SCHEMA))
    return list(outcome.input["args"])


async def _existing_targets(ctx: "CommandContext", spec: "CommandSpec", args: list[str]) -> list[str]:
    """The files this call would replace that exist now (as the VFS normalises them)."""
    if spec.targets is None or spec.kind_for(args) == "read":
        return []
    found: list[str] = []
    for path in spec.targets(args):
        try:
            info = await ctx.vfs.stat(path)
        except Exception:  # a path the VFS refuses is not a file to lose
            continue
        if info.exists and not info.is_dir and info.path not in found:
            found.append(info.path)
    return found


def _command_line(name: str, args: Sequence[str]) -> str:
    return " ".join([name, *[_quote(arg) for arg in args]])


def _quote(arg: str) -> str:
    if arg and not any(ch.isspace() or ch in "|&;'\"\\" for ch in arg):
        return arg
    if "'" in arg:
        return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"'{arg}'"
