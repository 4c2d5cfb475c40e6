"""xxd: hex dump (and its reverse) as Debian's xxd (vim's xxd 2022) prints it.

Modes: the default dump (`-c COLS`, `-g BYTES`, `-u`, `-e` little-endian groups, `-b`
bits, `-d` decimal offsets, `-o OFF`, `-a` autoskip), `-p` plain hex, `-i` C include
(`-n NAME`, `-C`), and `-r` / `-r -p` to turn a dump back into bytes. `-s [+][-]SEEK` and
`-l LEN` pick the range. An OUTFILE operand receives the output (with -r it is patched in
place, as xxd does).
"""
from __future__ import annotations

import re
from typing import Sequence

from ...result import CommandResult, err, ok_bytes
from ..helpers import FS_ERRORS, GNU_ERRORS, content_type_for, format_vfs_error, no_input_error, read_file_bytes
from ..spec import CommandContext, CommandFailed, CommandSpec

XXD_USAGE = "xxd [-p|-i|-b|-e|-r] [-c COLS] [-g BYTES] [-l LEN] [-s [+][-]SEEK] [-u] [INFILE [OUTFILE]]"

_USAGE_LINES = (
    "Usage:\n       xxd [options] [infile [outfile]]\n    or\n"
    "       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]\n"
    "Run 'help xxd' for the options.")

HEX_NORMAL, HEX_POSTSCRIPT, HEX_CINCLUDE, HEX_BITS, HEX_LITTLEENDIAN = 0, 1, 2, 4, 8
_VALUE_OPTIONS = ("-c", "-g", "-o", "-s", "-l", "-n")


class _Usage(Exception):
    pass


def _strtol(text: str) -> int:
    """C strtol(text, NULL, 0): leading blanks, sign, 0x/0 prefixes, stops at junk."""
    match = re.match(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)?", text)
    digits = match.group(2) if match else None
    if not digits:
        return 0
    if digits[:2].lower() == "0x":
        value = int(digits, 16)
    elif digits.startswith("0"):
        value = int(digits, 8)
    else:
        value = int(digits)
    value = min(value, 2**63 - 1)
    return -value if match.group(1) == "-" else value


def _parse(args: Sequence[str]) -> tuple[dict, list[str]]:
    opts = {"autoskip": False, "hextype": 0, "upper": False, "capitalize": False, "decimal": False,
            "revert": False, "cols": 0, "colsgiven": False, "group": -1, "display": 0, "relseek": True,
            "negseek": False, "seek": 0, "length": -1, "varname": None, "seek_given": False}
    args = list(args)
    index = 0
    while index < len(args):
        arg = args[index]
        pp = arg[1:] if arg.startswith("--") and len(arg) > 2 else arg

        if pp.startswith("-a"):
            opts["autoskip"] = not opts["autoskip"]
        elif pp.startswith("-b"):
            opts["hextype"] |= HEX_BITS
        elif pp.startswith("-e"):
            opts["hextype"] |= HEX_LITTLEENDIAN
        elif pp.startswith("-u"):
            opts["upper"] = True
        elif pp.startswith("-p"):
            opts["hextype"] |= HEX_POSTSCRIPT
        elif pp.startswith("-i"):
            opts["hextype"] |= HEX_CINCLUDE
        elif pp.startswith("-C"):
            opts["capitalize"] = True
        elif pp.startswith("-d"):
            opts["decimal"] = True
        elif pp.startswith("-r"):
            opts["revert"] = True
        elif pp.startswith("-E"):
            raise CommandFailed(err("xxd: -E (EBCDIC) is not supported here. Usage: " + XXD_USAGE))
        elif pp.startswith("-v"):
            raise CommandFailed(CommandResult(b"", "xxd 2022-01-14 by Juergen Weigert et al.", 0))
        elif pp.startswith("-c"):
            rest = pp[2:]
            if rest and rest.startswith("apitalize"):
                opts["capitalize"] = True
            else:
                text = rest if rest and not rest.startswith("ols") else _next(args, index)
                index += 0 if rest and not rest.startswith("ols") else 1
                opts["colsgiven"], opts["cols"] = True, _strtol(text)
        elif pp.startswith("-g"):
            rest = pp[2:]
            text = rest if rest and not rest.startswith("roup") else _next(args, index)
            index += 0 if rest and not rest.startswith("roup") else 1
            opts["group"] = _strtol(text)
        elif pp.startswith("-o"):
            rest = pp[2:]
            if rest and not rest.startswith("ffset"):
                opts["display"] = max(0, _strtol(rest))
            else:
                text = _next(args, index)
                index += 1
                body = text[1:] if text.startswith("+") else text
                if body.startswith("-"):
                    opts["display"] = (2**64 - max(0, _strtol(body[1:]))) % 2**64
                else:
                    opts["display"] = _strtol(body) % 2**64
        elif pp.startswith("-s"):
            opts["relseek"], opts["negseek"], opts["seek_given"] = False, False, True
            rest = pp[2:]
            if rest and not rest.startswith("kip") and not rest.startswith("eek"):
                text = rest
            else:
                text = _next(args, index)
                index += 1
            if text.startswith("+"):
                opts["relseek"] = True
                text = text[1:]
            if text.startswith("-"):
                opts["negseek"] = True
                text = text[1:]
            opts["seek"] = _strtol(text)
        elif pp.startswith("-l"):
            rest = pp[2:]
            text = rest if rest and not rest.startswith("en") else _next(args, index)
            index += 0 if rest and not rest.startswith("en") else 1
            opts["length"] = _strtol(text)
        elif pp.startswith("-n"):
            rest = pp[2:]
            text = rest if rest and not rest.startswith("ame") else _next(args, index)
            index += 0 if rest and not rest.startswith("ame") else 1
            opts["varname"] = text
        elif pp == "--":
            index += 1
            break
        elif pp.startswith("-") and len(pp) > 1:
            raise _Usage()
        else:
            break
        index += 1
    return opts, args[index:]


def _next(args: list[str], index: int) -> str:
    if index + 1 >= len(args):
        raise _Usage()
    return args[index + 1]


def _is_write(args: Sequence[str]) -> str:
    """kind: "write" when an OUTFILE operand (not `-`) is given."""
    try:
        _, operands = _parse(args)
    except (_Usage, CommandFailed):
        return "read"
    return "write" if len(operands) >= 2 and operands[1] != "-" else "read"


def _revert(data: bytes, cols: int, hextype: int, base_off: int) -> tuple[bytes, list[tuple[int, int]]]:
    """huntype(): the bytes a dump (or plain hex) stands for, as (offset, byte) writes."""
    writes: list[tuple[int, int]] = []
    ign_garb, n1, n2, n3, p = True, -1, 0, 0, cols
    have_off = want_off = 0
    position = 0
    length = len(data)
    while position < length:
        c = data[position]
        position += 1
        if c == 13:
            continue
        if hextype == HEX_POSTSCRIPT and c in (32, 10, 9):
            continue
        n3, n2 = n2, n1
        n1 = _hex_digit(c)
        if n1 == -1 and ign_garb:
            continue
        ign_garb = False
        if hextype != HEX_POSTSCRIPT and p >= cols:
            if n1 < 0:
                p = 0
                continue
            want_off = ((want_off << 4) | n1) & (2**63 - 1)
            continue
        if base_off + want_off != have_off:
            if base_off + want_off < 0:
                raise CommandFailed(err("xxd: Sorry, cannot seek backwards.", 5))
            have_off = base_off + want_off
        if n2 >= 0 and n1 >= 0:
            writes.append((have_off, (n2 << 4) | n1))
            have_off += 1
            want_off += 1
            n1 = -1
            p += 1
            if hextype == HEX_NORMAL and p >= cols:
                while c != 10 and position < length:
                    c = data[position]
                    position += 1
                if c != 10:
                    break
        elif n1 < 0 and n2 < 0 and n3 < 0:
            while c != 10 and position < length:
                c = data[position]
                position += 1
            if c != 10:
                break
        if c == 10:
            if hextype == HEX_NORMAL:
                want_off = 0
            p = cols
            ign_garb = True
    return b"", writes


def _hex_digit(c: int) -> int:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


def _apply(base: bytes, writes: list[tuple[int, int]], limit: int = 1 << 31) -> bytes:
    if not writes:
        return base
    end = max(offset for offset, _ in writes) + 1
    if end > limit:
        raise CommandFailed(err("xxd: output offset too large for the virtual file system"))
    out = bytearray(base)
    if len(out) < end:
        out.extend(b"\x00" * (end - len(out)))
    for offset, byte in writes:
        out[offset] = byte
    return bytes(out)


def _c_name(name: str, capitalize: bool) -> str:
    prefix = "__" if name[:1].isdigit() and name[:1].isascii() else ""
    return prefix + "".join((ch.upper() if capitalize else ch) if ch.isascii() and ch.isalnum() else "_"
                            for ch in name)


def _dump(data: bytes, opts: dict, hextype: int, cols: int, group: int, seekoff: int, name: str | None) -> bytes:
    hexx = "0123456789ABCDEF" if opts["upper"] else "0123456789abcdef"
    length = opts["length"]
    if length >= 0:
        data = data[:length]
    if hextype & HEX_CINCLUDE:
        out: list[str] = []
        if name is not None:
            out.append(f"unsigned char {_c_name(name, opts['capitalize'])}[] = {{\n")
        form = "0X%02X" if opts["upper"] else "0x%02x"
        for index, byte in enumerate(data):
            lead = ", " if index % cols else ("  " if index == 0 else ",\n  ")
            if hextype & HEX_BITS:
                out.append(lead + "0b" + format(byte, "08b"))
            else:
                out.append(lead + form % byte)
        if data:
            out.append("\n")
        if name is not None:
            out.append("};\n")
            out.append(f"unsigned int {_c_name(name, opts['capitalize'])}_{'LEN' if opts['capitalize'] else 'len'}"
                       f" = {len(data)};\n")
        return "".join(out).encode("utf-8", "surrogateescape")
    if hextype == HEX_POSTSCRIPT:
        out = []
        p = cols
        for byte in data:
            out.append(hexx[byte >> 4] + hexx[byte & 15])
            p -= 1
            if cols > 0 and not p:
                out.append("\n")
                p = cols
        if cols == 0 or p < cols:
            out.append("\n")
        return "".join(out).encode("ascii")
    grplen = 8 * group + 1 if hextype == HEX_BITS else 2 * group + 1
    lines: list[str] = []
    addr_form = "%08d:" if opts["decimal"] else "%08x:"
    autoskip = opts["autoskip"]
    state = {"zero_seen": 0, "saved": ""}
    last = ""

    def emit(text: str, nz: int) -> None:
        """xxdline(): three or more all-zero lines in a row become `*` (with -a)."""
        if not nz and state["zero_seen"] == 1:
            state["saved"] = text
        seen = state["zero_seen"]
        if not nz:
            state["zero_seen"] += 1
        if nz or not seen:
            if nz:
                if nz < 0:
                    state["zero_seen"] -= 1
                if state["zero_seen"] == 2:
                    lines.append(state["saved"])
                if state["zero_seen"] > 2:
                    lines.append("*\n")
            if nz >= 0 or state["zero_seen"] > 0:
                lines.append(text)
            if nz:
                state["zero_seen"] = 0

    for start in range(0, len(data), cols):
        chunk = data[start:start + cols]
        address = addr_form % ((start + seekoff + opts["display"]) % 2**64)
        addrlen = len(address)
        line = [" "] * (addrlen + 3 + grplen * cols + cols + 8)
        line[:addrlen] = address
        end = 0
        for p, byte in enumerate(chunk):
            x = p ^ (group - 1) if hextype == HEX_LITTLEENDIAN else p
            c = addrlen + 1 + (grplen * x) // group
            if hextype == HEX_BITS:
                line[c:c + 8] = format(byte, "08b")
            else:
                line[c] = hexx[byte >> 4]
                line[c + 1] = hexx[byte & 15]
            if hextype == HEX_LITTLEENDIAN:
                c = grplen * ((cols + group - 1) // group) - 1
            else:
                c = (grplen * cols - 1) // group
            c += addrlen + 3 + p
            line[c] = chr(byte) if 31 < byte < 127 else "."
            end = c + 1
        text = "".join(line[:end]) + "\n"
        if len(chunk) < cols:
            emit(text, 1)
        else:
            emit(text, sum(1 for byte in chunk if byte) if autoskip else 1)
        last = text
    if data and len(data) % cols == 0 and autoskip:
        emit(last, -1)  # the last line shows even when it is all zeros
    return "".join(lines).encode("latin-1")


async def cmd_xxd(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        opts, operands = _parse(args)
    except _Usage:
        return err(_USAGE_LINES)
    hextype = opts["hextype"]
    if hextype != (HEX_CINCLUDE | HEX_BITS) and hextype & (hextype - 1):
        return err("xxd: only one of -b, -e, -u, -p, -i can be used")
    cols = opts["cols"]
    if not opts["colsgiven"] or (not cols and hextype != HEX_POSTSCRIPT):
        cols = {HEX_POSTSCRIPT: 30, HEX_CINCLUDE: 12, HEX_CINCLUDE | HEX_BITS: 6, HEX_BITS: 6}.get(hextype, 16)
    group = opts["group"]
    if group < 0:
        group = {HEX_CINCLUDE | HEX_BITS: 1, HEX_BITS: 1, HEX_NORMAL: 2, HEX_LITTLEENDIAN: 4}.get(hextype, 0)
    if ((hextype == HEX_POSTSCRIPT and cols < 0) or (hextype != HEX_POSTSCRIPT and cols < 1)
            or (hextype in (HEX_NORMAL, HEX_BITS, HEX_LITTLEENDIAN) and cols > 256)):
        return err("xxd: invalid number of columns (max. 256).")
    if hextype == HEX_POSTSCRIPT or hextype & HEX_CINCLUDE:
        cols = min(cols, 1 << 20)
    if group < 1 or group > cols:
        group = cols
    elif hextype == HEX_LITTLEENDIAN and group & (group - 1):
        return err("xxd: number of octets per group must be a power of 2 with -e.")
    if len(operands) > 2:
        return err(_USAGE_LINES)
    infile = operands[0] if operands and operands[0] != "-" else None
    outfile = operands[1] if len(operands) > 1 and operands[1] != "-" else None
    if infile is None:
        if not stdin and not ctx.stdin_is_pipe:
            return no_input_error("xxd")
        data = stdin
    else:
        try:
            data = await read_file_bytes(ctx, "xxd", infile)
        except FS_ERRORS as error:
            code = getattr(error, "code", "")
            if ctx.grammar == "bash":
                return err(f"xxd: {infile}: {GNU_ERRORS.get(code, str(error))}", 2)
            failed = await format_vfs_error(ctx, "xxd", infile, error)
            return err(failed.stderr, 2)
    if opts["revert"]:
        if hextype not in (HEX_NORMAL, HEX_POSTSCRIPT):
            return err("xxd: Sorry, cannot revert this type of hexdump", 255)
        base_off = -opts["seek"] if opts["negseek"] else opts["seek"]
        _, writes = _revert(data, cols, hextype, base_off)
        if outfile is None:
            # stdout cannot seek: the gaps before each offset are written as zero bytes
            output = _apply(b"", writes, limit=ctx.max_materialized_bytes or (1 << 28))
            return ok_bytes(output, content_type_for(output))
        existing = b""
        if await ctx.vfs.exists(outfile) and not await ctx.vfs.is_dir(outfile):
            existing = await ctx.vfs.read_bytes(outfile)
        return await _write(ctx, outfile, _apply(existing, writes, limit=ctx.max_materialized_bytes or (1 << 28)))
    seekoff = 0
    if opts["seek_given"] or opts["negseek"] or not opts["relseek"]:
        seek = opts["seek"]
        if opts["negseek"]:
            position = (len(data) - seek) if not opts["relseek"] else -seek
            if position < 0:
                return err("xxd: Sorry, cannot seek.", 4)
        else:
            position = seek
        seekoff = position
        data = data[position:]
    name = opts["varname"] if opts["varname"] is not None else infile
    output = _dump(data, opts, hextype, cols, group, seekoff, name)
    if outfile is not None:
        return await _write(ctx, outfile, output)
    return ok_bytes(output, content_type_for(output))


async def _write(ctx: CommandContext, path: str, data: bytes) -> CommandResult:
    try:
        await ctx.vfs.write_bytes(path, data)
    except FS_ERRORS as error:
        code = getattr(error, "code", "")
        if ctx.grammar == "bash":
            return err(f"xxd: {path}: {GNU_ERRORS.get(code, str(error))}", 3)
        return err((await format_vfs_error(ctx, "xxd", path, error)).stderr, 3)
    return CommandResult(b"", "", 0)


XXD_SPEC = CommandSpec(
    name="xxd",
    summary="Make a hex dump of bytes, or turn one back into bytes (-r), as xxd.",
    usage=XXD_USAGE,
    details=("Default: 16 bytes a line in groups of 2 with the text beside. -c COLS bytes a line, "
             "-g BYTES a group, -u upper-case hex, -e little-endian groups, -b bits, -d decimal offsets, "
             "-p plain hex (30 bytes a line), -i a C array (-n NAME names it), -l LEN and -s [+][-]SEEK "
             "the range, -a squeezes runs of zero lines into `*`. -r reads a dump (or with -p plain hex, "
             "any spacing) and writes the bytes; an OUTFILE operand receives the output (-r patches "
             "it in place).\n"
             "Examples:\n  xxd /data/blob.bin | head\n  xxd -p /data/key.bin\n"
             "  printf '68690a' | xxd -r -p\n  xxd -i -n logo /images/logo.png\n"
             "  xxd /data/a.bin > /tmp/a.hex; xxd -r /tmp/a.hex /data/b.bin"),
    group="data",
    handler=cmd_xxd,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(),
    kind=_is_write, requires_adapter=None,
)


COMMANDS = [XXD_SPEC]
