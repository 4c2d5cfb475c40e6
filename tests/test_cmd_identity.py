"""whoami, id, uname, hostname, nproc and the shell's umask: the sandbox's fixed identity
(commands/system/_identity.py). The values are this project's; the formats, errors and exit
statuses are GNU coreutils 9.1's and bash 5.2's, recorded by hand under LC_ALL=C."""
from __future__ import annotations

import asyncio

import pytest

from onetool_wasm import MemoryVFS, create_agent_cli


def run(line: str) -> tuple[str, str, int]:
    async def go():
        runtime = await create_agent_cli(vfs=MemoryVFS())
        execution = await runtime.run_detailed(line)
        return execution.stdout.decode(), execution.stderr, execution.exit_code
    return asyncio.run(go())


@pytest.mark.parametrize("line, stdout, stderr, status", [
    ("whoami", "user\n", "", 0),
    ("USER=agent whoami", "agent\n", "", 0),
    ("whoami x", "", "whoami: extra operand 'x'\nTry 'whoami --help' for more information.", 1),
    ("id", "uid=1000(user) gid=1000(user) groups=1000(user)\n", "", 0),
    ("id -u; id -g; id -G; id -un; id -gn; id -Gn", "1000\n1000\n1000\nuser\nuser\nuser\n", "", 0),
    ("id user; id 1000", "uid=1000(user) gid=1000(user) groups=1000(user)\n" * 2, "", 0),
    ("id nosuch", "", "id: 'nosuch': no such user", 1),
    ("id -z", "", "id: option --zero not permitted in default format", 1),
    ("id -ug", "", 'id: cannot print "only" of more than one choice', 1),
    ("uname; uname -s; uname -m; uname -n", "Linux\nLinux\nwasm32\nonetool\n", "", 0),
    ("uname -a", "Linux onetool 6.1.0-onetool #1 SMP onetool-wasm wasm32 GNU/Linux\n", "", 0),
    ("uname -snrvmpio", "Linux onetool 6.1.0-onetool #1 SMP onetool-wasm wasm32 unknown unknown GNU/Linux\n", "", 0),
    ("uname foo", "", "uname: extra operand 'foo'\nTry 'uname --help' for more information.", 1),
    ("uname -x", "", "uname: invalid option -- 'x'\nTry 'uname --help' for more information.", 1),
    ("hostname; hostname -s", "onetool\nonetool\n", "", 0),
    ("hostname other", "", "hostname: you must be root to change the host name", 1),
    ("nproc; nproc --all; nproc --ignore=3", "1\n1\n1\n", "", 0),
    ("nproc x", "", "nproc: extra operand 'x'\nTry 'nproc --help' for more information.", 1),
    ('if [[ "$(uname)" == "Linux" ]]; then echo linux; fi', "linux\n", "", 0),
])
def test_identity(line, stdout, stderr, status):
    assert run(line) == (stdout, stderr, status)


@pytest.mark.parametrize("line, stdout, stderr, status", [
    ("umask", "0022\n", "", 0),
    ("umask 077; umask; umask -S", "0077\nu=rwx,g=,o=\n", "", 0),
    ("umask -S", "u=rwx,g=rx,o=rx\n", "", 0),
    ("umask -p; umask 0002; umask -p", "umask 0022\numask 0002\n", "", 0),
    ("umask 8", "", "bash: line 1: umask: 8: octal number out of range", 1),
    ("(umask 077); umask", "0022\n", "", 0),
])
def test_umask(line, stdout, stderr, status):
    assert run(line) == (stdout, stderr, status)
