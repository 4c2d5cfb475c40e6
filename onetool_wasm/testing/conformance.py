"""Generic checks every command must pass, generated from its spec's metadata."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Awaitable, Callable

from ..commands.registry import CommandRegistry
from ..commands.spec import Adapters, CommandContext, CommandSpec, invoke_command
from ..result import CommandResult
from .harness import create_test_command_context

ContextFactory = Callable[[], CommandContext]


@dataclass(frozen=True)
class ConformanceCase:
    command_name: str
    name: str
    run: Callable[[], Awaitable[None]]

    @property
    def id(self) -> str:
        return f"{self.command_name}: {self.name}"


class ConformanceFailure(AssertionError):
    pass


def create_command_conformance_cases(registry: CommandRegistry, make_ctx: ContextFactory | None = None,
                                     strict_metadata: bool = True,
                                     rejection_stdin: bytes = b"unwanted") -> list[ConformanceCase]:
    """Cases per command: metadata, a representative call, errors naming the command,
    help entry, stdin rejection, arity, and missing adapters."""
    def context(**overrides) -> CommandContext:
        ctx = make_ctx() if make_ctx else create_test_command_context(registry=registry)
        ctx.registry = registry
        for key, value in overrides.items():
            setattr(ctx, key, value)
        return ctx

    cases: list[ConformanceCase] = []
    for spec in registry.all():
        cases.extend(_cases_for(spec, registry, context, strict_metadata, rejection_stdin))
    return cases


def _cases_for(spec: CommandSpec, registry: CommandRegistry, context, strict: bool,
               rejection_stdin: bytes) -> list[ConformanceCase]:
    sample = list(spec.conformance_args)

    def case(name: str, check: Callable[[], Awaitable[None]]) -> ConformanceCase:
        return ConformanceCase(spec.name, name, check)

    async def call(args: list[str], stdin: bytes = b"", **overrides) -> CommandResult:
        return await invoke_command(spec, context(**overrides), args, stdin)

    async def metadata() -> None:
        _check_metadata(spec, sample, strict)

    async def representative() -> None:
        result = await call(sample)
        _require("internal runtime error" not in result.stderr, f"{spec.name} crashed: {result.stderr}")

    async def errors_name_command() -> None:
        result = await call([])
        if result.exit_code != 0:
            _require(spec.name in result.stderr, f'error output should reference "{spec.name}": got "{result.stderr}"')

    async def help_entry() -> None:
        help_spec = registry.get("help")
        result = await invoke_command(help_spec, context(), [spec.name], b"")
        _require(result.exit_code == 0, f"help {spec.name} should exit 0, got {result.exit_code}")
        _require(spec.summary in result.text, f"help {spec.name} should include the summary")

    async def rejects_stdin() -> None:
        result = await call(sample, rejection_stdin)
        _require(result.exit_code == 1 and "does not accept stdin" in result.stderr,
                 f"{spec.name} should reject stdin: {result.exit_code} {result.stderr!r}")

    async def too_few() -> None:
        result = await call([f"arg{i}" for i in range((spec.min_args or 0) - 1)])
        _require(result.exit_code == spec.usage_exit_code,
                 f"{spec.name} should reject too few arguments with exit {spec.usage_exit_code}, got {result.exit_code}")

    async def too_many() -> None:
        result = await call([f"arg{i}" for i in range((spec.max_args or 0) + 1)])
        _require(result.exit_code == spec.usage_exit_code,
                 f"{spec.name} should reject too many arguments with exit {spec.usage_exit_code}, got {result.exit_code}")

    async def missing_adapter() -> None:
        args = sample or [f"arg{i}" for i in range(max(spec.min_args or 0, 1))]
        result = await call(args, adapters=Adapters())
        pattern = f"{re.escape(spec.name)}: no {re.escape(spec.requires_adapter or '')} adapter configured"
        _require(result.exit_code == 1 and re.search(pattern, result.stderr) is not None,
                 f"{spec.name} should explain the missing adapter: {result.stderr!r}")

    cases = [case("has valid spec metadata", metadata),
             case("representative call never crashes", representative),
             case("error output references command name", errors_name_command)]
    if registry.has("help"):
        cases.append(case("help entry exists", help_entry))
    if spec.accepts_stdin is False:
        cases.append(case("rejects stdin", rejects_stdin))
    if (spec.min_args or 0) > 0:
        cases.append(case(f"requires at least {spec.min_args} arg(s)", too_few))
    if spec.max_args is not None:
        cases.append(case(f"rejects more than {spec.max_args} arg(s)", too_many))
    if spec.requires_adapter is not None:
        cases.append(case(f"reports missing {spec.requires_adapter} adapter", missing_adapter))
    return cases


def _check_metadata(spec: CommandSpec, sample: list[str], strict: bool) -> None:
    for label, value in (("name", spec.name), ("summary", spec.summary), ("usage", spec.usage),
                         ("details", spec.details)):
        _require(bool(value.strip()), f"{spec.name} {label} must be non-empty")
    _require(callable(spec.handler), f"{spec.name} handler must be callable")
    if strict:
        _require(isinstance(spec.accepts_stdin, bool), f"{spec.name} should declare accepts_stdin")
        _require(isinstance(spec.min_args, int), f"{spec.name} should declare min_args")
    if spec.max_args is not None:
        _require(spec.max_args >= (spec.min_args or 0), f"{spec.name} has max_args < min_args")
        _require(len(sample) <= spec.max_args, f"{spec.name} conformance_args should satisfy max_args")
    if spec.min_args is not None:
        _require(len(sample) >= spec.min_args, f"{spec.name} conformance_args should satisfy min_args")
    kind = spec.kind_for(sample)
    _require(kind in ("read", "write", "sensitive"), f"{spec.name} kind must be read/write/sensitive, got {kind!r}")


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceFailure(message)
