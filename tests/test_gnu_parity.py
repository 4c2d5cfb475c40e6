"""The text commands against GNU bash/coreutils/grep/sed under LC_ALL=C.

Each row is a command line run twice over the same files: through our runtime (a MemoryVFS
seeded with FILES; stdout bytes and exit code of `run_detailed`) and through `bash -c` in a
temporary directory holding the same files (paths rewritten to it, and back in its output).
Rows whose commands are not registered yet are skipped with the reason, so the table lights
up as commands land. Needs subprocess and GNU tools: skipped with a printed reason elsewhere
(Pyodide, macOS without GNU coreutils).
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.shell import ParseError, parse_command_line


def _gnu_unavailable() -> str | None:
    if sys.platform == "emscripten":
        return "no subprocess in Pyodide"
    if shutil.which("bash") is None:
        return "bash not found"
    for tool in ("sort", "tr", "cut"):
        try:
            version = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError) as error:
            return f"cannot run {tool}: {error}"
        if "GNU coreutils" not in version:
            return f"{tool} is not GNU coreutils"
    return None


_REASON = _gnu_unavailable()
if _REASON:
    print(f"test_gnu_parity skipped: {_REASON}")
    pytest.skip(f"GNU parity table needs GNU bash/coreutils: {_REASON}", allow_module_level=True)

FILES: dict[str, str] = {
    "/data/app.log": (
        "2024-03-01 08:00:01 INFO  server started port=8080\n"
        "2024-03-01 08:00:05 INFO  user=alice login ok\n"
        "2024-03-01 08:01:12 WARN  disk usage 81%\n"
        "2024-03-01 08:02:33 ERROR payment failed id=1042 reason=timeout\n"
        "2024-03-01 08:02:34 INFO  retry scheduled id=1042\n"
        "2024-03-01 08:03:00 ERROR payment failed id=1043 reason=declined\n"
        "2024-03-01 08:03:10 DEBUG cache hit ratio=0.93\n"
        "2024-03-01 08:04:45 WARN  slow query took=2.5s\n"
        "2024-03-01 08:05:00 INFO  user=bob login ok\n"
        "2024-03-01 08:05:02 ERROR Timeout contacting db host=db-1\n"
        "2024-03-01 08:06:00 INFO  user=alice logout\n"
        "2024-03-01 08:07:30 error lowercase marker\n"
        "2024-03-01 08:08:00 INFO  health check ok\n"
        "2024-03-01 08:09:15 WARN  retry budget low\n"
        "2024-03-01 08:10:00 ERROR payment failed id=1044 reason=timeout\n"
        "2024-03-01 08:11:11 INFO  shutdown requested\n"),
    "/data/users.csv": (
        "id,name,email,age,city\n3,Carol,carol@example.com,41,Berlin\n1,alice,alice@example.com,29,Paris\n"
        "2,Bob,bob@example.org,35,paris\n10,dave,dave@example.net,35,Berlin\n4,Eve,eve@example.com,,Madrid\n"),
    "/data/nums.txt": "10\n2\n-3\n1.5\n\n+4\nabc\n0\n-0.5\n2\n1e3\n 7\n010\n",
    "/data/words.txt": ("banana\nApple\ncherry\napple\nBanana\ndate\napple\n\u00c9clair\n\u00e9clair\n_under\n"
                        "Zebra\nzebra\n"),
    "/data/versions.txt": "v1.10\nv1.2\nv1.2.3\nv1.02\nv2.0-rc1\nv2.0\n1.9.9\nfile-1.10.tar.gz\nfile-1.9.tar.gz\n",
    "/data/sizes.txt": "1K\n512\n2M\n1.5G\n100K\n0\n-2K\n3k\n",
    "/data/passwd": ("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
                     "alice:x:1000:1000:Alice,,,:/home/alice:/bin/zsh\nbob:x:1001:1001::/home/bob:/bin/bash\n"),
    "/data/tabs.tsv": "a\tb\tc\nno tab here\n1\t2\t3\n\tlead\n",
    "/data/noeol.txt": "first\nsecond\nthird",
    "/data/spaces.txt": "  b  2\n a 10\nc   3\n\tx 1\n",
    "/data/dups.txt": "a\na\nb\nB\nb\nc\nc\nc\na\n",
    "/data/months.txt": "Mar 3\njan 1\nDEC 12\nfoo 0\nFeb 2\n",
}
DIRECTORIES = ("/data", "/out")

ROWS: list[str] = [
    # echo
    "echo hello world",
    "echo -n abc",
    "echo -e 'a\\tb\\nc'",
    "echo -e 'x\\x41\\0101\\101y'",
    "echo -e 'stop\\cnever'",
    "echo -- -n",
    "echo -ne 'a\\n'",
    # wc
    "wc /data/app.log",
    "wc -l /data/app.log",
    "wc -w /data/users.csv",
    "wc -c /data/noeol.txt",
    "wc -lw /data/app.log",
    "cat /data/app.log | wc",
    "cat /data/app.log | wc -l",
    "wc /data/app.log /data/users.csv",
    "wc -l -c /data/noeol.txt /data/dups.txt",
    "cat /data/words.txt | wc -c -l",
    "wc -m /data/users.csv",
    # head
    "head -n 3 /data/app.log",
    "head -3 /data/app.log",
    "head -c 20 /data/app.log",
    "head -n -14 /data/app.log",
    "head -n 2 /data/noeol.txt",
    "head -n 5 /data/noeol.txt",
    "cat /data/app.log | head -n 1",
    "head -n 2 /data/dups.txt /data/noeol.txt",
    "head /data/app.log",
    "head -c -5 /data/noeol.txt",
    "head -n 0 /data/app.log",
    "head -n 1 /data/missing.txt",
    # tail
    "tail -n 2 /data/app.log",
    "tail -n +14 /data/app.log",
    "tail -3 /data/noeol.txt",
    "tail -n 1 /data/noeol.txt",
    "tail -c 6 /data/noeol.txt",
    "tail -c +5 /data/noeol.txt",
    "cat /data/app.log | tail -n 3",
    "tail -n 1 /data/dups.txt /data/noeol.txt",
    "tail /data/words.txt",
    "tail -n +1 /data/noeol.txt",
    # sort
    "sort /data/words.txt",
    "sort -r /data/words.txt",
    "sort -f /data/words.txt",
    "sort -u /data/words.txt",
    "sort -fu /data/words.txt",
    "sort -n /data/nums.txt",
    "sort -rn /data/nums.txt",
    "sort -un /data/nums.txt",
    "sort -g /data/nums.txt",
    "sort -h /data/sizes.txt",
    "sort -hr /data/sizes.txt",
    "sort -V /data/versions.txt",
    "sort -M /data/months.txt",
    "sort -t, -k4,4n /data/users.csv",
    "sort -t, -k5,5 -k1,1n /data/users.csv",
    "sort -t, -k5,5f -s /data/users.csv",
    "sort -t: -k3,3nr /data/passwd",
    "sort -k2 /data/spaces.txt",
    "sort -k2n /data/spaces.txt",
    "sort -b -k2 /data/spaces.txt",
    "sort -k1.2,1.3 /data/words.txt",
    "sort -d /data/words.txt",
    "sort /data/words.txt -r",
    "sort /data/dups.txt /data/noeol.txt",
    "sort -c /data/words.txt",
    "sort /data/words.txt | sort -c",
    "sort -t ' ' -k3,3 -k2,2r /data/app.log | head -n 5",
    "sort -k3 /data/app.log | cut -c 21-26 | uniq -c",
    # uniq
    "uniq /data/dups.txt",
    "uniq -c /data/dups.txt",
    "uniq -d /data/dups.txt",
    "uniq -u /data/dups.txt",
    "uniq -i /data/dups.txt",
    "uniq -ci /data/dups.txt",
    "uniq -D /data/dups.txt",
    "sort /data/words.txt | uniq -i -c",
    "sort /data/dups.txt | uniq -c",
    "uniq -f 1 /data/spaces.txt",
    "cut -d ' ' -f 3 /data/app.log | sort | uniq -c | sort -rn",
    # cut
    "cut -d, -f2 /data/users.csv",
    "cut -d , -f 1,3 /data/users.csv",
    "cut -d, -f2- /data/users.csv",
    "cut -d, -f-2 /data/users.csv",
    "cut -d, --complement -f2 /data/users.csv",
    "cut -c1-10 /data/app.log",
    "cut -b 12-19 /data/app.log",
    "cut -f2 /data/tabs.tsv",
    "cut -s -f2 /data/tabs.tsv",
    "cut -d: -f1,7 --output-delimiter=' ' /data/passwd",
    "cut -d: -f 6 /data/passwd | cut -d/ -f2",
    "cut -f 0 /data/tabs.tsv",
    "cut -c 3- /data/noeol.txt",
    "cut -d, -f5 /data/users.csv | sort | uniq -c",
    "cut -c 2,4-5 --output-delimiter=: /data/dups.txt",
    # tee
    "echo saved | tee /out/a.txt",
    "cat /data/dups.txt | tee /out/b.txt | wc -l",
    "echo one | tee /out/c.txt && cat /out/c.txt",
    "echo x | tee -a /data/noeol.txt && cat /data/noeol.txt",
    # tr
    "echo hello | tr a-z A-Z",
    "cat /data/app.log | tr -d 0-9 | head -n 2",
    "echo 'a   b    c' | tr -s ' '",
    "cat /data/users.csv | tr , '\\t' | head -n 2",
    "echo hello | tr '[:lower:]' '[:upper:]'",
    "echo 'hello world' | tr -c '[:alnum:]' _",
    "echo abcdef | tr -t abc xy",
    "echo abcdef | tr abc xy",
    "echo aabbcc | tr -s a-c",
    "echo a1b22c333 | tr -ds 0-9 a-z",
    "echo hello | tr el '\\n'",
    "cat /data/words.txt | tr -cs '[:alpha:]' '\\n' | sort | uniq -c | sort -rn | head -n 3",
    "echo abc | tr z-a x",
    "echo hello | tr -d '[=l=]'",
    "echo abc | tr abc '[x*]'",
    "echo 'Hello World' | tr '[:upper:][:lower:]' '[:lower:][:upper:]'",
    # grep
    "grep ERROR /data/app.log",
    "grep -c ERROR /data/app.log",
    "grep -i error /data/app.log",
    "grep -v INFO /data/app.log",
    "grep -n WARN /data/app.log",
    "grep -E 'id=10(42|44)' /data/app.log",
    "grep 'id=10\\(42\\|43\\)' /data/app.log",
    "grep -o 'id=[0-9]*' /data/app.log",
    "grep -w ok /data/app.log",
    "grep -x c /data/dups.txt",
    "grep -F 'ratio=0.93' /data/app.log",
    "grep -e alice -e bob /data/app.log",
    "grep -A 1 'disk usage' /data/app.log",
    "grep -B 1 -n declined /data/app.log",
    "grep -C 1 Timeout /data/app.log",
    "grep -rl alice /data | sort",
    "grep -l ERROR /data/app.log /data/users.csv",
    "grep -h alice /data/app.log /data/users.csv",
    "grep -H alice /data/users.csv",
    "grep -m 2 ERROR /data/app.log",
    "grep -- -0.5 /data/nums.txt",
    "grep '' /data/noeol.txt",
    "grep -c '^$' /data/nums.txt",
    "grep '0\\{2\\}' /data/app.log",
    "grep nomatch /data/app.log",
    "cat /data/app.log | grep ERROR | wc -l",
    "grep -q alice /data/users.csv && echo found",
    "grep -ic 'payment failed' /data/app.log",
    "grep '^2024.*WARN' /data/app.log",
    "grep -E '^[0-9]+$' /data/nums.txt",
    # sed
    "sed 's/ERROR/ERR/' /data/app.log",
    "sed -n '2,4p' /data/app.log",
    "sed 1d /data/users.csv",
    "sed -n '/WARN/p' /data/app.log",
    "sed 's/a/A/g' /data/dups.txt",
    "sed -E 's/id=([0-9]+)/#\\1/' /data/app.log",
    "sed 's/\\(user\\)=\\([a-z]*\\)/\\2@\\1/' /data/app.log",
    "sed '/INFO/d' /data/app.log",
    "sed 3q /data/app.log",
    "sed -n '$p' /data/app.log",
    "sed '2i\\inserted' /data/dups.txt",
    "sed '2a appended' /data/dups.txt",
    "sed 'y/abc/xyz/' /data/dups.txt",
    "sed -n '=' /data/noeol.txt",
    "sed '1!G;h;$!d' /data/dups.txt",
    "sed -e 's/a/b/' -e 's/b/c/' /data/dups.txt",
    "sed 's/[0-9]\\+/N/g' /data/nums.txt",
    "sed 's/,/;/2' /data/users.csv",
    "sed -n '/WARN/,/ERROR/p' /data/app.log",
    "sed 's/x*/-/g' /data/noeol.txt",
    "sed 'n;d' /data/dups.txt",
    "sed 'c\\changed' /data/noeol.txt",
    "sed -i 's/a/b/' /data/dups.txt && cat /data/dups.txt",
    "cat /data/app.log | sed -n 's/.*user=\\([a-z]*\\).*/\\1/p' | sort | uniq -c",
]

_PATH = re.compile(r"(?<![\w.])/(data|out)\b")


def missing_commands(line: str) -> list[str]:
    try:
        chain = parse_command_line(line)
    except ParseError:
        return []
    registry = create_command_registry()
    names = {command.argv[0] for item in chain for command in item.pipeline.commands}
    return sorted(name for name in names if not registry.has(name))


async def run_ours(line: str) -> tuple[bytes, int]:
    vfs = MemoryVFS()
    for directory in DIRECTORIES:
        await vfs.mkdir(directory, True)
    for path, text in FILES.items():
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    execution = await runtime.run_detailed(line)
    return execution.stdout, execution.exit_code


def run_gnu(line: str) -> tuple[bytes, int]:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        for directory in DIRECTORIES:
            (root / directory.lstrip("/")).mkdir(parents=True, exist_ok=True)
        for path, text in FILES.items():
            (root / path.lstrip("/")).write_bytes(text.encode("utf-8"))
        command = _PATH.sub(lambda m: f"{temp}/{m.group(1)}", line)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        done = subprocess.run(["bash", "-c", command], cwd=temp, env=env, capture_output=True, timeout=30)
        return done.stdout.replace(temp.encode(), b""), done.returncode


def test_table_is_large_enough():
    assert len(ROWS) >= 80
    assert len(set(ROWS)) == len(ROWS)


@pytest.mark.parametrize("line", ROWS)
def test_matches_gnu(line):
    missing = missing_commands(line)
    if missing:
        pytest.skip(f"not registered yet: {', '.join(missing)}")
    ours = asyncio.run(run_ours(line))
    gnu = run_gnu(line)
    assert ours == gnu, f"{line}\n ours: {ours!r}\n  gnu: {gnu!r}"
