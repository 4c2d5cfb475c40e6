"""Records how the real ripgrep answers agent-style command lines: tests/data/rg_corpus.json.

Every case runs in a fresh copy of a small repository-like tree (TREE below, seeded at
/repo) inside a bubblewrap sandbox whose root filesystem is a temporary folder: only /usr
comes from the host, read-only. The command line runs under `bash -c` in /repo with
LC_ALL=C. Each `rg` word that starts a command gets `--sort path` added, so the order of
files is stable (ripgrep's parallel walk is not); our rg always searches in path order.

    python tools/record_rg_corpus.py       # record and write tests/data/rg_corpus.json
"""
from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "rg_corpus.json"
ROOT = "/repo"

TREE: dict[str, str] = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config": "[core]\n\tbare = false\nTODO in git config\n",
    ".gitignore": "*.log\nbuild/\n/secret.txt\n!keep.log\n# a comment\n*.min.js\ndocs/**/*.bak\n",
    ".ignore": "vendor/\n",
    ".rgignore": "*.tmp\n",
    ".env": "TOKEN=abc\n# TODO hidden setting\n",
    "README.md": "# Demo project\n\nRun `make` to build.\nTODO: write docs\nSee docs/guide.md for more.\n",
    "noeol.txt": "first line\nlast line without newline TODO",
    "config.json": '{\n  "name": "demo",\n  "debug": true,\n  "level": 3\n}\n',
    "config.yaml": "name: demo\ndebug: true\nitems:\n  - foo\n  - bar\n",
    "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
    "index.html": "<html>\n<body>\n<p>Hello foo</p>\n</body>\n</html>\n",
    "style.css": "body { color: red; }\n.foo { margin: 0; }\n",
    "debug.log": "error: something failed\nTODO ignored log\n",
    "keep.log": "error: kept log\n",
    "secret.txt": "password=hunter2 TODO\n",
    "cache.tmp": "TODO temp\n",
    "data.bin": "head\x00\x01\x02TODO binary foo\n",
    "build/out.js": "function built() { return 'foo'; } // TODO\n",
    "vendor/lib.py": "def vendored():\n    return 'foo'  # TODO\n",
    "docs/guide.md": "# Guide\n\nUse foo() to start.\nThe FOO flag is loud.\nfoobar is not foo.\n",
    "docs/notes.txt": "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n",
    "src/main.py": ("import os\nimport sys\n\n\ndef main():\n    # TODO: parse args\n"
                    "    print(\"hello foo\")\n    return 0\n\n\nif __name__ == \"__main__\":\n"
                    "    sys.exit(main())\n"),
    "src/util.py": ("def add(a, b):\n    return a + b\n\n\ndef foo_bar(x):\n    # FIXME: slow\n"
                    "    return [i * 2 for i in range(x)]\n\n\nclass Foo:\n    value = 42\n"),
    "src/app.js": ("const foo = require('foo');\n// TODO: remove\nfunction run() {\n"
                   "  console.log('error: none');\n  return foo(1, 2);\n}\nmodule.exports = run;\n"),
    "src/types.ts": "export interface Foo {\n  id: number;\n  name: string;\n}\n",
    "src/lib.rs": ("pub fn foo() -> u32 {\n    // TODO: real value\n    42\n}\n\n"
                   "#[cfg(test)]\nmod tests {\n    #[test]\n    fn it_works() { assert_eq!(super::foo(), 42); }\n}\n"),
    "src/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"foo\") // TODO\n}\n",
    "src/Main.java": "public class Main {\n  public static void main(String[] a) {\n    System.out.println(\"foo\");\n  }\n}\n",
    "src/x.c": "#include \"x.h\"\nint foo(void) { return 1; } /* TODO */\n",
    "src/x.h": "int foo(void);\n",
    "src/x.cpp": "#include <vector>\nint bar() { return 2; }\n",
    "src/run.sh": "#!/bin/sh\necho foo\n# TODO: quote \"$1\"\n",
    "src/secret.txt": "not ignored: anchored pattern TODO\n",
    "src/.hidden/h.py": "# TODO hidden module\n",
    "src/nested/deep/mod.py": "def deep():\n    return 'foo'  # TODO deep\n",
    "src/sub/.gitignore": "gen_*.py\n",
    "src/sub/gen_a.py": "# generated TODO\n",
    "src/sub/real.py": "# real TODO\nvalue = 'foo'\n",
    "docs/unicode.txt": "caf\xc3\xa9 na\xc3\xafve\nStra\xc3\x9fe foo\nplain\n",
    "docs/crlf.txt": "one\r\ntwo foo\r\n",
    "docs/old/x.bak": "TODO old backup\n",
    "empty.txt": "",
    "lib/tool.js": "export const tool = 'foo';\n",
    "lib/tool.min.js": "var a='foo';/* TODO */\n",
    "src/sub/.ignore": "!gen_b.py\n",
    "src/sub/gen_b.py": "# gen b TODO\n",
    "tests/test_main.py": "from src.main import main\n\n\ndef test_main():\n    assert main() == 0\n",
}

# Command lines; `rg` starting a command gets `--sort path` added by `with_sort`.
CASES: list[str] = [
    # basics, default recursive search of the working directory
    "rg TODO", "rg -n TODO", "rg foo", "rg -n foo", "rg -N foo", "rg nomatch", "rg -n 'def '",
    "rg -n TODO src", "rg TODO src/main.py", "rg -n TODO src/main.py", "rg TODO src/main.py src/util.py",
    "rg -n foo ./src", "rg foo src/", "rg -n TODO . ", "rg TODO docs README.md",
    "rg -H foo src/main.py", "rg --no-filename foo src", "rg -I foo src",
    # case
    "rg -i foo docs", "rg -n -i FOO", "rg -S foo docs", "rg -S Foo", "rg -s FOO docs",
    "rg --ignore-case todo src/main.py", "rg -i -s foo docs", "rg -s -i FOO docs",
    "rg --smart-case FOO", "rg -S 'f[O]o' docs",
    # fixed strings, words, lines, invert
    "rg -F 'foo()' docs", "rg -F '[package]'", "rg '[package]' Cargo.toml", "rg -F -n '.' src/x.h",
    "rg -w foo", "rg -n -w foo docs", "rg -x 'int foo(void);'", "rg -x foo", "rg -v foo docs/guide.md",
    "rg -n -v a docs/notes.txt", "rg -v -c foo src", "rg -c -v zzz docs",
    "rg -e foo -e bar src", "rg -e TODO -e FIXME -n", "rg -n -e '^def' -e '^class' src",
    "rg --regexp=TODO src/main.py", "rg -F -e 'a + b' -e 'i * 2' src",
    # counts and listings
    "rg -c TODO", "rg -c foo src", "rg --count-matches foo", "rg --count-matches o docs/guide.md",
    "rg -c foo src/util.py", "rg -c nomatch src", "rg -l TODO", "rg -l foo src", "rg --files-with-matches foo docs",
    "rg --files-without-match TODO", "rg --files-without-match foo src", "rg -l nomatch",
    "rg -c -i foo docs/guide.md", "rg -l -w foo",
    # only matching, replace
    "rg -o foo", "rg -on 'fo+' docs", "rg -o '[A-Z]+' README.md", "rg -o -i 'foo\\w*' docs",
    "rg -o '\\d+' src/util.py", "rg -r BAR foo docs", "rg -r BAR -o foo src", "rg -n -r '[$0]' foo docs",
    "rg -r '$1-$2' '(\\w+)=(\\w+)' .env", "rg --hidden -r '${1}_x' '(TOKEN)' ", "rg --replace=X 'o' docs/guide.md",
    "rg -r '' foo docs/guide.md", "rg -r '$name' '(?P<name>f\\w+)' docs", "rg -o -r '<$0>' '\\bf\\w+' docs",
    # context and max count
    "rg -A 1 gamma docs/notes.txt", "rg -B 2 gamma docs/notes.txt", "rg -C 1 -n 'beta|zeta' docs/notes.txt",
    "rg -C1 eta docs", "rg -A1 TODO src", "rg -n -B1 TODO src", "rg -n -C 2 main src/main.py",
    "rg -m 1 TODO", "rg -m1 -n foo docs src", "rg -m 2 a docs/notes.txt", "rg -m 1 -c a docs",
    "rg --max-count 1 -l TODO", "rg -m 0 foo docs", "rg -m 1 -A 2 a docs/notes.txt",
    "rg --context=1 delta docs/notes.txt", "rg --after-context 1 -n zeta docs", "rg --before-context=1 alpha docs",
    # globs and types
    "rg -g '*.py' TODO", "rg -g '*.py' -g '*.rs' foo", "rg -g '!*.py' TODO", "rg -g '!src' TODO",
    "rg -g 'src/*.py' foo", "rg -g '**/deep/*' foo", "rg -g '*.log' error", "rg -g '*.tmp' TODO",
    "rg -g 'secret.txt' TODO", "rg --glob '*.md' -n TODO", "rg -g '!*.md' -g '!*.py' -l foo",
    "rg -g '*.{py,js}' TODO", "rg -g 'main.*' -l .", "rg -g '!nested' -l foo src", "rg -g '[a-c]*' -l .",
    "rg --iglob '*.PY' -l TODO", "rg -g '.env' TOKEN", "rg -g 'vendor/**' foo",
    "rg -t py TODO", "rg -t js -t ts foo", "rg -T py TODO", "rg -tpy -n foo", "rg -t rust foo",
    "rg -t go -t java foo", "rg -t c foo", "rg -t cpp -l .", "rg -t sh foo", "rg -t json name",
    "rg -t yaml demo", "rg -t toml demo", "rg -t html foo", "rg -t css foo", "rg -t txt -l .",
    "rg -t md foo", "rg --type py -c foo", "rg --type-not md -l foo", "rg -t nosuchtype foo",
    "rg --type-list | grep -E '^(py|js|ts|json|md|rust|go|java|c|cpp|sh|yaml|toml|html|css|txt):'",
    # files, hidden, ignores
    "rg --files", "rg --files src", "rg --files -g '*.py'", "rg --files -t md", "rg --files --hidden",
    "rg --files -u", "rg --files -uu", "rg --files --no-ignore", "rg --files --max-depth 1",
    "rg --files --max-depth 2 src", "rg --files docs README.md", "rg --files -0 docs",
    "rg --hidden TODO", "rg --hidden -l TODO", "rg -u TODO", "rg -uu -l TODO", "rg -uuu -l TODO",
    "rg --no-ignore -l TODO", "rg --no-ignore --hidden -l foo", "rg -l TODO src/sub", "rg -l TODO src/sub/gen_a.py",
    "rg TODO secret.txt", "rg TODO debug.log .env", "rg --max-depth 1 -l TODO", "rg --max-depth 0 TODO",
    "rg --max-depth 2 -l foo", "rg -L -l foo src", "rg --follow -c TODO docs",
    "rg -l -0 foo docs src", "rg -c -0 foo docs",
    # binary
    "rg TODO data.bin", "rg -c TODO data.bin", "rg -a TODO data.bin", "rg -l binary", "rg --binary -l binary",
    "rg -uuu binary", "rg -l head data.bin",
    # regex syntax
    "rg -n '^def' src", "rg -n 'foo$' docs", "rg 'fo{2}' docs", "rg '\\bfoo\\b' -n docs", "rg '\\s+return' src",
    "rg '(?i)todo' src/main.py", "rg -n '[[:upper:]]{3}' docs", "rg 'a|e' -c docs", "rg '^$' -c src/main.py",
    "rg '\\.' src/x.h", "rg 'x\\.h' src", "rg -n 'f.o' docs/guide.md", "rg -o 'fo*?' docs/guide.md",
    "rg 'o(?:ob|o)' -o docs/guide.md", "rg '\\x41' README.md", "rg '\\t' src/main.go", "rg -c '\\S+' docs",
    "rg '[^a-z ]+' -o docs/guide.md", "rg '\\Dfoo' docs", "rg '(?P<x>foo)' -l", "rg '\\pL+' -c docs/notes.txt",
    "rg 'foo(' docs", "rg '(?<=f)oo' docs", "rg '(a)\\1' docs", "rg '[z-a]' docs", "rg 'a{2,1}' docs",
    "rg '\\n' docs", "rg 'x{1000000}' docs", "rg '' -c docs/notes.txt", "rg -F '' -c docs",
    # multiline
    "rg -U 'alpha\\nbeta' docs", "rg -U -n 'gamma\\ndelta' docs/notes.txt", "rg -U -c 'a\\nb' docs/notes.txt",
    "rg -U -l 'def \\w+\\(\\):\\n' src", "rg -U -o 'eta\\nth' docs/notes.txt", "rg --multiline 'x\\s+y' docs",
    # json
    "rg --json gamma docs/notes.txt | sed -E 's/\"(secs|nanos)\":[0-9]+/\"\\1\":0/g; s/\"human\":\"[^\"]*\"/\"human\":\"0s\"/g'",
    "rg --json -n foo docs | sed -E 's/\"(secs|nanos)\":[0-9]+/\"\\1\":0/g; s/\"human\":\"[^\"]*\"/\"human\":\"0s\"/g'",
    "rg --json -C1 delta docs/notes.txt | sed -E 's/\"(secs|nanos)\":[0-9]+/\"\\1\":0/g; s/\"human\":\"[^\"]*\"/\"human\":\"0s\"/g'",
    "rg --json nomatch docs | sed -E 's/\"(secs|nanos)\":[0-9]+/\"\\1\":0/g; s/\"human\":\"[^\"]*\"/\"human\":\"0s\"/g'",
    "rg --json TODO | grep -c '\"type\":\"match\"'", "rg --json '\"' config.json | grep '\"type\":\"match\"'",
    # stdin, operands, errors
    "printf 'a foo\\nb\\n' | rg foo", "printf 'a foo\\nb\\n' | rg -n foo -", "printf 'x\\n' | rg foo",
    "echo hello | rg -c l", "printf 'one\\ntwo\\n' | rg -v one", "cat docs/notes.txt | rg -n eta",
    "rg foo nosuch.txt", "rg foo nosuch.txt docs/guide.md", "rg -s foo nosuch docs/guide.md",
    "rg", "rg --nosuchflag foo", "rg -A", "rg -m x foo docs", "rg -n -- -foo docs", "rg -e -n docs",
    "rg foo docs/guide.md; echo status=$?", "rg zzz docs; echo status=$?", "rg zzz nosuch; echo status=$?",
    "rg -q foo docs; echo $?", "rg -q zzz docs; echo $?", "rg --quiet TODO; echo $?",
    "cd src && rg -l TODO", "cd src && rg -n foo ../docs", "cd docs && rg --files", "cd src/sub && rg -l TODO",
    "rg -l TODO src/sub/..", "rg -n -w -i foo docs src/util.py", "rg -c . docs/notes.txt",
    "rg -o -c foo docs", "rg -lc foo docs", "rg -n -o -w 'foo' docs src",
    "rg --sort-files -l foo", "rg -n 'TODO' --no-heading src/main.py", "rg --no-line-number TODO src",
    "rg --line-number TODO src/main.py", "rg --color never TODO src", "rg --heading -n TODO src",
    "rg -ni todo src | head -3", "rg -l foo | wc -l", "rg --files | sort -r | head -3", "rg -c foo | sort -t: -k2 -n",
    # more edges
    "rg -l TODO lib docs", "rg --files lib", "rg -u --files lib docs", "rg -l TODO src/sub",
    "rg --files src/sub", "rg -c foo docs/crlf.txt", "rg -n 'foo$' docs/crlf.txt", "rg -o 'two \\w+' docs/crlf.txt",
    "rg -n 'caf' docs", "rg -o 'na.ve' docs/unicode.txt", "rg -i 'STRA' docs/unicode.txt", "rg -c '\\w+' docs/unicode.txt",
    "rg -w 'na' docs/unicode.txt", "rg -x plain docs", "rg -x -F plain docs/unicode.txt", "rg -c '' empty.txt",
    "rg -v x empty.txt", "rg --files-without-match foo docs", "rg -m 1 -v a docs/notes.txt", "rg -v -n -m 2 e docs/notes.txt",
    "rg -n -A 1 -m 1 a docs/notes.txt", "rg -C 1 -v e docs/notes.txt", "rg -o -v alpha docs/notes.txt",
    "rg -n -r X -C1 gamma docs/notes.txt", "rg --heading -C1 gamma docs", "rg --heading -c foo docs src/x.h",
    "rg -0 -n foo docs", "rg -0 -A1 gamma docs", "rg -H -n gamma docs/notes.txt", "rg -I -l foo docs",
    "rg -w 'foo()' docs", "rg -w -o 'fo*' docs/guide.md", "rg -F -w foo -e bar src/x.cpp docs/guide.md",
    "rg -e '' -c docs/notes.txt", "rg -F -x -e alpha -e beta docs/notes.txt",
    "printf 'foo\\nbar\\n' > /tmp/p.txt; rg -f /tmp/p.txt -c src", "printf 'gamma\\n' | rg -f - docs/notes.txt",
    "printf 'x foo\\n' | rg -H foo", "printf 'x foo\\n' | rg -n foo - docs/guide.md", "printf 'a\\0b foo\\n' | rg foo",
    "printf 'a foo\\n' | rg --json foo | head -2", "rg -U '^beta\\ngamma$' -n docs/notes.txt", "rg -U -c '(?s)alpha.*delta' docs/notes.txt",
    "rg -U 'zeta\\neta' --json docs/notes.txt | grep -c match", "rg -U -v 'a\\nb' -c docs/notes.txt",
    "rg '(?x) f o o  # spaced' docs/guide.md", "rg '(?i:F)oo' docs/guide.md", "rg 'a(?-i)B' -i docs", "rg '[[:^alpha:] ]+' -o docs/notes.txt",
    "rg '[a-c&&b]' docs", "rg '\\d{2,}' src", "rg '\\x{41}' docs", "rg 'fo+?b' -o docs/guide.md", "rg '(foo|foobar)' -o docs/guide.md",
    "rg '(?:a|ab)+c' docs", "rg '(a+)+$' docs", "rg '(\\w+\\s?)*$' -c docs/notes.txt", "rg -S '\\S+foo' docs",
    "rg -S 'Foo' -i docs", "rg -s -S foo docs", "rg -r '$2' '(f)(o+)' -o docs/guide.md", "rg -r '$$' o -o docs/guide.md",
    "rg -r '${1}s' '(?P<w>fo+)' docs/guide.md", "rg -r '$w' '(?P<w>fo+)' docs/guide.md", "rg -r '$9' 'fo+' docs/guide.md",
    "rg -g '*.bak' -l TODO", "rg -g '!*.js' --files lib", "rg -g 'lib/*' --files", "rg -g '**/*.md' --files",
    "rg -g '*.MD' --files", "rg --iglob '*.MD' --files", "rg -g 'docs' --files", "rg -g '!docs/' --files",
    "rg -t js --files", "rg -T js -T py --files", "rg -t py -g '!*util*' -l foo", "rg -g '*.py' -t js -l foo",
    "rg --hidden --files src", "rg --files src/.hidden", "rg -l TODO src/.hidden", "rg --hidden -g '!.git' --files",
    "rg --max-depth 1 --files src", "rg --max-depth=3 -l TODO src", "rg -d 1 --files", "rg --no-ignore --files lib",
    "cd docs && rg -l foo ..", "cd lib && rg -l foo", "cd src/sub && rg --files", "cd / && rg -l TODO repo/docs",
    "rg -c foo src docs --sort path", "rg --files nosuch", "rg foo docs nosuch -l", "rg -l foo README.md nosuch.md",
    "rg -A -1 foo docs", "rg -C x foo docs", "rg --max-depth x --files", "rg -t", "rg --type-add 'x:*.x' foo",
    "rg -P 'a' docs", "rg --pcre2 a docs", "rg -e", "rg -F", "rg --files -q; echo $?", "rg -q nomatch; echo $?",
    "rg -c foo -m 1 docs/guide.md", "rg --count-matches -v foo docs/guide.md", "rg --count-matches -m 1 foo docs/guide.md",
    "rg -lv foo docs", "rg -n '' empty.txt docs/crlf.txt", "rg . noeol.txt", "rg -n -o line noeol.txt", "rg -c line noeol.txt",
    "rg -v first noeol.txt", "rg --json line noeol.txt | grep '\"type\":\"match\"'", "rg -A 5 first noeol.txt", "rg -n 'e$' noeol.txt docs/notes.txt",
    ": > e.pat; rg -f e.pat docs; echo $?", "echo x | rg --files docs", "rg -e foo --files-without-match -q docs; echo $?",
]


def with_sort(line: str) -> str:
    """Add `--sort path` to each `rg` that starts a command (start of line, after | ; &&)."""
    return re.sub(r"(^|\| |; |&& )rg( |$)", r"\1rg --sort path\2", line)


def seed(root: Path) -> None:
    for name, text in TREE.items():
        path = root / "repo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("latin-1"))


def record(line: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        seed(Path(tmp))
        argv = ["bwrap", "--bind", tmp, "/", "--ro-bind", "/usr", "/usr",
                "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
                "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
                "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", ROOT,
                "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c", line]
        done = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    return {"stdout": done.stdout.decode("latin-1"), "stderr": done.stderr.decode("latin-1"),
            "exit_code": done.returncode}


def main() -> None:
    cases = []
    for number, raw in enumerate(CASES, 1):
        line = with_sort(raw)
        cases.append({"id": f"rg-{number:03d}", "line": line, **record(line)})
    OUT.write_text(json.dumps({"root": ROOT, "tree": TREE, "cases": cases}, indent=1) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
