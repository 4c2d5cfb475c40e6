"""Execution: walk a parsed script the way bash runs it.

    Interpreter.run(script)          the run: exit status, `exit`, limits
      run_script -> run_and_or       `;` and newlines, `&&` `||`, `set -e`
        run_pipeline                 stages run concurrently over pipes (streams.py)
          run_command                compound commands (if, for, while, case, ...)
            run_simple               expansion -> assignments -> redirections -> the command:
                                     a function, a builtin (builtins/), or a registered command

Every stage of a multi-command pipeline and every `( ... )` / `$( ... )` runs in a child
interpreter over a copy of the state, as bash forks a subshell.
"""
from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from typing import TYPE_CHECKING, Awaitable, Callable

from ..commands.spec import CommandContext, CommandIO, CommandSpec, invoke_command
from ..result import CommandResult
from ..streams import (BrokenPipe, BufferWriter, BytesReader, CountingReader, CountingWriter, EmptyReader, NullWriter, Pipe,
                       Reader,
                       SIGPIPE_STATUS, StreamLimit, Writer, yield_now)
from ..vfs.cwd import CwdVFS
from ..vfs.pipes import PipeFiles
from . import arithmetic, conditional, patterns
from .arithmetic import ArithError
from .ast import (AndOr, ArithCommand, ArithFor, Assignment, BraceGroup, Case, CommandSub, CondCommand,
                  CondExpr, For, FunctionDef, If, Literal, Pipeline, ProcessSub, Script, SimpleCommand, Subshell,
                  While, Word)
from .expansion import Expander
from .builtins.variables import ARRAY_MARK
from .limits import Budget, LimitExceeded, TimedOut
from .redirections import open_redirects
from .quoting import xtrace_word
from .state import Assoc, LineError, ShellError, ShellState, Variable
from .trace import RunRecord, StepRecord

if TYPE_CHECKING:
    from .ast import Command

Gate = Callable[[CommandSpec, list[str], CommandContext], Awaitable["list[str] | CommandResult"]]


class LoopControl(Exception):
    def __init__(self, kind: str, levels: int) -> None:
        super().__init__(kind)
        self.kind = kind       # "break" | "continue"
        self.levels = levels


class FunctionReturn(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class ShellExit(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


# `<(...)`/`>(...)` files open at once (bash numbers them down from /dev/fd/63).
MAX_PROCESS_SUBSTITUTIONS = 50

# What `timeout` reports for a command it stopped (GNU's status).
TIMED_OUT_STATUS = 124


class LineAbandoned(Exception):
    """An expansion error (`$((1/0))`) ends the rest of the current line, not the script."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Interpreter:
    def __init__(self, ctx: CommandContext, state: ShellState, budget: Budget, gate: Gate,
                 record: RunRecord, source_depth: int = 0) -> None:
        self.ctx = ctx
        self.state = state
        self.budget = budget
        self.gate = gate
        self.record = record
        self.source_depth = source_depth
        self.line = 1
        self.loop_depth = 0
        self.substitution_status: int | None = None  # of the last `$(...)`, for `x=$(cmd)`
        self.exited = False  # `exit` (or a fatal error) ended this shell
        self.traced = False  # the run's own shell records its top-level pipelines
        self.exec_io: CommandIO | None = None  # set by `exec` with only redirections
        self.exec_closers: list[Writer] = []
        self.descriptors: dict[int, Reader | Writer] = {}  # above 2, opened by `exec 3>file`
        self.condition_depth = 0  # inside if/while conditions, `!`, before && ||: no errexit
        self.vfs = CwdVFS(ctx.vfs, state.cwd)
        self.expander = Expander(state, self.vfs, self._substitute,
                                 budget.limits.max_expansion_bytes, lambda: self.line,
                                 self._process_substitute)

    @property
    def limits(self):
        return self.budget.limits

    def child(self, state: ShellState | None = None) -> "Interpreter":
        """A subshell: a copy of the state; nothing it changes comes back."""
        child = Interpreter(self.ctx, state or self.state.fork(), self.budget, self.gate, self.record,
                            self.source_depth)
        child.vfs.pipes = PipeFiles(self.vfs.pipes.files)  # it may read its parent's `<(...)`
        child.descriptors = dict(self.descriptors)
        child.stderr = self.stderr
        child.loop_depth = self.loop_depth
        return child

    def set_cwd(self, path: str) -> None:
        self.state.cwd = path
        self.vfs.cwd = path

    # ------------------------------------------------------------ lists

    async def run(self, script: Script, io: CommandIO) -> int:
        """A whole script as `bash -c` runs it: `exit` ends it, a fatal error ends it, an
        expansion error ends the rest of its line."""
        try:
            status = await self._run_lines(script, io)
        except ShellExit as exit_:
            status = exit_.status
            self.exited = True
        except (LoopControl, FunctionReturn) as control:
            status = getattr(control, "status", 0)
        self.state.last_status = status
        return status

    async def _run_lines(self, script: Script, io: CommandIO) -> int:
        status = self.state.last_status
        abandoned = 0
        for item in script.items:
            if abandoned and _first_line(item) <= abandoned:
                continue
            try:
                status = await self.run_and_or(item, self.exec_io or io)
            except LineAbandoned as stop:
                self.state.last_status = status = stop.status
                abandoned = self.line
        return status

    async def run_main(self, script: Script, io: CommandIO) -> int:
        """A shell's whole life: the script, then its `trap ... EXIT` action; files that
        `exec > f` opened are written at the end."""
        try:
            status = await self.run(script, io)
            action, self.state.exit_trap = self.state.exit_trap, None
            if action:
                saved = status
                await self.run_source(action, self.exec_io or io, "trap")
                self.state.last_status = status = saved
        finally:
            await self._close_all(self.exec_closers, io)
        return status

    async def run_script(self, script: Script, io: CommandIO) -> int:
        status = self.state.last_status
        for item in script.items:
            status = await self.run_and_or(item, io)
        return status

    async def run_and_or(self, node: AndOr, io: CommandIO) -> int:
        steps = [("", node.first), *node.rest]
        status = self.state.last_status
        traced = self.traced and self.budget.depth == 0
        for position, (operator, pipeline) in enumerate(steps):
            relation = operator or (";" if self.record.steps else None)
            if (operator == "&&" and status != 0) or (operator == "||" and status == 0):
                if traced:
                    reason = "previous_failed" if operator == "&&" else "previous_succeeded"
                    self.record.steps.append(StepRecord(relation, False, skipped_reason=reason))
                continue
            if traced:
                self.record.steps.append(StepRecord(relation, True))
            last = position == len(steps) - 1
            self.condition_depth += 0 if last else 1
            try:
                status = await self.run_pipeline(pipeline, io)
            finally:
                self.condition_depth -= 0 if last else 1
            self.state.last_status = status
            if traced:
                self.record.steps[-1].status = status
            if last and status != 0 and not pipeline.negated:
                await self._err_trap(status, io)
                self._errexit(status)
        return status

    async def _err_trap(self, status: int, io: CommandIO) -> None:
        """`trap '...' ERR`: run where `set -e` would stop, outside functions; `$?` is the
        failed command's status in the action and after it."""
        action = self.state.err_trap
        if action is None or self.condition_depth or self.state.function_depth or self._in_err_trap:
            return
        self._in_err_trap = True
        try:
            await self.run_source(action, io, "trap")
        finally:
            self._in_err_trap = False
            self.state.last_status = status

    _in_err_trap = False

    def _errexit(self, status: int) -> None:
        if self.state.options.errexit and self.condition_depth == 0:
            raise ShellExit(status)

    # ------------------------------------------------------------ pipelines

    async def run_pipeline(self, pipeline: Pipeline, io: CommandIO) -> int:
        if pipeline.negated:
            self.condition_depth += 1
        try:
            if len(pipeline.commands) == 1:
                statuses = [await self.run_command(pipeline.commands[0], io)]
            else:
                statuses = await self._run_stages(pipeline, io)
        finally:
            if pipeline.negated:
                self.condition_depth -= 1
        self.state.set_array("PIPESTATUS", [str(s) for s in statuses])
        status = statuses[-1]
        if self.state.options.pipefail:
            status = next((s for s in reversed(statuses) if s != 0), 0)
        if pipeline.negated:
            status = 0 if status else 1
        return status

    async def _run_stages(self, pipeline: Pipeline, io: CommandIO) -> list[int]:
        count = len(pipeline.commands)
        pipes = [Pipe() for _ in range(count - 1)]
        failures: list[BaseException] = []
        deferred: list[BaseException] = []  # `exit`, `break`... of a last stage run in this shell

        async def stage(index: int) -> int:
            stdin = pipes[index - 1] if index else io.stdin
            stdout = pipes[index].writer() if index < count - 1 else io.stdout
            stderr = stdout if index < len(pipeline.pipe_stderr) and pipeline.pipe_stderr[index] else io.stderr
            stage_io = CommandIO(stdin, stdout, stderr, stdin_is_pipe=bool(index) or io.stdin_is_pipe)
            # `shopt -s lastpipe`: the last stage runs in this shell (`echo x | read v` sets v).
            in_shell = index == count - 1 and self.state.options.lastpipe
            runner = self if in_shell else self.child()
            runner.line = self.line
            try:
                return await runner.run_command(pipeline.commands[index], stage_io)
            except BrokenPipe:
                return SIGPIPE_STATUS
            except (ShellExit, LineAbandoned, LoopControl, FunctionReturn) as exit_:
                if in_shell:
                    deferred.append(exit_)
                return getattr(exit_, "status", 0) if isinstance(exit_, (ShellExit, LineAbandoned)) else 0
            except Exception as error:  # a limit, or a bug: end this stage, let the run report it
                failures.append(error)
                return 1
            finally:
                if index < count - 1:
                    await stdout.close()
                if index:
                    stdin.close()

        statuses = list(await asyncio.gather(*(stage(i) for i in range(count))))
        if failures:
            raise failures[0]
        if deferred:
            raise deferred[0]
        return statuses

    # ------------------------------------------------------------ commands

    async def run_command(self, node: "Command", io: CommandIO) -> int:
        # Each level of nesting costs Python frames; `enter` refuses one the stack cannot hold.
        self.budget.enter()
        pipes = len(self.vfs.pipes.files)  # `<(...)` files its words open live until it ends
        try:
            if isinstance(node, SimpleCommand):
                return await self.run_simple(node, io)
            if isinstance(node, FunctionDef):
                self.state.functions[node.name] = node
                return 0
            redirects = getattr(node, "redirects", ())
            if not redirects:
                return await self._run_compound(node, io)
            outer_descriptors = self.descriptors
            opened = await self._open_redirects(redirects, io, scoped=True)
            if opened is None:
                return 1
            inner_io, closers = opened
            try:
                return await self._run_compound(node, inner_io)
            finally:
                self.descriptors = outer_descriptors
                await self._close_all(closers, io)
        finally:
            self.budget.leave()
            if len(self.vfs.pipes.files) > pipes:
                await self._close_pipes(pipes, io)

    async def _run_compound(self, node: "Command", io: CommandIO) -> int:
        if isinstance(node, BraceGroup):
            return await self.run_script(node.body, io)
        if isinstance(node, Subshell):
            return await self.child().run(node.body, io)
        if isinstance(node, If):
            return await self._run_if(node, io)
        if isinstance(node, For):
            return await self._run_for(node, io)
        if isinstance(node, ArithFor):
            return await self._run_arith_for(node, io)
        if isinstance(node, While):
            return await self._run_while(node, io)
        if isinstance(node, Case):
            return await self._run_case(node, io)
        if isinstance(node, ArithCommand):
            return await self._guarded(io, self._arith_status(node.expression), "((")
        if isinstance(node, CondCommand):
            return await self._guarded(io, self._cond_status(node.expression), "[[")
        raise TypeError(f"unknown command node {type(node).__name__}")

    async def _guarded(self, io: CommandIO, work: Awaitable[int], keyword: str) -> int:
        """An evaluation that may fail: an arithmetic error in `((`, `for ((` or `[[` is
        reported as bash does (`((: 1/0: division by 0 ...`) with status 1, not fatal."""
        try:
            return await work
        except ArithError as error:
            await io.error(f"bash: line {self.line}: {keyword}: {error.message}")
            return 1
        except ShellError as error:
            return await self.report(io, error)

    async def _condition(self, script: Script, io: CommandIO) -> int:
        self.condition_depth += 1
        try:
            return await self.run_script(script, io)
        finally:
            self.condition_depth -= 1

    async def _run_if(self, node: If, io: CommandIO) -> int:
        for condition, body in node.clauses:
            if await self._condition(condition, io) == 0:
                return await self.run_script(body, io)
        if node.else_body is not None:
            return await self.run_script(node.else_body, io)
        return 0

    async def _loop_body(self, body: Script, io: CommandIO) -> tuple[int, str | None]:
        """Run one iteration; the second value is "break"/"continue" when the loop must act."""
        self.budget.iteration()
        await yield_now() if self.budget.iterations % 256 == 0 else None
        try:
            return await self.run_script(body, io), None
        except LoopControl as control:
            if control.levels > 1:
                control.levels -= 1
                raise
            return 0, control.kind

    async def _run_for(self, node: For, io: CommandIO) -> int:
        if node.words is None:
            items = list(self.state.positional)
        else:
            try:
                items = await self.expander.words(node.words)
            except ShellError as error:
                return await self.report(io, error)
        status = 0
        self.loop_depth += 1
        try:
            for item in items:
                self.state.set(node.variable, item)
                status, action = await self._loop_body(node.body, io)
                if action == "break":
                    break
        finally:
            self.loop_depth -= 1
        return status

    async def _run_arith_for(self, node: ArithFor, io: CommandIO) -> int:
        self.loop_depth += 1
        try:
            return await self._guarded(io, self._arith_loop(node, io), "((")
        finally:
            self.loop_depth -= 1

    async def _arith_loop(self, node: ArithFor, io: CommandIO) -> int:
        status = 0
        if node.init.parts:
            await self.expander.arithmetic(node.init)
        while not node.condition.parts or await self.expander.arithmetic(node.condition) != 0:
            status, action = await self._loop_body(node.body, io)
            if action == "break":
                break
            if node.step.parts:
                await self.expander.arithmetic(node.step)
        return status

    async def _run_while(self, node: While, io: CommandIO) -> int:
        status = 0
        self.loop_depth += 1
        try:
            while True:
                tested = await self._condition(node.condition, io)
                if (tested == 0) == node.until:
                    break
                status, action = await self._loop_body(node.body, io)
                if action == "break":
                    break
        finally:
            self.loop_depth -= 1
        return status

    async def _run_case(self, node: Case, io: CommandIO) -> int:
        try:
            subject = await self.expander.string(node.word)
        except ShellError as error:
            return await self.report(io, error)
        nocase = self.state.options.nocasematch
        status, falling = 0, False
        for item in node.items:
            matched = falling
            if not matched:
                for pattern in item.patterns:
                    if patterns.match(await self.expander.pattern(pattern), subject, nocase=nocase):
                        matched = True
                        break
            if not matched:
                continue
            status = await self.run_script(item.body, io)
            if item.terminator == ";;":
                return status
            falling = item.terminator == ";&"
        return status

    async def _arith_status(self, expression: Word) -> int:
        return 0 if await self.expander.arithmetic(expression) != 0 else 1

    # ------------------------------------------------------------ [[ ]]

    async def _cond_status(self, expression: CondExpr) -> int:
        return 0 if await conditional.evaluate(self, expression) else 1

    def is_set(self, name: str) -> bool:
        """`-v name` or `-v name[subscript]` (a key of an associative array, else arithmetic)."""
        base, bracket, subscript = name.partition("[")
        if not bracket or not subscript.endswith("]"):
            return self.state.get(name) is not None
        key = subscript[:-1]
        try:
            index = key if self.state.is_assoc(base) else arithmetic.evaluate(key, self.state)
        except ShellError:
            return False
        return self.state.get_element(base, index) is not None

    async def file_info(self, path: str):
        """What `test -f` and friends need to know about a path, or None."""
        if not path:
            return None
        try:
            info = await self.vfs.stat(path)
        except Exception:
            return None
        if not info.exists:
            return None
        return _FileInfo(info.is_dir, not info.is_dir, info.size, float(info.modified_epoch_ms))

    # ------------------------------------------------------------ simple commands

    async def run_simple(self, node: SimpleCommand, io: CommandIO) -> int:
        self.line = node.line
        if self.state.aliases:
            from .builtins.aliases import expansion
            text = expansion(self, node)
            if text is not None:  # `shopt -s expand_aliases`: the alias's text, then the rest
                return await self.run_source(text, io, "alias")
        self.budget.command()
        try:
            argv = await self._expand_command_words(node.words)
        except ShellError as error:
            return await self.report(io, error)
        if self.state.options.xtrace and argv:
            await io.error("+ " + " ".join(xtrace_word(arg) for arg in argv))
        if not argv:
            return await self._assign_only(node, io)
        opened = await self._open_redirects(node.redirects, io, persist=argv == ["exec"])
        if opened is None:
            return 1
        command_io, closers = opened
        if argv == ["exec"]:
            # `exec 2>/dev/null`: the redirections stay for the rest of this shell.
            self.exec_io = command_io
            self.exec_closers.extend(closers)
            return 0
        try:
            return await self._dispatch(node, argv, command_io)
        finally:
            self.state.last_argument = argv[-1]
            await self._close_all(closers, io)

    async def _expand_command_words(self, words: tuple[Word, ...]) -> list[str]:
        """The argv; after `local`, `export`, `declare`... a `NAME=value` argument is one
        word, not split or globbed (`local files=$(ls)` keeps the newlines)."""
        from .builtins import DECLARATIONS
        if not words:
            return []
        first = await self.expander.words(words[:1])
        if len(first) != 1 or first[0] not in DECLARATIONS:
            return first + await self.expander.words(words[1:])
        argv = list(first)
        for word in words[1:]:
            if _ARRAY_WORD.match(word.source):
                # `local files=(a "b c")`: the parser keeps it as written; read it again as an
                # array assignment and pass the builtin a marked word it assigns from.
                argv.append(ARRAY_MARK + word.source)
            elif _ASSIGNMENT_WORD.match(word.source):
                argv.append(await self.expander.string(word))
            else:
                argv.extend(await self.expander.words([word]))
        return argv

    async def _assign_only(self, node: SimpleCommand, io: CommandIO) -> int:
        """`X=1` alone sets shell variables; `> f` alone creates f. The status is that of the
        last command substitution, else 0."""
        self.substitution_status = None
        try:
            for assignment in node.assignments:
                await self.assign(assignment)
                if self.state.options.xtrace:  # `set -x` shows the value assigned
                    value = self.state.get(assignment.name) or ""
                    await io.error(f"+ {assignment.name}={xtrace_word(value)}")
        except ShellError as error:
            return await self.report(io, error)
        status = self.substitution_status if self.substitution_status is not None else 0
        opened = await self._open_redirects(node.redirects, io)
        if opened is None:
            return 1
        await self._close_all(opened[1], io)
        return status

    async def assign(self, assignment: Assignment, *, local: bool = False) -> None:
        state = self.state
        if isinstance(assignment.value, tuple):
            await self._assign_array(assignment, local)
            return
        value = await self.expander.string(assignment.value)
        variable = state.lookup(assignment.name)
        integer = variable is not None and variable.integer
        if assignment.index is not None:
            index = await self.expander.element_key(assignment.name, assignment.index)
            if assignment.append:
                value = _joined(state.get_element(assignment.name, index), value, integer, state)
            elif integer:
                value = str(arithmetic.evaluate(value, state))
            state.set_element(assignment.name, index, value)
            return
        if assignment.append:
            if variable is not None and variable.is_array:
                state.set_array(assignment.name, [value], append=True, local=local)
                return
            value = _joined(state.get(assignment.name), value, integer, state)
        elif integer:
            value = str(arithmetic.evaluate(value, state))
        state.set(assignment.name, value, local=local)

    async def _assign_array(self, assignment: Assignment, local: bool) -> None:
        """`a=(x y)`, `a=([3]=x y)`, `m=([key]=v ...)` or `m=(key v ...)` for an associative
        array; `+=` adds to what is there."""
        state, name = self.state, assignment.name
        elements = [_keyed_element(word) for word in assignment.value]
        if not any(key is not None for key, _ in elements) and not state.is_assoc(name):
            values = await self.expander.words(assignment.value)
            state.set_array(name, values, append=assignment.append, local=local)
            return
        pairs = []  # (key or None for "the next index", value), keys expanded in order
        for key, value in elements:
            if key is None:
                pairs.extend((None, text) for text in await self.expander.words([value]))
            else:
                subscript = await (self.expander.string(key) if state.is_assoc(name)
                                   else self.expander.subscript(key.source))
                pairs.append((subscript, await self.expander.string(value)))
        if not assignment.append:
            if state.is_assoc(name):
                state.make_assoc(name, local=local).value = Assoc(assigned=True)
            else:
                state.set_array(name, [], local=local)
        if state.is_assoc(name):
            _fill_assoc(state, name, pairs)
        else:
            variable = state.lookup(name)
            current = variable.value if variable is not None and isinstance(variable.value, dict) else {}
            following = max(current) + 1 if current else 0
            for key, value in pairs:
                index = following if key is None else key
                state.set_element(name, index, value)
                following = int(index) + 1

    async def _dispatch(self, node: SimpleCommand, argv: list[str], io: CommandIO) -> int:
        from .builtins import BUILTINS
        name = argv[0]
        function = self.state.functions.get(name)
        builtin = BUILTINS.get(name) if function is None and not self._host_replaced(name) else None
        counted = None
        if function is not None:
            work = self.call_function(function, argv[1:], io)
        elif builtin is not None:
            counted = CommandIO(CountingReader(io.stdin), CountingWriter(io.stdout), io.stderr, io.stdin_is_pipe)
            work = builtin(self, argv[1:], counted)
        else:
            work = self.run_registered(argv, io)
        # Awaited directly when there is no prefix: one Python frame less a level of nesting.
        status = await (self._with_prefix(node, io, work, name in _SPECIAL_BUILTINS) if node.assignments
                        else work)
        if counted is not None:
            self.record.add(argv, status, counted.stdin.count, counted.stdout.count)
        return status

    def _host_replaced(self, name: str) -> bool:
        """A host that registers its own `echo` (or `test`...) means it: its command wins
        over the shell's builtin of that name. The project's own commands never do."""
        spec = self.ctx.registry.get(name)
        return spec is not None and spec.group not in PROJECT_GROUPS

    async def _with_prefix(self, node: SimpleCommand, io: CommandIO, work: Awaitable[int],
                           persist: bool) -> int:
        """`X=1 cmd`: the assignments hold for this command only (special builtins keep them).
        `work` is the command's coroutine, not started yet."""
        saved = {a.name: self.state.save(a.name) for a in node.assignments}
        try:
            for assignment in node.assignments:
                await self.assign(assignment)
                self.state.lookup(assignment.name).exported = True
        except ShellError as error:
            work.close()  # never started: nothing to undo
            return await self.report(io, error)
        try:
            return await work
        finally:
            if not persist:
                for name, variable in saved.items():
                    self.state.restore(name, variable)

    async def call_function(self, function: FunctionDef, args: list[str], io: CommandIO) -> int:
        state = self.state
        if state.function_depth >= self.limits.max_function_depth:
            raise LimitExceeded(f"{function.name}: functions nested more than {self.limits.max_function_depth} "
                                "levels deep (maximum function depth); a recursion probably never ends.")
        saved_positional = state.positional
        state.positional = list(args)
        state.scopes.append({"FUNCNAME": Variable(dict(enumerate(reversed([*state.call_stack, function.name]))))})
        state.call_stack.append(function.name)
        state.function_depth += 1
        try:
            return await self.run_command(function.body, io)
        except FunctionReturn as returned:
            return returned.status
        finally:
            state.function_depth -= 1
            state.call_stack.pop()
            state.scopes.pop()
            state.positional = saved_positional

    async def run_registered(self, argv: list[str], io: CommandIO) -> int:
        """A command of the registry: behind the policy gate, streaming when it can."""
        from ..commands.naming import closest_names
        spec = self.ctx.registry.get(argv[0])
        if spec is None and "/" in argv[0]:
            from .builtins.scripts import run_script_file
            return await run_script_file(self, argv, io)
        if spec is None:
            hint = closest_names(argv[0], self.ctx.registry.names())
            message = f"bash: line {self.line}: {argv[0]}: command not found"
            if hint:
                message += f" (did you mean: {', '.join(hint)}?)"
            await io.error(message)
            self.record.add(argv, 127)
            return 127
        ctx = dataclasses.replace(self.ctx, vfs=self.vfs, environment=self.state.exported(),
                                  stdin_is_pipe=io.stdin_is_pipe, run_argv=self.run_argv,
                                  cancelled=self.budget.stopped)
        args = await self.gate(spec, argv[1:], ctx)
        if isinstance(args, CommandResult):
            await io.error(args.stderr)
            self.record.add(argv, args.exit_code, stderr=args.stderr)
            return args.exit_code
        stdin, stdout, stderr = CountingReader(io.stdin), CountingWriter(io.stdout), CountingWriter(io.stderr, 4096)
        entry = self.record.add(argv, 0)  # its place in the trace is where it started
        started = time.perf_counter()
        status = await self._invoke(spec, ctx, args, CommandIO(stdin, stdout, stderr, io.stdin_is_pipe))
        if self.budget.stopped():
            self.budget.check_time()  # the command gave up because the run must end: say why
        if entry is not None:
            entry.status, entry.stdin_bytes, entry.stdout_bytes = status, stdin.count, stdout.count
            entry.duration_ms = round((time.perf_counter() - started) * 1000)
            entry.stderr = stderr.kept.decode("utf-8", "replace").rstrip("\n")
        return status

    async def run_argv(self, argv: list[str], stdin: bytes, timeout_seconds: float | None = None) -> CommandResult:
        """A command run by another command (`xargs`, `find -exec`, `timeout`): a registered
        command, or a builtin that systems also ship as a program (`echo`, `test`, `sh -c ...`),
        with the policy gate and the run's limits; its output is collected. With
        `timeout_seconds`, the command is stopped when they pass (every loop and long command
        polls the budget) and the result is what it wrote so far, with status 124."""
        from .builtins import BUILTINS
        from .builtins.lookup import ALSO_PROGRAMS
        self.budget.command()
        stdout = BufferWriter(self.limits.max_expansion_bytes, "the output of a command run by another")
        stderr = BufferWriter(1 << 20, "the error output of a command run by another")
        io = CommandIO(BytesReader(stdin), stdout, stderr, stdin_is_pipe=True)
        name = argv[0] if argv else ""
        runnable = name in ALSO_PROGRAMS or name in ("sh", "bash")
        limit = time.monotonic() + timeout_seconds if timeout_seconds is not None else None
        if limit is not None:
            self.budget.time_limits.append(limit)
        try:
            if runnable and not self._host_replaced(name):
                status = await BUILTINS[name](self, argv[1:], io)
            else:
                status = await self.run_registered(argv, io)
            if limit is not None and time.monotonic() > limit:
                status = TIMED_OUT_STATUS  # it gave up because its time ran out
        except TimedOut as stop:
            if stop.deadline != limit:
                raise  # an outer timeout's: let it unwind to its own command
            status = TIMED_OUT_STATUS
        finally:
            if limit is not None:
                self.budget.time_limits.remove(limit)
        return CommandResult(bytes(stdout.data), stderr.data.decode("utf-8", "replace").rstrip("\n"), status)

    async def _invoke(self, spec: CommandSpec, ctx: CommandContext, args: list[str], io: CommandIO) -> int:
        try:
            if spec.stream is not None:
                return await spec.stream(ctx, args, io)
            stdin = b""
            # A command that reads no stdin leaves a pipe's data unread, as a program would;
            # it is not an error (`echo x | (mkdir d)`).
            if io.stdin_is_pipe and spec.accepts_stdin is not False:
                try:
                    stdin = await io.stdin.read_all(ctx.max_materialized_bytes or self.limits.max_output_bytes)
                except StreamLimit as error:
                    await io.error(f"{spec.name}: {error}; narrow the input first (grep, head)")
                    return 1
            result = await invoke_command(spec, ctx, args, stdin)
        except (BrokenPipe, LimitExceeded, StreamLimit, asyncio.CancelledError):
            raise
        except Exception as error:  # a crashing command fails its own stage, never the run
            await io.error(f"{spec.name}: internal runtime error: {str(error) or type(error).__name__}")
            return 1
        if result.content_type != "text/plain":
            self.record.content_type = result.content_type
        await io.stdout.write(result.stdout)
        if result.stderr:
            await io.error(result.stderr)
        return result.exit_code

    # ------------------------------------------------------------ redirections

    async def _open_redirects(self, redirects, io: CommandIO, persist: bool = False, scoped: bool = False):
        if not redirects:
            return io, []
        try:
            return await open_redirects(self, redirects, io, persist=persist, scoped=scoped)
        except ShellError as error:
            await self.report(io, error)
            return None

    async def _close_all(self, closers, io: CommandIO) -> None:
        for closer in closers:
            try:
                await closer.close()
            except ShellError as error:
                await self.report(io, error)

    # ------------------------------------------------------------ substitution, sources, errors

    async def _substitute(self, node: CommandSub) -> str:
        """`$(...)`: run in a subshell, capture stdout; `$?` becomes its status."""
        output = BufferWriter(self.limits.max_expansion_bytes, "command substitution output")
        child = self.child()
        child.line = self.line
        io = CommandIO(EmptyReader(), output, self.stderr, stdin_is_pipe=False)
        try:
            status = await child.run(node.script, io)
        except StreamLimit as error:
            raise ShellError(str(error), fatal=True)
        self.state.last_status = self.substitution_status = status
        return output.data.decode("utf-8", "surrogateescape")

    async def _process_substitute(self, node: ProcessSub) -> str:
        """`<(...)` runs now, in a subshell; what it printed is the content of the path it
        becomes (/dev/fd/63, 62...) while the command runs. `>(...)` is a path to write to;
        its script reads what was written once the command has ended (`_close_pipes`).
        Neither changes `$?`."""
        if self.vfs.pipes.mark() >= MAX_PROCESS_SUBSTITUTIONS:
            raise ShellError(f"more than {MAX_PROCESS_SUBSTITUTIONS} process substitutions open at once", fatal=True)
        if node.direction == ">":
            return self.vfs.pipes.open(None, node.script).path
        output = BufferWriter(self.limits.max_expansion_bytes, "process substitution output")
        child = self.child()
        child.line = self.line
        try:
            await child.run(node.script, CommandIO(EmptyReader(), output, self.stderr, stdin_is_pipe=False))
        except StreamLimit as error:
            raise ShellError(str(error), fatal=True)
        return self.vfs.pipes.open(bytes(output.data)).path

    async def _close_pipes(self, mark: int, io: CommandIO) -> None:
        """Close the `<(...)`/`>(...)` files opened since `mark`: each `>(...)` script now reads
        what the command wrote to it, its output going where the command's would have gone
        without its redirections (as in bash, where it inherits the shell's stdout)."""
        for pipe in self.vfs.pipes.close_from(mark):
            if pipe.script is None:
                continue
            child = self.child()
            child.line = self.line
            try:
                await child.run(pipe.script, CommandIO(BytesReader(bytes(pipe.written)), io.stdout, self.stderr,
                                                       stdin_is_pipe=True))
            except StreamLimit as error:
                raise ShellError(str(error), fatal=True)

    # Where `$(...)` writes its stderr: the run's stderr (set by the runtime).
    stderr: Writer = NullWriter()

    async def run_source(self, source: str, io: CommandIO, name: str) -> int:
        """`source`, `.` and `eval`: parse and run in this shell."""
        from .parser import parse_until_error
        if self.source_depth >= self.limits.max_source_depth:
            raise LimitExceeded(f"{name}: source/eval nested more than {self.limits.max_source_depth} levels")
        script, error = parse_until_error(source)
        self.source_depth += 1
        saved_line = self.line
        try:
            status = await self.run_script(script, io)
        finally:
            self.source_depth -= 1
            self.line = saved_line
        if error is not None:
            await io.error(f"bash: {name}: line {error.line}: {error.message}")
            return 2
        return status

    async def report(self, io: CommandIO, error: ShellError) -> int:
        """Print a shell error as bash does; a fatal one ends the script."""
        await io.error(f"bash: line {self.line}: {error.message}" if error.with_line else f"bash: {error.message}")
        if isinstance(error, (ArithError, LineError)):
            raise LineAbandoned(error.status)
        if error.fatal and error.status == 127 and self.state.script_file:
            raise ShellExit(1)
        if error.fatal:
            raise ShellExit(error.status)
        return error.status


@dataclasses.dataclass(frozen=True)
class _FileInfo:
    is_dir: bool
    is_file: bool
    size: int
    mtime_ms: float


_ASSIGNMENT_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")
_ARRAY_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=\(")

# The groups of the project's own commands (a host's commands are "custom" or its own).
PROJECT_GROUPS = {"system", "fs", "text", "data", "adapters", "api"}

# Builtins whose prefix assignments stay (POSIX special builtins).
_SPECIAL_BUILTINS = {":", ".", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift",
                     "source", "unset"}


def _first_line(item: AndOr) -> int:
    """The line an and-or list starts on: that of its first simple command (0 if none)."""
    node = item.first.commands[0]
    for _ in range(1000):
        if isinstance(node, SimpleCommand):
            return node.line
        body = getattr(node, "body", None) or getattr(node, "condition", None)
        if isinstance(node, If):
            body = node.clauses[0][0]
        if isinstance(body, Script) and body.items:
            node = body.items[0].first.commands[0]
        elif body is not None and not isinstance(body, Script):
            node = body
        else:
            return 0
    return 0




def _keyed_element(word: Word) -> tuple[Word | None, Word]:
    """An array literal's element: `[key]=value` -> (key, value) as words, else (None, word).
    The key ends at the first `]=` of unquoted text; quotes and `$` forms may be in it. The
    key word's source is its text as written (an indexed array evaluates it as arithmetic)."""
    parts = word.parts
    if not parts or not isinstance(parts[0], Literal) or not parts[0].text.startswith("["):
        return None, word
    for position, part in enumerate(parts):
        if not isinstance(part, Literal):
            continue
        cut = part.text.find("]=", 1 if position == 0 else 0)
        if cut < 0:
            continue
        key_parts = parts[:position] + (Literal(part.text[:cut]),)
        key_parts = (Literal(key_parts[0].text[1:]),) + key_parts[1:]  # without the `[`
        value_parts = (Literal(part.text[cut + 2:]),) + parts[position + 1:]
        written = word.source[1:word.source.find("]=")] if "]=" in word.source else ""
        return Word(_nonempty(key_parts), written), Word(_nonempty(value_parts))
    return None, word


def _nonempty(parts: tuple) -> tuple:
    return tuple(part for part in parts if not (isinstance(part, Literal) and not part.text))


def _fill_assoc(state: ShellState, name: str, pairs: list[tuple[int | str | None, str]]) -> None:
    """An associative array literal: `[key]=value` pairs, or (bash 5.1) key value key value."""
    loose: list[str] = []
    for key, value in pairs:
        if key is None:
            loose.append(value)
        else:
            state.set_element(name, str(key), value)
    for position in range(0, len(loose), 2):
        state.set_element(name, loose[position], loose[position + 1] if position + 1 < len(loose) else "")


def _joined(old: str | None, value: str, integer: bool, state: ShellState) -> str:
    """`+=`: concatenation, or addition for a `declare -i` variable."""
    if integer:
        return str(arithmetic.evaluate(old or "0", state) + arithmetic.evaluate(value, state))
    return (old or "") + value
