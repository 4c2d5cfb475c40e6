"""Consent: asking a human before a write, and reading their answer.

A host's `confirm(request)` (sync or async) answers "approved", "declined",
"unavailable", or {"approved": True, "input": {...}} with an edited input (validated
again by the caller). No confirm function, or one that cannot ask, means "unavailable",
which the policy's `on_no_confirm` settles (deny by default: fail closed).
"""
from __future__ import annotations

import asyncio
import inspect
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from .redaction import redact, redact_argv, redact_text, restore_redacted

APPROVED, DECLINED, UNAVAILABLE = "approved", "declined", "unavailable"
OUTCOMES = (APPROVED, DECLINED, UNAVAILABLE)


@dataclass(frozen=True)
class ConsentRequest:
    """What the human is asked about. `input` is shown redacted; secrets are never displayed."""
    ref: str                      # "petstore:createPet" or "fs:rm"
    kind: str
    reason: str                   # the policy's reason for asking
    summary: str = ""
    input: Any = None
    input_schema: Mapping[str, Any] | None = None
    command_line: str | None = None  # for built-in commands: what the model ran
    original_input: Any = field(default=None, repr=False, compare=False)
    secrets: tuple[str, ...] = field(default=(), repr=False, compare=False)  # registered values to hide

    @property
    def namespace(self) -> str:
        return self.ref.partition(":")[0]

    @property
    def operation(self) -> str:
        return self.ref.partition(":")[2]

    @property
    def prompt(self) -> str:
        """A plain-text rendering for a terminal or an elicitation message."""
        lines = [f"Allow {self.ref} ({self.kind})?"]
        if self.summary:
            lines.append(self.summary)
        lines.append(f"Reason: {self.reason}")
        if self.command_line is not None:
            lines.append(f"Command: {self.command_line}")
        elif self.input is not None:
            lines.append(f"Input: {json.dumps(self.input, ensure_ascii=False, sort_keys=True)}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The request as JSON-ready data (for the browser's consent dialog)."""
        return {"ref": self.ref, "namespace": self.namespace, "operation": self.operation,
                "kind": self.kind, "reason": self.reason, "summary": self.summary,
                "input": self.input, "inputSchema": self.input_schema, "commandLine": self.command_line}


def make_request(ref: str, kind: str, reason: str, summary: str = "", input: Any = None,
                 input_schema: Mapping[str, Any] | None = None,
                 command_line: str | None = None, secrets: Iterable[str] = ()) -> ConsentRequest:
    """The request a human sees: input, summary and command line redacted (secret keys,
    token shapes, header pairs, the registered `secrets`); the original kept to run with."""
    secrets = tuple(secrets)
    shown = redact(input, secrets)
    if (isinstance(input, Mapping) and isinstance(input.get("args"), list)
            and all(isinstance(arg, str) for arg in input["args"])):
        shown = {**shown, "args": list(redact_argv(input["args"], secrets))}  # --password hunter2
    if command_line is not None:
        command_line = redact_text(command_line, secrets)
    return ConsentRequest(ref, kind, reason, redact_text(summary, secrets) if summary else summary, shown,
                          input_schema, command_line, original_input=input, secrets=secrets)


@dataclass(frozen=True)
class ConsentDecision:
    outcome: str                 # "approved" | "declined" | "unavailable"
    input: Any = None            # an edited input, when the human changed it
    edited: bool = False
    note: str = ""               # why, when the answer could not be read or the ask failed

    @property
    def approved(self) -> bool:
        return self.outcome == APPROVED


def read_decision(answer: Any, request: ConsentRequest) -> ConsentDecision:
    """Turn whatever confirm() returned into a ConsentDecision; unreadable answers decline."""
    if isinstance(answer, ConsentDecision):
        return answer
    if answer is None:
        return ConsentDecision(UNAVAILABLE)
    if isinstance(answer, bool):
        return ConsentDecision(APPROVED if answer else DECLINED)
    if isinstance(answer, str):
        word = answer.strip().lower()
        if word in OUTCOMES:
            return ConsentDecision(word)
        return ConsentDecision(DECLINED, note=redact_text(f"unrecognised answer {answer!r}", request.secrets))
    if isinstance(answer, Mapping):
        return _decision_from_mapping(answer, request)
    return ConsentDecision(DECLINED, note=f"unrecognised answer of type {type(answer).__name__}")


def _decision_from_mapping(answer: Mapping[str, Any], request: ConsentRequest) -> ConsentDecision:
    outcome = answer.get("decision", answer.get("outcome"))
    if outcome is None and "approved" in answer:
        outcome = APPROVED if answer["approved"] is True else DECLINED
    if outcome not in OUTCOMES:
        return ConsentDecision(DECLINED, note=f"unrecognised answer {redact(dict(answer), request.secrets)!r}")
    if outcome == APPROVED and "input" in answer:
        edited = restore_redacted(answer["input"], request.original_input, request.input)
        return ConsentDecision(APPROVED, edited, edited != request.original_input)
    return ConsentDecision(outcome)


async def ask(confirm: Callable[[ConsentRequest], Any] | None, request: ConsentRequest,
              timeout_seconds: float | None = None) -> ConsentDecision:
    """Ask the host's confirm function. Fail closed: one that raises anything (KeyboardInterrupt
    and SystemExit included) or does not answer within `timeout_seconds` declines, and the note
    says so without the exception's text (which may hold what the human must not leak)."""
    if confirm is None:
        return ConsentDecision(UNAVAILABLE, note="no confirm function configured")
    try:
        answer = confirm(request)
        if inspect.isawaitable(answer):
            answer = await asyncio.wait_for(_awaited(answer), timeout_seconds)
    except asyncio.TimeoutError:
        return ConsentDecision(DECLINED, note=f"no answer within {timeout_seconds:g} s")
    except asyncio.CancelledError:
        if _cancelled_from_outside():
            raise  # the run itself is being stopped: not the confirm function's doing
        return ConsentDecision(DECLINED, note="confirm failed (CancelledError)")
    except BaseException as error:  # noqa: B036 - the host's code failed: nobody approved anything
        return ConsentDecision(DECLINED, note=f"confirm failed ({type(error).__name__})")
    return read_decision(answer, request)


async def _awaited(answer: Any) -> Any:
    return await answer


def _cancelled_from_outside() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
