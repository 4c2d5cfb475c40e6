"""Records jq 1.6's behaviour into tests/data/jq_corpus.json.

Each case runs `bash -c LINE` in a throwaway bwrap sandbox whose root holds the case's input
files, and keeps stdout, the exit status and whether stderr was written. Run:
    python tools/record_jq_corpus.py
"""
from __future__ import annotations

import json
import shlex
import subprocess
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "jq_corpus.json"
DOC = json.dumps({"name": "demo", "version": 1.5, "tags": ["a", "b", "c"], "count": 3, "active": True,
                  "nested": {"x": {"y": [1, 2, {"z": "deep"}]}}, "none": None,
                  "items": [{"id": 1, "name": "apple", "price": 1.25, "qty": 3, "kind": "fruit"},
                            {"id": 2, "name": "bread", "price": 2.5, "qty": 1, "kind": "bakery"},
                            {"id": 3, "name": "cherry", "price": 0.1, "qty": 10, "kind": "fruit"}],
                  "text": "Hello, World", "nums": [3, 1, 4, 1, 5, 9, 2, 6], "empty": [], "obj": {}},
                 indent=1)
FILES = {"in.json": DOC + "\n", "stream.json": '1 "two" [3] {"four": 4}\nnull\ntrue\n',
         "lines.txt": "alpha\nbeta\n\ngamma", "bad.json": '{"a": 1}\n{"b": \n', "arr.json": "[1,2,3]",
         "a.json": '{"a": 1, "k": {"x": 1}}', "b.json": '{"b": 2, "k": {"y": 2}}',
         "csv.json": '[["a", 1, null, true, "q\\"t"], ["x\\ty", 2.5, false, "new\\nline", ""]]',
         "num.json": "1.0 100 1e3 0.1 1e17 123456789012 -0 1.5e-7 3.14159265358979 1e1000 -1e-5"}

FILTERS = [
    ".", ".name", ".version", ".tags", ".tags[0]", ".tags[-1]", ".tags[5]", '.["name"]', ".nested.x.y[2].z",
    ".missing", ".missing.deeper", ".tags[1:]", ".tags[:2]", ".tags[-2:]", ".text[0:5]", ".nums[2:4]",
    ".tags[]", ".items[].name", ".items[] | .id", "[.items[] | .price]", ".items | length", ".text | length",
    ".obj | length", ".none | length", ".version | length", "keys", ".items[0] | keys", "keys_unsorted",
    ".tags | keys", "[.[] | type]", "map_values(type)", ".items | map(.name)", ".items | map(select(.price > 1))",
    "[.items[] | select(.kind == \"fruit\") | .name]", ".items | sort_by(.price) | map(.name)",
    ".items | sort_by(.kind, .name) | map(.id)", ".items | group_by(.kind) | map({kind: .[0].kind, n: length})",
    ".items | unique_by(.kind) | map(.name)", ".items | min_by(.price) | .name", ".items | max_by(.qty) | .name",
    ".nums | sort", ".nums | unique", ".nums | min", ".nums | max", ".nums | add", ".tags | add", ".empty | add",
    ".nums | reverse", ".nums | length", ".nums | any(. > 8)", ".nums | all(. > 0)", "[.nums[] | . * 2]",
    ".nums | map(. % 3)", ".nums | map(. / 2)", ".nums | .[0] - .[1]", ".nums | flatten", "[[1,[2]],[[[3]]]] | flatten",
    "[[1,[2]],[[[3]]]] | flatten(1)", ".tags | join(\"-\")", ".tags | join(\", \")", "[1,null,\"a\",true] | join(\"/\")",
    ".text | split(\", \")", ".text | ascii_downcase", ".text | ascii_upcase", ".text | test(\"world\")",
    ".text | test(\"world\"; \"i\")", ".text | match(\"o\")", ".text | [match(\"o\"; \"g\") | .offset]",
    ".text | capture(\"(?<first>\\\\w+), (?<second>\\\\w+)\")", ".text | sub(\"o\"; \"0\")", ".text | gsub(\"o\"; \"0\")",
    ".text | gsub(\"(?<l>[A-Z])\"; \"<\\(.l)>\")", ".text | [scan(\"l+\")]", ".text | startswith(\"Hell\")",
    ".text | endswith(\"x\")", ".text | ltrimstr(\"Hello\")", ".text | rtrimstr(\"World\")", ".text | explode | implode",
    ".text | explode | .[0:3]", ".text | indices(\"o\")", ".text | index(\"o\")", ".text | rindex(\"o\")",
    ".nums | indices(1)", ".nums | index(1)", ".text | [splits(\", *\")]", ".text | utf8bytelength",
    "to_entries | map(.key) | .[0:3]", ".items[0] | to_entries", ".items[0] | with_entries(.value |= tostring)",
    "[{key:\"a\",value:1},{k:\"b\",v:2},{name:\"c\",value:null}] | from_entries", ".items[0] | del(.price)",
    "del(.items, .nested, .nums)", ".items | del(.[0])", ".items | del(.[] | select(.qty < 5))",
    ".items[0] | has(\"id\")", ".items[0] | has(\"nope\")", ".tags | has(1)", ".tags | has(7)",
    "\"a\" | in({\"a\":1})", ".tags | contains([\"a\"])", ".text | contains(\"World\")", "{a:1,b:{c:2}} | contains({b:{c:2}})",
    "[\"a\"] | inside([\"a\",\"b\"])", ".version | tostring", ".tags | tostring", "\"12\" | tonumber",
    ".nums | tojson", ".nums | tojson | fromjson", ".version | floor", "16 | sqrt", "pow(2; 10)", "2 | log",
    "[paths] | length", "[paths(type == \"number\")]", "[leaf_paths] | length", ".nested | [paths]",
    "getpath([\"nested\",\"x\",\"y\",0])", "getpath([\"a\",\"b\"])", "setpath([\"a\",\"b\"]; 1) | .a",
    "delpaths([[\"items\"],[\"nested\"],[\"nums\"]]) | keys", "path(.items[0].name)", "[path(..)] | length",
    "[.. | numbers] | add", "[.. | strings] | length", "[.. | booleans]", "[.. | nulls]", "[.[] | arrays | length]",
    "[.[] | objects | length]", "[.[] | scalars]", "[.[] | iterables | length]", "[.[] | values] | length",
    ".items | first", ".items | last | .id", ".items | nth(1) | .id", "first(.items[])| .name", "last(.nums[])",
    "nth(2; .nums[])", "[limit(3; .nums[])]", "[range(5)]", "[range(2; 10; 3)]", "[range(5; 0; -2)]",
    "[.nums[] | select(. > 3)] | length", "reduce .nums[] as $n (0; . + $n)", "[foreach .nums[] as $n (0; . + $n)]",
    "[foreach .nums[] as $n (0; . + $n; [$n, .])] | .[0:2]", ".items[] as $i | $i.name + \"!\"",
    ". as {name: $n, tags: [$first]} | [$n, $first]", ".items[0] as {$id, $name} | \"\\($id): \\($name)\"",
    "[.items[] | {name, cost: (.price * .qty)}]", "{(.name): .version}", "{a: 1} + {b: 2}", "{a: {b: 1}} * {a: {c: 2}}",
    "[1,2,3,1] - [1]", "\"ab\" * 3", "\"ab\" * 0", "10 / 4", "\"a,b\" / \",\"", "7 % 3", "-7 % 3", "1 / 0",
    "if .count > 2 then \"big\" elif .count > 1 then \"mid\" else \"small\" end", ".none // \"default\"",
    ".missing // .name", "(false, null, 1) // 2", "[.[] | numbers] | length", ".active and .count > 1",
    ".active or false", ".active | not", "try error(\"boom\") catch .", "try (1/0) catch \"div\"", "[.tags[] | try tonumber catch \"nan\"]",
    "[.tags[] | tonumber?]", ".name | tonumber", ".items[0].name.first", ".tags.x", ".text[0]", ".name[]", "{} | .[0]",
    "error(\"custom\")", "error({\"a\":1})", "null | error", "def double: . * 2; .nums | map(double)",
    "def f(x): x + 1; f(.count)", "def f($a; $b): $a * $b; f(3; 4)", "def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac",
    "[recurse(if . < 3 then . + 1 else empty end)] | length", "2 | [recurse(. * .; . < 100)]", "[.nested | recurse | type]",
    "[.nested | ..] | length", "[1,[2,3]] | [.. | numbers]", "[3 | until(. > 100; . * 2)]", "[1 | while(. < 50; . * 3)]",
    "[limit(5; repeat(1))]", "label $out | .nums[] | if . > 4 then ., break $out else . end", "[.nums[] | select(. == 1)] | length",
    "\"\\(.name)-\\(.version)\"", "\"total: \\(.items | map(.qty) | add)\"", "@base64 \"x\\(.name)\"", ".name | @base64",
    ".name | @base64 | @base64d", "[1, \"a b\", null] | @json", ".text | @html", "\"<a href='x'>&</a>\" | @html",
    ".text | @uri", "\"ü/é ?&=\" | @uri", "[1, \"it's\", true] | @sh", ".name | @sh", "[.tags[], 1.5] | @csv",
    "[.tags[], 1.5] | @tsv", ".items | map([.name, .price]) | .[] | @csv", "@text", ".tags | @text", "$ENV | type",
    "env | type", "[splits(\"a\")]", "input", "[inputs]", ".items | map(.price) | add", ".version * 100",
    "1e1000", "-1e1000", "[.1 + .2]", "3.0", "1.5e300 * 1e10", "1/3", "[infinite, -infinite, nan] | map(isinfinite)",
    "nan < 1", "[nan] | sort", "[null, true, false, 0, \"a\", [], {}] | sort", "[{b:1,a:2},{a:1}] | sort",
    "[[2],[1,2],[1]] | sort", "{b:1, a:2} | keys", "\"x\" < \"y\"", "[] == []", "{a:1} == {a:1.0}", "1 == 1.0",
    "[1,2] | .[1.7]", ".nums | .[2:4] = [\"x\"]", ".nums[0] = 100 | .nums[0:2]", ".items[].qty += 1 | [.items[].qty]",
    ".count -= 1 | .count", ".count *= 2 | .count", ".count /= 2 | .count", ".count %= 2 | .count", ".none //= 5 | .none",
    ".items |= length", ".tags |= map(ascii_upcase)", "map_values(length?) | .tags", "[.tags[] |= . + \"!\"] | .[0].tags",
    ".a.b.c = 1 | .a", ".items[5].x = 1 | .items | length", "tostream | select(length == 2) | .[0] | length", "[.tags | tostream]",
    "fromstream(.tags | tostream)", "[1,[2]] | [tostream] | fromstream(.[])", "[\"a\",\"b\"] | combinations(2) | join(\"\")",
    "[[1,2],[3,4]] | [combinations]", "[[1,2],[3]] | transpose", "walk(if type == \"number\" then . + 1 else . end) | .nums",
    "any", "all", "[true, false] | any", "[] | all", "isempty(empty)", "[.tags[] | ascii_downcase] | unique",
    ".items | map(.kind) | unique | length", "[.items[] | .price | floor]", "\"abc\" | .[1:]", "\"héllo\" | length",
    "\"héllo\" | utf8bytelength", "[.[] | length?]", ".[] |= empty", "[.nums[] |= empty] | .[0].nums", "{} | .a.b |= 3",
    "null | [.[]?]", "[.[]?] | length", "{a:(1,2)} | .a", "[(1,2) + (10,20)]", "[(1,2) as $x | $x * 10]",
    ". as [$a, $b] | $a", "[.items[] | .name | length] | add", "def addvalue(f): f as $x | map(. + $x); [[1,2],[10,20]] | addvalue(.[0])",
    "[.[] | tojson | length] | length", "getpath([\"tags\", 0, \"x\"])", "[.nums | limit(0; .[])]", "\"\\u00e9\\t\\u0001\"",
    "\"a\\u0000b\" | length", "\"x\" | test(\"[\")", "ltrimstr(1)", "[1,2] | join(1)", "{a:1} | to_entries | from_entries",
    "[.items[] | {(.name): .id}] | add", "[{a:1},{a:2}] | map(.a) | add / length", "splits", "foo(1)", "$undefined",
    ".[", "if . then 1 end", ".a.[0]", "{a: 1 + 2}", "reduce", "1 as x | x", ". | @nope", "[.[] | select(.)] | length",
    "{a: .name | ascii_upcase}", "{\"k\": -1}", "[.tags[] as $t | {t: $t}] | length", "-(.count)", "[-.nums[]] | .[0]",
    "\"\\(1 + 2)\"", ".\"name\"", ".items[].\"name\"", ".[\"items\"][0][\"id\"]", "[..|.z?] | map(select(. != null))",
    "..|=(if type==\"number\" then 0 else . end) | .nums", "del(..|.id?) | .items[0]", "with_entries(select(.value | type == \"number\"))",
    "to_entries | map(select(.key | startswith(\"n\"))) | from_entries | keys", "paths(..) | select(length > 4)",
    "[.items[] | .name] | index(\"bread\")", "[range(10)] | .[2:-2]", "[range(10)] | .[-3:]", "\"abcdef\" | .[2:-1]",
    "[limit(3; range(1000000000))]", "first(range(10; 0; -1))", "[range(0)]", "input_line_number", "$__loc__",
    "splits(\"x\"; null)", "ascii_downcase", "\"Abc\" | ascii_downcase", "@base64d", "\"YWJj\" | @base64d",
    "\"aGVsbG8gd29ybGQ=\" | @base64d", "\"YQ\" | @base64d", "[1,2,3] | IN(2)", "getpath([])", "[paths] | .[0]",
    "{a:{b:{c:1}}} | [paths]", "{a:{b:{c:1}}} | [leaf_paths]", "[{a:[1]},{a:[2]}] | .[].a[0]", "[1,2,3] | .[1:] |= map(. * 10)",
    "[3,1,2] | sort_by(-.)", "[{n:\"b\"},{n:\"a\"}] | sort_by(.n) | .[0].n", "[1,2,2,3] | group_by(. % 2)",
    "\"test\" | ascii", "[1,[2,[3]]] | getpath([1,1,0])", "\"abc\" | sub(\"(?<x>b)\"; \"[\\(.x)]\")", "\"aaa\" | sub(\"a\"; \"b\"; \"g\")",
    "\"AbC\" | gsub(\"[a-z]\"; \"_\"; \"i\")", "\"a1b22c333\" | [match(\"[0-9]+\"; \"g\") | .string]", "\"abc\" | test(\"B\"; \"ix\")",
    "\"foo bar\" | capture(\"(?<a>\\\\w+) (?<b>\\\\w+)\") | .b", "[\"a\",\"b\"] | index(\"b\")", "\"a-b-c\" | split(\"-\"; null)",
    "\"x\" * 2.5", "{} * {}", "[] + {}", "{} - 1", "\"a\" - \"b\"", "null + 1", "1 + null", "null * 2",
    "[.items[] | select(.name | test(\"^b\"))] | length", "(.items[] | select(.id == 2) | .qty) = 99 | .items[1].qty",
]

FLAG_CASES = [
    ["-c", "."], ["-r", ".name"], ["-r", ".tags[]"], ["-j", ".tags[]"], ["-r", ".items"], ["-c", ".items[0]"],
    ["-S", ".items[0]"], ["-S", "-c", "."], ["--tab", ".items[0]"], ["--indent", "4", ".nested"], ["--indent", "0", ".nested"],
    ["--indent", "9", "."], ["-a", "-c", "\"é😀\""], ["-e", ".none"], ["-e", ".active"], ["-e", "empty"], ["-e", ".missing.x"],
    ["-e", "false, 1"], ["-n", "1 + 1"], ["-n", "[inputs] | length"], ["-n", "input | keys | length"], ["--arg", "v", "hi", "-n", "$v"],
    ["--arg", "v", "5", "-n", "$v | tonumber + 1"], ["--argjson", "v", "{\"x\":[1]}", "-n", "$v.x"], ["--argjson", "v", "{bad", "-n", "$v"],
    ["-n", "--arg", "a", "1", "$ARGS.named"], ["-cn", "[1, {\"a\": 2}]"], ["-rn", "\"a\\tb\""], ["-nr", "[1,2] | @csv"],
    ["-Z", "."], ["--nope", "."], [], ["-n"], ["--arg", "x"], ["-n", "--slurpfile", "s", "stream.json", "$s | length"],
    ["-n", "--rawfile", "r", "lines.txt", "$r"], ["-n", "--slurpfile", "s", "missing.json", "$s"], ["-C", "-n", "1"], ["-M", "-n", "[1]"],
]
STREAM_CASES = [
    ["-c", ".", "stream.json"], ["-c", "type", "stream.json"], ["-s", "-c", ".", "stream.json"], ["-s", "length", "stream.json"],
    [".a", "stream.json"], ["-c", "-n", "[inputs]", "stream.json"], ["-c", "-n", "input, input", "stream.json"],
    ["-c", "[., input]", "stream.json"], ["-R", ".", "lines.txt"], ["-R", "-s", ".", "lines.txt"], ["-R", "-r", "length", "lines.txt"],
    ["-Rn", "[inputs]", "lines.txt"], ["-c", ".", "bad.json"], ["-c", ".", "a.json", "b.json"], ["-s", "-c", "add", "a.json", "b.json"],
    ["-s", "-c", ".[0] * .[1]", "a.json", "b.json"], ["-c", ".", "missing.json"], ["-c", ".", "missing.json", "arr.json"],
    ["-r", ".[] | @csv", "csv.json"], ["-r", ".[] | @tsv", "csv.json"], ["-c", ".", "num.json"], [".", "num.json"],
    ["-c", "map(. * 2)", "arr.json"], ["-e", "length > 5", "arr.json"], ["-s", "-R", "-c", "split(\"\\n\")", "lines.txt"],
    ["-c", ".[] | (1 / .)?", "arr.json"], ["-c", "-s", "map(.a)", "stream.json"], ["-r", ".[]", "arr.json"],
]
PIPE_CASES = [
    ("printf '{\"a\":1}{\"a\":2}' | jq -c .a", {}), ("echo '[1,2,3]' | jq -c 'map(. + 1)'", {}),
    ("echo '\"x\"' | jq -r .", {}), ("printf '' | jq .", {}), ("echo 'nul' | jq .", {}), ("echo '{\"a\":1' | jq .", {}),
    ("echo '1 2 3' | jq -s add", {}), ("echo '[1,2]' | jq '.[] | tostring' | jq -r .", {}),
    ("printf 'a\\nb\\n' | jq -R .", {}), ("printf 'a\\nb\\n' | jq -Rs .", {}), ("echo '{}' | jq '.a.b.c'", {}),
    ("echo '5' | jq '.a'", {}), ("echo '[1]' | jq '.a'", {}), ("echo '\"s\"' | jq '.[0]'", {}), ("echo '{\"a\":1}' | jq '.[0]'", {}),
    ("echo 'true' | jq '.[]'", {}), ("echo '{\"a\":[1,2]}' | jq -c 'del(.a[0])'", {}), ("echo '\"\\u00e9\"' | jq .", {}),
    ("echo '[3,1]' | jq -c 'sort' && echo done", {}), ("echo '{}' | jq 'error(\"x\")' || echo \"status $?\"", {}),
    ("echo '1' | jq -e '. > 5'; echo \"status $?\"", {}), ("echo '{\"b\":1,\"a\":{\"d\":1,\"c\":2}}' | jq -S -c .", {}),
    ("jq -n '\"a\",\"b\"' | wc -l", {}), ("jq -rn '[\"x\",\"y\"][]' | sort -r", {}),
]


def cases() -> list[dict]:
    result = []
    for number, flt in enumerate(FILTERS):
        result.append({"id": f"filter-{number:03d}", "line": "jq -c " + shlex.quote(flt) + " in.json"})
    for number, args in enumerate(FLAG_CASES):
        files = [] if "-n" in args or "-cn" in args or "-rn" in args or "-nr" in args or len(args) < 2 else ["in.json"]
        result.append({"id": f"flags-{number:03d}", "line": shlex.join(["jq", *args, *files])})
    for number, args in enumerate(STREAM_CASES):
        result.append({"id": f"stream-{number:03d}", "line": shlex.join(["jq", *args])})
    for number, (line, _) in enumerate(PIPE_CASES):
        result.append({"id": f"pipe-{number:03d}", "line": line})
    return result


def record(line: str) -> dict:
    with tempfile.TemporaryDirectory() as root:
        for name, text in FILES.items():
            Path(root, name).write_text(text, encoding="utf-8")
        argv = ["bwrap", "--bind", root, "/", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
                "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
                "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
                "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c", line]
        done = subprocess.run(argv, capture_output=True, timeout=30)
    return {"stdout": done.stdout.decode("utf-8", errors="surrogateescape"), "exit_code": done.returncode,
            "stderr": bool(done.stderr)}


def main() -> None:
    recorded = [{**case, **record(case["line"])} for case in cases()]
    OUT.write_text(json.dumps({"files": FILES, "cases": recorded}, indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    print(f"{len(recorded)} cases -> {OUT}")


if __name__ == "__main__":
    main()
