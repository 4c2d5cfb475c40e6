"""A program tree -> Python source, compiled once and run by interpreter.Runtime.

Every awk function, BEGIN, END and the main rules become `async def`s (getline, system and
output may wait on the host). Names never collide with Python's: awk globals are module
globals `v_<name>` (arrays `A_<name>`, dicts that are never rebound), parameters are
locals `p_<name>`, functions `f_<name>`, regex literals `R<n>`. Expressions become Python
expressions, so an awk value is computed at Python speed; assignments inside expressions
use `:=` (scalars) or helpers that return the value (array elements, fields).
"""
from __future__ import annotations

from .builtins import AwkError
from .parser import Function, Program

SPECIALS = ("FS", "OFS", "ORS", "RS", "NR", "FNR", "FILENAME", "SUBSEP", "RSTART", "RLENGTH", "CONVFMT",
            "OFMT")
SPECIAL_ARRAYS = ("ENVIRON", "ARGV")
_CMP = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
_ARITH = {"+": "+", "-": "-", "*": "*"}
_COMPOUND = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "^=": "^"}
_BUILTIN_ARITY = {"length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 3), "sub": (2, 3),
                  "gsub": (2, 3), "match": (2, 2), "sprintf": (1, 10 ** 6), "tolower": (1, 1),
                  "toupper": (1, 1), "int": (1, 1), "sqrt": (1, 1), "exp": (1, 1), "log": (1, 1),
                  "sin": (1, 1), "cos": (1, 1), "atan2": (2, 2), "rand": (0, 0), "srand": (0, 1),
                  "system": (1, 1), "close": (1, 1), "fflush": (0, 1)}


def _fatal(message: str) -> AwkError:
    """An error found while compiling (gawk reports these before running: status 1)."""
    return AwkError(f"awk: cmd. line:1: error: {message}", 1)


_error = _fatal


def _fatal2(message: str) -> AwkError:
    """A compile-time error gawk words as fatal (status 2): names used as the wrong kind,
    functions never defined."""
    return AwkError(f"awk: cmd. line:1: fatal: {message}", 2)


def _children(node: object):
    if isinstance(node, (tuple, list)):
        for item in node:
            if isinstance(item, (tuple, list)):
                yield item


def _walk(root: object):
    """Every tuple node under root (lists are walked through), without recursion."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple) and node and isinstance(node[0], str):
            yield node
        stack.extend(_children(node))


_EFFECTS = frozenset({"assign", "preinc", "postinc", "call", "getline"})
_EFFECT_BUILTINS = frozenset({"sub", "gsub", "split", "match", "system", "close", "srand", "fflush"})


def _pure(node: tuple) -> bool:
    """True when evaluating node changes no variable (so evaluation order cannot matter)."""
    for item in _walk(node):
        if item[0] in _EFFECTS or (item[0] == "builtin" and item[1] in _EFFECT_BUILTINS):
            return False
    return True


class Analysis:
    """Which names are arrays (globally and per function), found before generating code."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.global_arrays: set[str] = set(SPECIAL_ARRAYS)
        self.local_arrays: dict[str, set[str]] = {name: set() for name in program.functions}
        self.globals: set[str] = set(SPECIALS)
        for name, fn in program.functions.items():
            if name in SPECIALS or name in SPECIAL_ARRAYS or name == "NF":
                raise _fatal(f"function name `{name}' previously defined")
        self._run()

    def _bodies(self):
        prog = self.program
        for block in prog.begin + prog.end:
            yield None, block
        for rule in prog.rules:
            yield None, rule
        for name, fn in prog.functions.items():
            yield fn, fn.body

    def _mark(self, fn: Function | None, name: str) -> bool:
        if fn is not None and name in fn.params:
            target = self.local_arrays[fn.name]
        else:
            target = self.global_arrays
        if name in target:
            return False
        target.add(name)
        return True

    def is_array(self, fn: Function | None, name: str) -> bool:
        if fn is not None and name in fn.params:
            return name in self.local_arrays[fn.name]
        return name in self.global_arrays

    def _run(self) -> None:
        changed = True
        while changed:
            changed = False
            for fn, body in self._bodies():
                for node in _walk(body):
                    kind = node[0]
                    if kind == "index" or kind == "delete":
                        changed |= self._mark(fn, node[1])
                    elif kind == "in":
                        changed |= self._mark(fn, node[2])
                    elif kind == "forin":
                        changed |= self._mark(fn, node[2])
                    elif kind == "builtin" and node[1] == "split" and len(node[2]) >= 2 and node[2][1][0] == "var":
                        changed |= self._mark(fn, node[2][1][1])
                    elif kind == "call":
                        callee = self.program.functions.get(node[1])
                        if callee is None:
                            continue
                        for param, arg in zip(callee.params, node[2]):
                            if arg[0] == "var":
                                if param in self.local_arrays[callee.name]:
                                    changed |= self._mark(fn, arg[1])
                                elif self.is_array(fn, arg[1]):
                                    if param not in self.local_arrays[callee.name]:
                                        self.local_arrays[callee.name].add(param)
                                        changed = True
                    elif kind in ("var", "forin") and (fn is None or node[1] not in fn.params):
                        self.globals.add(node[1])
        for fn, body in self._bodies():
            for node in _walk(body):
                if node[0] == "var" and (fn is None or node[1] not in fn.params):
                    self.globals.add(node[1])
                elif node[0] == "forin" and (fn is None or node[1] not in fn.params):
                    self.globals.add(node[1])
        self.globals.discard("NF")
        for name in self.program.functions:
            if name in self.globals or name in self.global_arrays:
                raise _fatal(f"function `{name}' called with space between name and `(', or used as a variable or an array")


class Generator:
    def __init__(self, program: Program) -> None:
        self.program = program
        self.info = Analysis(program)
        self.lines: list[str] = []
        self.regexes: list[str] = []
        self.temp = 0
        self.fn: Function | None = None
        self.loop_depth = 0
        self.where = "function"
        self.sync = False  # generating a main_rules that never waits

    # -- output helpers --------------------------------------------------------------
    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def tmp(self) -> str:
        self.temp += 1
        return f"_t{self.temp}"

    def regex_name(self, source: str) -> str:
        self.regexes.append(source)
        return f"R{len(self.regexes) - 1}"

    # -- names ---------------------------------------------------------------------
    def is_local(self, name: str) -> bool:
        return self.fn is not None and name in self.fn.params

    def array(self, name: str) -> str:
        if self.is_local(name):
            return "p_" + name
        if name not in self.info.global_arrays:
            raise _fatal2(f"attempt to use scalar `{name}' as an array")
        return "A_" + name

    def scalar(self, name: str) -> str:
        if self.is_local(name):
            if name in self.info.local_arrays[self.fn.name]:  # type: ignore[union-attr]
                raise _fatal2(f"attempt to use array `{name}' in a scalar context")
            return "p_" + name
        if name in self.info.global_arrays:
            raise _fatal2(f"attempt to use array `{name}' in a scalar context")
        if name == "NF":
            return "rt.get_nf()"
        return "v_" + name

    # -- program ---------------------------------------------------------------------
    def generate(self) -> str:
        prog = self.program
        header = "global " + ", ".join("v_" + name for name in sorted(self.info.globals))
        for fn in prog.functions.values():
            self.function(fn, header)
        self.section("begin_rules", prog.begin, header)
        self.section("end_rules", prog.end, header)
        self.main_rules(header)
        return "\n".join(self.lines) + "\n"

    def section(self, name: str, blocks: list, header: str) -> None:
        self.fn = None
        self.where = "BEGIN" if name == "begin_rules" else "END"
        self.emit(0, f"async def {name}(rt):")
        self.emit(1, header)
        for block in blocks:
            self.statement(block, 1)
        self.emit(1, "pass")

    def main_rules(self, header: str) -> None:
        # First as a plain function (print only buffers; the main loop flushes after the
        # record): calling it costs less than a coroutine. If its code waits anyway
        # (getline, system, loops, functions, redirections), again as an `async def`.
        start, regexes = len(self.lines), len(self.regexes)
        self.sync = True
        self._main_rules(header, "def")
        self.sync = False
        if any("await" in line for line in self.lines[start:]):
            del self.lines[start:]
            del self.regexes[regexes:]
            self._main_rules(header, "async def")

    def _main_rules(self, header: str, kind: str) -> None:
        self.fn = None
        self.where = "main"
        self.emit(0, f"{kind} main_rules(rt):")
        self.emit(1, header)
        for number, (pattern, pattern2, body) in enumerate(self.program.rules):
            if pattern is None:
                self.action(body, 1)
            elif pattern2 is None:
                self.emit(1, f"if truth({self.expr(pattern)}):")
                self.action(body, 2)
            else:
                self.emit(1, f"if rt.ranges[{number}] or truth({self.expr(pattern)}):")
                self.emit(2, f"rt.ranges[{number}] = not truth({self.expr(pattern2)})")
                self.action(body, 2)
        self.emit(1, "pass")

    def action(self, body: tuple | None, indent: int) -> None:
        if body is None:
            self.output("rt.get0() + tos(v_ORS)", None, None, indent)
        else:
            self.statement(body, indent)

    def function(self, fn: Function, header: str) -> None:
        self.fn = fn
        params = "".join(f", p_{name}=UNINIT" for name in fn.params)
        self.emit(0, f"async def f_{fn.name}(rt{params}):")
        self.emit(1, header)
        for name in fn.params:
            if name in self.info.local_arrays[fn.name]:
                self.emit(1, f"if p_{name} is UNINIT: p_{name} = {{}}")
        self.emit(1, "rt.depth += 1")
        self.emit(1, "if rt.depth > rt.max_depth: rt.too_deep()")
        self.emit(1, "try:")
        self.statement(fn.body, 2)
        self.emit(2, "return UNINIT")
        self.emit(1, "finally:")
        self.emit(2, "rt.depth -= 1")
        self.fn = None

    # -- statements -------------------------------------------------------------------
    def statement(self, node: tuple, indent: int) -> None:
        kind = node[0]
        getattr(self, "st_" + kind)(node, indent)

    def st_block(self, node: tuple, indent: int) -> None:
        for item in node[1]:
            self.statement(item, indent)
        if not node[1]:
            self.emit(indent, "pass")

    def st_expr(self, node: tuple, indent: int) -> None:
        expr = node[1]
        if expr[0] == "assign" and expr[1] == "=" and expr[2][0] == "var":
            target = self.scalar(expr[2][1])
            if not target.startswith("rt."):
                self.emit(indent, f"{target} = {self.expr(expr[3])}")
                return
        self.emit(indent, self.expr(expr))

    def st_print(self, node: tuple, indent: int) -> None:
        _, args, redirect, target = node
        if not args:
            text = "rt.get0()"
        elif len(args) == 1:
            text = f"outs({self.expr(args[0])})"
        else:
            text = f"tos(v_OFS).join(({', '.join('outs(' + self.expr(a) + ')' for a in args)},))"
        self.output(f"{text} + tos(v_ORS)", redirect, target, indent)

    def st_printf(self, node: tuple, indent: int) -> None:
        _, args, redirect, target = node
        rest = ", ".join(self.expr(a) for a in args[1:])
        text = f"rt.format(tos({self.expr(args[0])}), [{rest}])"
        self.output(text, redirect, target, indent)

    def output(self, text: str, redirect: str | None, target: tuple | None, indent: int) -> None:
        if redirect is None and self.sync:
            self.emit(indent, f"rt.put({text})")
        elif redirect is None:
            self.emit(indent, f"if rt.put({text}): await rt.flush()")
        else:
            self.emit(indent, f"await rt.put_to({redirect!r}, tos({self.expr(target)}), {text})")  # type: ignore[arg-type]

    def st_if(self, node: tuple, indent: int) -> None:
        _, cond, then, other = node
        self.emit(indent, f"if truth({self.expr(cond)}):")
        self.statement(then, indent + 1)
        if other is not None:
            self.emit(indent, "else:")
            self.statement(other, indent + 1)

    def tick(self, indent: int) -> None:
        self.emit(indent, "rt.steps -= 1")
        self.emit(indent, "if rt.steps < 0: await rt.check()")

    def st_while(self, node: tuple, indent: int) -> None:
        self.emit(indent, f"while truth({self.expr(node[1])}):")
        self.tick(indent + 1)
        self.loop(node[2], indent + 1)

    def loop(self, body: tuple, indent: int) -> None:
        self.loop_depth += 1
        self.statement(body, indent)
        self.loop_depth -= 1

    def st_do(self, node: tuple, indent: int) -> None:
        first = self.tmp()
        self.emit(indent, f"{first} = True")
        self.emit(indent, f"while {first} or truth({self.expr(node[2])}):")
        self.emit(indent + 1, f"{first} = False")
        self.tick(indent + 1)
        self.loop(node[1], indent + 1)

    def st_for(self, node: tuple, indent: int) -> None:
        _, init, cond, incr, body = node
        if init is not None:
            self.statement(init, indent)
        again = self.tmp()
        self.emit(indent, f"{again} = False")
        self.emit(indent, "while True:")
        if incr is not None:
            self.emit(indent + 1, f"if {again}:")
            self.statement(incr, indent + 2)
            self.emit(indent + 1, f"{again} = True")
        if cond is not None:
            self.emit(indent + 1, f"if not truth({self.expr(cond)}): break")
        self.tick(indent + 1)
        self.loop(body, indent + 1)

    def st_forin(self, node: tuple, indent: int) -> None:
        _, var, array, body = node
        target = self.scalar(var)
        key = self.tmp()
        self.emit(indent, f"for {key} in list({self.array(array)}):")
        if target.startswith("rt."):
            self.emit(indent + 1, f"rt.set_nf(strnum({key}))")
        else:
            self.emit(indent + 1, f"{target} = strnum({key})")
        self.tick(indent + 1)
        self.loop(body, indent + 1)

    def st_next(self, node: tuple, indent: int) -> None:
        if self.where in ("BEGIN", "END"):
            raise _error(f"`next' used in {self.where} action")
        self.emit(indent, "raise NextRecord()")

    def st_nextfile(self, node: tuple, indent: int) -> None:
        if self.where in ("BEGIN", "END"):
            raise _error(f"`nextfile' used in {self.where} action")
        self.emit(indent, "raise NextFile()")

    def st_exit(self, node: tuple, indent: int) -> None:
        value = "None" if node[1] is None else self.expr(node[1])
        self.emit(indent, f"raise AwkExit({value})")

    def st_return(self, node: tuple, indent: int) -> None:
        if self.fn is None:
            raise _fatal("`return' used outside function context")
        self.emit(indent, "return " + ("UNINIT" if node[1] is None else self.expr(node[1])))

    def st_break(self, node: tuple, indent: int) -> None:
        if not self.loop_depth:
            raise _fatal("`break' is not allowed outside a loop")
        self.emit(indent, "break")

    def st_continue(self, node: tuple, indent: int) -> None:
        if not self.loop_depth:
            raise _fatal("`continue' is not allowed outside a loop")
        self.emit(indent, "continue")

    def st_delete(self, node: tuple, indent: int) -> None:
        _, name, subs = node
        array = self.array(name)
        if subs is None:
            self.emit(indent, f"{array}.clear()")
        else:
            self.emit(indent, f"{array}.pop({self.key(subs)}, None)")

    # -- expressions --------------------------------------------------------------------
    def expr(self, node: tuple) -> str:
        return getattr(self, "ex_" + node[0])(node)

    def number(self, node: tuple) -> str:
        """Code for the numeric value of node (skips num() when it is already a number)."""
        if node[0] == "num":
            return self.ex_num(node)
        if node[0] in ("binop", "preinc") or (node[0] == "unary" and node[1] != "!"):
            return self.expr(node)
        return f"num({self.expr(node)})"

    def string(self, node: tuple) -> str:
        if node[0] == "str":
            return repr(node[1])
        return f"tos({self.expr(node)})"

    def ex_num(self, node: tuple) -> str:
        value = node[1]
        if value != value or value in (float("inf"), float("-inf")):
            return f"float({str(value)!r})"
        return repr(value)

    def ex_str(self, node: tuple) -> str:
        return repr(node[1])

    def ex_re(self, node: tuple) -> str:
        return f"(1.0 if rt.test({self.regex_name(node[1])}, rt.get0()) else 0.0)"

    def ex_group(self, node: tuple) -> str:
        return self.expr(node[1])

    def ex_grouplist(self, node: tuple) -> str:
        raise _fatal("a parenthesized list (a, b) needs `in' after it")

    def ex_var(self, node: tuple) -> str:
        if self.is_local(node[1]) and node[1] in self.info.local_arrays[self.fn.name]:  # type: ignore[union-attr]
            raise _fatal2(f"attempt to use array `{node[1]}' in a scalar context")
        return self.scalar(node[1])

    def key(self, subs: list) -> str:
        if len(subs) == 1:
            return f"key({self.expr(subs[0])})"
        return f"tos(v_SUBSEP).join(({', '.join('key(' + self.expr(s) + ')' for s in subs)},))"

    def ex_index(self, node: tuple) -> str:
        return f"aget({self.array(node[1])}, {self.key(node[2])})"

    def ex_field(self, node: tuple) -> str:
        index = node[1]
        if index[0] == "num":
            return f"rt.field({int(index[1])})" if index[1] else "rt.get0()"
        return f"rt.field(num({self.expr(index)}))"

    def assign(self, target: tuple, value: str) -> str:
        """Code that stores `value` into the lvalue and evaluates to it."""
        kind = target[0]
        if kind == "var":
            name = self.scalar(target[1])
            if name.startswith("rt."):
                return f"rt.set_nf({value})"
            return f"({name} := {value})"
        # The value first, then the subscript or field number, as gawk evaluates them.
        if kind == "index":
            return f"aset_v({value}, {self.array(target[1])}, {self.key(target[2])})"
        return f"rt.set_field_v({value}, num({self.expr(target[1])}))"

    def ex_assign(self, node: tuple) -> str:
        _, op, target, value = node
        if op == "=":
            return self.assign(target, self.expr(value))
        sym = _COMPOUND[op]
        if target[0] == "index":
            return f"aupdate({self.number(value)}, {self.array(target[1])}, {self.key(target[2])}, {sym!r})"
        if target[0] == "field":
            return f"rt.update_field({self.number(value)}, num({self.expr(target[1])}), {sym!r})"
        if not _pure(value):
            # The value first (it may change the variable), then the variable's old value.
            name = self.scalar(target[1])
            if name.startswith("rt."):
                return f"rt.set_nf(rarith({sym!r}, {self.number(value)}, rt.get_nf()))"
            return f"({name} := rarith({sym!r}, {self.number(value)}, num({name})))"
        return self.update(target, lambda old: self.arith(sym, old, self.number(value)))

    def arith(self, sym: str, left: str, right: str) -> str:
        if sym in _ARITH:
            return f"({left} {sym} {right})"
        name = {"/": "div", "%": "mod", "^": "power"}[sym]
        return f"{name}({left}, {right})"

    def update(self, target: tuple, make) -> str:
        """Read-modify-write of an lvalue; `make(old_numeric_code)` builds the new value."""
        kind = target[0]
        if kind == "var":
            name = self.scalar(target[1])
            if name.startswith("rt."):
                return f"rt.set_nf({make('rt.get_nf()')})"
            return f"({name} := {make('num(' + name + ')')})"
        if kind == "index":
            array, key = self.tmp(), self.tmp()
            return (f"aset(({array} := {self.array(target[1])}), ({key} := {self.key(target[2])}), "
                    f"{make(f'num(aget({array}, {key}))')})")
        index = self.tmp()
        return f"rt.set_field(({index} := num({self.expr(target[1])})), {make(f'num(rt.field({index}))')})"

    def ex_preinc(self, node: tuple) -> str:
        sym = "+" if node[1] == "++" else "-"
        return self.update(node[2], lambda old: f"({old} {sym} 1.0)")

    def ex_postinc(self, node: tuple) -> str:
        sym = "+" if node[1] == "++" else "-"
        old = self.tmp()
        return f"({self.update(node[2], lambda code: f'(({old} := {code}) {sym} 1.0)')}, {old})[1]"

    def ex_cond(self, node: tuple) -> str:
        return f"({self.expr(node[2])} if truth({self.expr(node[1])}) else {self.expr(node[3])})"

    def ex_or(self, node: tuple) -> str:
        return f"(1.0 if truth({self.expr(node[1])}) or truth({self.expr(node[2])}) else 0.0)"

    def ex_and(self, node: tuple) -> str:
        return f"(1.0 if truth({self.expr(node[1])}) and truth({self.expr(node[2])}) else 0.0)"

    def ex_in(self, node: tuple) -> str:
        return f"(1.0 if {self.key(node[1])} in {self.array(node[2])} else 0.0)"

    def regex(self, node: tuple) -> str:
        if node[0] == "re":
            return self.regex_name(node[1])
        if node[0] == "group" and node[1][0] == "re":
            return self.regex_name(node[1][1])
        return f"rt.dynamic({self.string(node)})"

    def ex_match(self, node: tuple) -> str:
        _, negate, left, right = node
        test = f"rt.matches({self.string(left)}, {self.regex(right)})"  # left operand first
        return f"(0.0 if {test} else 1.0)" if negate else f"(1.0 if {test} else 0.0)"

    def ex_cmp(self, node: tuple) -> str:
        return f"{_CMP[node[1]]}({self.expr(node[2])}, {self.expr(node[3])})"

    def ex_concat(self, node: tuple) -> str:
        parts = []
        while node[0] == "concat":
            parts.append(node[2])
            node = node[1]
        parts.append(node)
        parts.reverse()
        return f"concat(({', '.join(self.string(p) for p in parts)},))"

    def ex_binop(self, node: tuple) -> str:
        if node[1] in "/%" and node[3][0] == "num" and node[3][1] == 0.0 and node[2][0] == "num":
            raise _fatal("division by zero attempted" + (" in `%'" if node[1] == "%" else ""))
        return self.arith(node[1], self.number(node[2]), self.number(node[3]))

    def ex_unary(self, node: tuple) -> str:
        op, operand = node[1], node[2]
        if op == "!":
            return f"(0.0 if truth({self.expr(operand)}) else 1.0)"
        if op == "-":
            return f"(-{self.number(operand)})"
        return f"(+{self.number(operand)})"

    def ex_call(self, node: tuple) -> str:
        _, name, args = node
        callee = self.program.functions.get(name)
        if callee is None:
            raise _fatal2(f"function `{name}' not defined")
        if len(args) > len(callee.params):
            raise _fatal(f"function `{name}' called with more arguments than declared")
        codes = []
        for param, arg in zip(callee.params, args):
            if param in self.info.local_arrays[name]:
                if arg[0] != "var":
                    raise _fatal(f"function `{name}': argument `{param}' must be an array")
                codes.append(self.array(arg[1]))
            else:
                codes.append(self.expr(arg))
        return f"(await f_{name}(rt{''.join(', ' + c for c in codes)}))"

    def ex_getline(self, node: tuple) -> str:
        _, form, target, source = node
        if form == "simple":
            call = "await rt.getline_main()"
        elif form == "file":
            call = f"await rt.getline_file({self.string(source)})"
        else:
            call = f"await rt.getline_command({self.string(source)})"
        result = self.tmp()
        if target is None:
            store = f"rt.set_record({result}[1])"
        else:
            store = self.assign(target, f"{result}[1]")
        return f"({result}[0] if ({result} := {call})[0] <= 0 else ({store}, 1.0)[1])"

    # -- built-in functions ----------------------------------------------------------------
    def ex_builtin(self, node: tuple) -> str:
        _, name, args = node
        low, high = _BUILTIN_ARITY[name]
        if not low <= len(args) <= high:
            raise _fatal(f"{name}: called with {len(args)} arguments")
        return getattr(self, "fn_" + name)(args)

    def fn_length(self, args: list) -> str:
        if not args:
            return "float(len(rt.get0()))"
        arg = args[0]
        if arg[0] == "var" and (self.info.is_array(self.fn, arg[1])):
            return "rt.array_length()"  # gawk --posix refuses length(array)
        return f"float(len({self.string(arg)}))"

    def fn_substr(self, args: list) -> str:
        rest = ", ".join(self.expr(a) for a in args[1:])
        return f"substr({self.string(args[0])}, {rest})"

    def fn_index(self, args: list) -> str:
        return f"index({self.string(args[0])}, {self.string(args[1])})"

    def fn_split(self, args: list) -> str:
        if args[1][0] != "var":
            raise _fatal("split: second argument is not an array")
        array = self.array(args[1][1])
        if len(args) == 2:
            sep = "None"
        elif args[2][0] == "re":
            sep = self.regex_name(args[2][1])
        else:
            sep = self.string(args[2])
        return f"rt.split({self.string(args[0])}, {array}, {sep})"

    def fn_sub(self, args: list, everywhere: bool = False) -> str:
        target = args[2] if len(args) == 3 else ("field", ("num", 0.0))
        regex = self.regex(args[0])
        result = self.tmp()
        call = f"rt.substitute({regex}, {self.string(args[1])}, {self.string(target)}, {everywhere})"
        if target[0] not in ("var", "index", "field"):
            return f"rt.substitute_count({call})"
        if target[0] == "field":  # naming a field past NF creates it, match or not
            index = self.tmp()
            call = (f"rt.substitute({regex}, {self.string(args[1])}, "
                    f"tos(rt.field_lvalue(({index} := num({self.expr(target[1])})))), {everywhere})")
            store = f"rt.set_field({index}, {result}[1])"
            return f"({result}[0] if ({result} := {call})[0] == 0.0 else ({store}, {result}[0])[1])"
        store = self.assign(target, f"{result}[1]")
        return f"({result}[0] if ({result} := {call})[0] == 0.0 else ({store}, {result}[0])[1])"

    def fn_gsub(self, args: list) -> str:
        return self.fn_sub(args, everywhere=True)

    def fn_match(self, args: list) -> str:
        return f"rt.match({self.string(args[0])}, {self.regex(args[1])})"

    def fn_sprintf(self, args: list) -> str:
        rest = ", ".join(self.expr(a) for a in args[1:])
        return f"rt.format({self.string(args[0])}, [{rest}])"

    def fn_tolower(self, args: list) -> str:
        return f"lower({self.string(args[0])})"

    def fn_toupper(self, args: list) -> str:
        return f"upper({self.string(args[0])})"

    def fn_int(self, args: list) -> str:
        return f"trunc({self.expr(args[0])})"

    def _math(self, name: str, args: list) -> str:
        return f"math_fn({name!r}, {self.expr(args[0])}, rt.warn)"

    def fn_sqrt(self, args: list) -> str:
        return self._math("sqrt", args)

    def fn_exp(self, args: list) -> str:
        return self._math("exp", args)

    def fn_log(self, args: list) -> str:
        return self._math("log", args)

    def fn_sin(self, args: list) -> str:
        return self._math("sin", args)

    def fn_cos(self, args: list) -> str:
        return self._math("cos", args)

    def fn_atan2(self, args: list) -> str:
        return f"atan2({self.expr(args[0])}, {self.expr(args[1])})"

    def fn_rand(self, args: list) -> str:
        return "rt.rand()"

    def fn_srand(self, args: list) -> str:
        return f"rt.srand({self.expr(args[0]) if args else 'None'})"

    def fn_system(self, args: list) -> str:
        return f"(await rt.system({self.string(args[0])}))"

    def fn_close(self, args: list) -> str:
        return f"(await rt.close({self.string(args[0])}))"

    def fn_fflush(self, args: list) -> str:
        return "(await rt.fflush())"


def generate(program: Program) -> tuple[str, list[str], set[str], set[str]]:
    """The Python source of a program, its regex literals (in order R0, R1, ...), its
    global scalar names and its global array names."""
    gen = Generator(program)
    source = gen.generate()
    return source, gen.regexes, set(gen.info.globals), set(gen.info.global_arrays)
