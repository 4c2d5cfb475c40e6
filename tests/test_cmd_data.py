"""json, csv and base64 (their world, shared with the calc, memory and adapters tests, is
in data_world.py)."""
from __future__ import annotations

import base64
import json

import pytest

from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.data.base64 import decode_base64
from onetool_wasm.commands.data.json import parse_json_path
from onetool_wasm.commands.json_text import json_quote, to_json_text

from .data_world import fuzz_command, out, run
from .helpers import conformance_test


# -- json ---------------------------------------------------------------------------------

def test_json_pretty_prints_like_json_stringify_with_final_newline():
    assert out(run("json", "pretty", stdin=b'{"b":2,"a":[1,1.0,1e21,1e-7,-0.0,{}],"c":[],"d":"\\u0001\xc3\xa9"}')) == (
        '{\n  "b": 2,\n  "a": [\n    1,\n    1,\n    1e+21,\n    1e-7,\n    0,\n    {}\n  ],\n'
        '  "c": [],\n  "d": "\\u0001\xe9"\n}\n', "", 0, "application/json")


def test_json_pretty_keeps_document_key_order_and_big_integers():
    assert run("json", "pretty", stdin=b'{"b":1,"2":2,"1":3,"n":123456789012345678901}').stdout == \
        b'{\n  "b": 1,\n  "2": 2,\n  "1": 3,\n  "n": 123456789012345678901\n}\n'


def test_json_pretty_escapes_lone_surrogates_and_accepts_a_bom():
    assert run("json", "pretty", stdin=b'["\\ud800"]').stdout == b'[\n  "\\ud800"\n]\n'
    assert run("json", "pretty", stdin=b"\xef\xbb\xbf[]").stdout == b"[]\n"


def test_json_rejects_what_json_parse_rejects():
    assert out(run("json", "pretty", stdin=b'{"a":NaN}')) == \
        ("", "json pretty: invalid JSON: NaN is not valid JSON", 1, "text/plain")
    assert run("json", "keys", "/t.txt").stderr == \
        "json keys: invalid JSON in /t.txt: Expecting value: line 1 column 1 (char 0)"
    assert run("json", "pretty", stdin=b"[" * 100000).stderr == \
        "json pretty: invalid JSON: nesting is deeper than 512 levels"


def test_json_nesting_up_to_the_limit_round_trips():
    deep = b"[" * 512 + b"]" * 512
    assert run("json", "get", "[0]" * 511, stdin=deep).stdout == b"[]\n"
    assert run("json", "pretty", stdin=deep).stdout.count(b"\n") == 1023
    assert run("json", "pretty", stdin=b'["[[[["]').stdout == b'[\n  "[[[["\n]\n'


def test_json_input_errors():
    assert run("json", "pretty").stderr == "json pretty: no input provided. Usage: see 'help json pretty'"
    assert run("json", "pretty", "/missing").stderr == "json pretty: file not found: /missing. Use: ls /"
    assert run("json", "pretty", "/bin.dat").stderr == "json pretty: binary file (4B): /bin.dat. Use: stat /bin.dat"


def test_json_keys_sort_in_c_locale_order():
    assert out(run("json", "keys", stdin='{"z":1,"ä":2,"a":3,"É":4}'.encode())) == ("a\nz\nÉ\nä\n", "", 0, "text/plain")
    assert run("json", "keys", stdin=b"[1]").stderr == "json keys: input must be a JSON object"


def test_json_get_prints_scalars_as_json_and_strings_raw():
    assert out(run("json", "get", "user.email", "/d.json")) == ("a@x.io\n", "", 0, "text/plain")
    assert run("json", "get", "items[0].ok", "/d.json").stdout == b"true\n"
    assert run("json", "get", "items[1].ok", "/d.json").stdout == b"null\n"
    assert run("json", "get", "items[1].id", "/d.json").stdout == b"2.5\n"
    assert run("json", "get", "items[0].id", "/d.json").stdout == b"1\n"


def test_json_get_containers_are_pretty_json():
    assert out(run("json", "get", "user.tags", "/d.json")) == ('[\n  "x",\n  "y"\n]\n', "", 0, "application/json")
    assert run("json", "get", "", stdin=b"[1]").stdout == b"[\n  1\n]\n"


def test_json_get_indexes_arrays():
    assert run("json", "get", "[1]", stdin=b'["a","b"]').stdout == b"b\n"
    assert run("json", "get", "items[-1].id", "/d.json").stdout == b"2.5\n"
    assert run("json", "get", "items.1.id", "/d.json").stdout == b"2.5\n"
    assert run("json", "get", "[0][1]", stdin=b"[[1,2]]").stdout == b"2\n"


def test_json_get_missing_paths_are_clear_errors():
    hint = ". Inspect with: json pretty /d.json"
    assert run("json", "get", "user.phone", "/d.json").stderr == \
        "json get: path not found: user.phone (missing key: phone)" + hint
    assert run("json", "get", "items[5]", "/d.json").stderr == \
        "json get: path not found: items[5] (index 5 out of range: items has 2 items)" + hint
    assert run("json", "get", "s.x", "/d.json").stderr == \
        "json get: path not found: s.x (s is a string, not an object)" + hint
    assert run("json", "get", "user[0]", "/d.json").stderr == \
        "json get: path not found: user[0] (user is an object, not an array)" + hint
    assert run("json", "get", "a[x]", stdin=b"{}").stderr == \
        "json get: path not found: a[x] (array index must be an integer: [x]). Inspect with: json pretty (on the same input)"
    assert run("json", "get", "a[0", stdin=b"{}").stderr.startswith(
        "json get: path not found: a[0 (malformed path segment: a[0)")


def test_json_usage_errors():
    assert run("json").stderr == "json: usage: json pretty [path] | json keys [path] | json get <field.path> [path]"
    assert run("json", "get").stderr == "json: usage: json get <field.path> [path]"
    assert run("json", "pretty", "/a", "/b").stderr == "json: usage: json pretty [path]"
    assert run("json", "keys", "/a", "/b").stderr == "json: usage: json keys [path]"
    assert run("json", "frob").stderr == "json: unknown subcommand: frob. Use: json pretty | json keys | json get"


def test_huge_numbers_in_arguments_are_handled():
    huge = "9" * 5000
    assert run("json", "get", f"items[{huge}]", "/d.json").stderr.startswith(
        "json get: path not found: items[" + huge + "] (index 1000000000000000 out of range: items has 2 items)")
    assert run("csv", "get", huge, "/u.csv").stderr == "csv get: no column named '" + huge + "'. Columns: id, name, email"
    assert run("csv", "head", "-n", huge, stdin=b"a\n1\n").stdout == b"a\n1\n"
    assert run("base64", "-w", huge, stdin=bytes(100)).stdout.count(b"\n") == 1


def test_json_helpers():
    assert parse_json_path("a.b[0][-2].c") == ["a", "b", 0, -2, "c"]
    assert json_quote('a"\\\n\x1f\u2028') == '"a\\"\\\\\\n\\u001f\u2028"'
    assert to_json_text({1: (True, None)}) == '{\n  "1": [\n    true,\n    null\n  ]\n}'
    assert to_json_text(float("inf")) == "null"
    with pytest.raises(TypeError):
        to_json_text({"a": object()})


# -- csv ----------------------------------------------------------------------------------

def test_csv_cols_and_head():
    assert out(run("csv", "cols", "/u.csv")) == ("id\nname\nemail\n", "", 0, "text/plain")
    assert run("csv", "head", "-n", "1", "/u.csv").stdout == b'id,name,email\n1,"Smith, J",j@x.io\n'
    assert run("csv", "head", "-n2", "/u.csv").stdout == \
        b'id,name,email\n1,"Smith, J",j@x.io\n2,"say ""hi""",h@x.io\n'
    assert run("csv", "head", "-n", "0", stdin=b"a,b\n1,2\n").stdout == b"a,b\n"
    assert run("csv", "head", "/u.csv").stdout.count(b"\n") == 5  # header + 3 records, one spans 2 lines


def test_csv_get_by_name_or_column_number():
    assert run("csv", "get", "name", "/u.csv").stdout == b'Smith, J\nsay "hi"\ntwo\nlines\n'
    assert run("csv", "get", "3", "/u.csv").stdout == b"j@x.io\nh@x.io\nm@x.io\n"
    assert run("csv", "get", "b", stdin=b"a,b\n1\n2,3\n").stdout == b"\n3\n"
    assert run("csv", "get", "Email", "/u.csv").stderr == "csv get: no column named 'Email'. Columns: id, name, email"


def test_csv_to_json():
    result = run("csv", "to-json", stdin=b"a,b,a\n1,2,3\n4\n")
    assert result.content_type == "application/json"
    assert json.loads(result.stdout) == [{"a": "1", "b": "2", "a_2": "3"}, {"a": "4", "b": "", "a_2": ""}]
    assert run("csv", "to-json", stdin=b"a,b\n").stdout == b"[]\n"
    assert json.loads(run("csv", "to-json", stdin=b"a,a_2,a\n1,2,3\n").stdout) == [{"a": "1", "a_2": "2", "a_3": "3"}]


def test_csv_errors():
    assert run("csv").stderr == ("csv: usage: csv head [-n N] [path] | csv cols [path] | "
                                 "csv get <column> [path] | csv to-json [path]")
    assert run("csv", "zap").stderr == "csv: unknown subcommand: zap. Use: csv head | csv cols | csv get | csv to-json"
    assert run("csv", "get").stderr == "csv get: usage: csv get <column> [path]"
    assert run("csv", "cols", "/a", "/b").stderr == "csv cols: usage: csv cols [path]"
    assert run("csv", "get", "a", "/a", "/b").stderr == "csv get: usage: csv get <column> [path]"
    assert run("csv", "head", "-n", "x").stderr == \
        "csv head: -n needs a non-negative integer, got 'x'. Usage: csv head [-n N] [path]"
    assert run("csv", "cols", stdin=b"\n\n").stderr == "csv cols: no header row: stdin is empty"
    assert run("csv", "cols").stderr == "csv cols: no input provided. Usage: see 'help csv'"
    assert run("csv", "cols", "/missing").stderr == "csv cols: file not found: /missing. Use: ls /"
    assert run("csv", "cols", stdin=b'a,b\n"x"y,2\n').stderr == (
        "csv cols: malformed CSV at line 2: ',' expected after '\"'. "
        "Quote fields that hold commas, quotes or newlines (\"a,b\", \"say \"\"hi\"\"\")")


# -- base64 -------------------------------------------------------------------------------

def test_base64_encodes_wrapped_at_76_like_gnu():
    data = bytes(range(100))
    encoded = base64.b64encode(data).decode()
    assert out(run("base64", stdin=data)) == (encoded[:76] + "\n" + encoded[76:] + "\n", "", 0, "text/plain")
    assert run("base64", "-w", "0", stdin=data).stdout == encoded.encode()  # GNU: no final newline
    assert run("base64", "--wrap=8", stdin=b"hello").stdout == b"aGVsbG8=\n"
    assert run("base64", "/bin.dat").stdout == b"AAECAw==\n"


def test_base64_decode_text_and_binary():
    assert out(run("base64", "-d", stdin=b"aGVs\nbG8K\n")) == ("hello\n", "", 0, "text/plain")
    result = run("base64", "--decode", stdin=b"AAECAw==")
    assert (result.stdout, result.content_type) == (b"\x00\x01\x02\x03", "application/octet-stream")
    assert run("base64", "-d", stdin=b"aGk").stdout == b"hi"  # padding may be missing
    assert run("base64", "-d", stdin=b"-_8").stdout == b"\xfb\xff"  # URL-safe alphabet


def test_base64_errors():
    assert run("base64").stderr == "base64: no input provided. Usage: see 'help base64'"
    assert run("base64", "-d", stdin=b"%%").stderr == \
        "base64: invalid input: unexpected character '%'. Decode only base64 text; to encode, drop -d"
    assert run("base64", "-d", stdin=b"ab=c").stderr.startswith("base64: invalid input: '=' padding in the middle")
    assert run("base64", "-d", stdin=b"abcde").stderr.startswith("base64: invalid input: truncated input")
    assert run("base64", "-x").stderr == "base64: unknown option: -x. Usage: base64 [-d] [-w COLS] [path]"
    assert run("base64", "-w", "z").stderr == "base64: invalid wrap size: 'z'. Usage: base64 [-d] [-w COLS] [path]"
    assert run("base64", "/a", "/b").stderr == "base64: extra operand: /b. Usage: base64 [-d] [-w COLS] [path]"


def test_decode_base64_round_trips():
    assert decode_base64(base64.b64encode(bytes(range(256)))) == bytes(range(256))


def test_data_commands_through_the_runtime():
    from .helpers import run_line
    assert run_line("echo hello | base64 | base64 -d") == "hello\n\n[exit:0 | 0ms]"
    assert run_line("echo AAECAw== | base64 -d").startswith(
        "[error] command produced binary output that should not be sent to the model.")
    assert run_line("echo '{\"a\":{\"b\":[true]}}' | json get a.b[0]") == "true\n\n[exit:0 | 0ms]"


# -- metadata, conformance and fuzzing ----------------------------------------------------

def test_specs_metadata():
    registry = create_command_registry()
    for name in ("json", "csv", "base64"):
        spec = registry.get(name)
        assert (spec.group, spec.kind, spec.accepts_stdin) == ("data", "read", True)
        assert spec.help_text().startswith(f"{name}: {spec.summary}\nUsage: {spec.usage}\n\n")
        assert "\nExamples:\n  " in spec.details


test_conformance = conformance_test("json", "csv", "base64")


VOCAB = {"json": ["pretty", "keys", "get", "user.email", "items[0].id", "[0]", "a[", "[x]", "..", "items.9"],
         "csv": ["head", "cols", "get", "to-json", "-n", "-n3", "id", "name", "3", "0"],
         "base64": ["-d", "--decode", "-w", "-w0", "--wrap=4", "--", "-x"]}


@pytest.mark.parametrize("name", sorted(VOCAB))
def test_fuzzed_arguments_never_crash(name):
    fuzz_command(name, VOCAB[name])
