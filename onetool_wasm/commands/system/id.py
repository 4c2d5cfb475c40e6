"""id: the sandbox user's ids (commands/system/_identity.py), as GNU id prints them."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import NONE, result_of
from ..spec import CommandContext, CommandSpec
from ._identity import GID, UID, gnu_options, user_name

USAGE = "id [-u|-g|-G] [-n] [-r] [USER]"
_LONG = {"user": ("u", NONE), "group": ("g", NONE), "groups": ("G", NONE), "name": ("n", NONE),
         "real": ("r", NONE), "zero": ("z", NONE)}


async def cmd_id(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands = gnu_options("id", USAGE, args, "ugGnrz", _LONG)
    user = user_name(ctx)
    if len(operands) > 1:
        return result_of(b"", [f"id: extra operand '{operands[1]}'\nTry 'id --help' for more information."], 1)
    if operands and operands[0] not in (user, str(UID)):
        return result_of(b"", [f"id: '{operands[0]}': no such user"], 1)
    chosen = {key for key, _ in options}
    which = chosen & {"u", "g", "G"}
    if len(which) > 1:
        return result_of(b"", ["id: cannot print \"only\" of more than one choice"], 1)
    if not which:
        if chosen & {"n", "r"}:
            return result_of(b"", ["id: cannot print only names or real IDs in default format"], 1)
        if "z" in chosen:
            return result_of(b"", ["id: option --zero not permitted in default format"], 1)
        return result_of(f"uid={UID}({user}) gid={GID}({user}) groups={GID}({user})\n".encode(), [])
    value = user if "n" in chosen else str(UID if "u" in which else GID)
    return result_of((value + ("\0" if "z" in chosen else "\n")).encode(), [])


ID = CommandSpec(
    name="id", summary="Print the user and group ids, as GNU id.", usage=USAGE,
    details=("The sandbox's user has uid and gid 1000 and one group, its own; other users do not exist.\n"
             "Examples:\n  id\n  id -u\n  id -un"),
    group="system", handler=cmd_id, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind="read", usage_exit_code=1,
)

COMMANDS = [ID]
