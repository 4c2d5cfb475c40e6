"""grep: GNU grep's behaviour in the C locale over the VFS (docs/DIFFERENCES.md, items 12 and 13)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from onetool_wasm.commands import create_command_registry

from .helpers import (call, check_no_crash, command_context, conformance_test, examples, fuzz_settings, random_args,
                      random_stdin, run_line)

USAGE = "grep [-i] [-v] [-c] [-n] [-F] [-E] [-o] [-w] [-x] [-q] <pattern> [path]"
WORLD = {
    "/logs/app.log": b"INFO start\nERROR db down\nWARN slow\nERROR timeout\nINFO done\n",
    "/logs/other.log": b"error lower\nfine\n",
    "/src/a.py": b"# TODO fix\nprint(1)\n",
    "/src/sub/b.py": b"# TODO again\n",
    "/src/sub/c.txt": b"TODO text\n",
    "/src/B.py": b"TODO upper\n",
    "/notes.txt": b"alpha\nbeta\n\ngamma delta\nfoo_bar\nfoo-bar\n",
    "/noeol.txt": b"one\ntwo",
    "/img.bin": b"\x00\x01TODO\x02",
    "/.system/cmd-output/cmd-0001.txt": b"TODO spilled\n",
}


def grep(*args, stdin=b"", world=WORLD):
    return call("grep", args, files=world, stdin=stdin)


def out(*args, **kw):
    result = grep(*args, **kw)
    return result.stdout.decode(), result.exit_code


# -- basics and upstream's recorded behaviour -------------------------------------------------
def test_lines_end_with_a_newline_so_pipelines_count_every_line():
    assert out("ERROR", "/logs/app.log") == ("ERROR db down\nERROR timeout\n", 0)
    assert run_line("cat /logs/app.log | grep ERROR | wc -l", vfs=_vfs()).startswith("2")


def _vfs():
    return command_context(WORLD).vfs


def test_unterminated_last_line_gains_a_newline():
    assert out("two", "/noeol.txt") == ("two\n", 0)
    assert out("-v", "one", "/noeol.txt") == ("two\n", 0)


def test_exit_status_follows_gnu():
    assert out("missing", "/notes.txt") == ("", 1)
    assert out("-q", "alpha", "/notes.txt") == ("", 0)
    assert out("-q", "zzz", "/notes.txt") == ("", 1)
    result = grep("(", "/notes.txt", "-E")
    assert (result.stderr, result.exit_code) == ("grep: invalid regex: Unmatched ( or \\(", 2)


def test_usage_errors_keep_upstreams_wording():
    assert grep().stderr == f"grep: usage: {USAGE}"
    assert grep("-n").stderr == f"grep: missing pattern. Usage: {USAGE}"
    assert grep("-Z", "x").stderr == f"grep: unknown option: -Z. Usage: {USAGE}"
    assert grep("--frobnicate", "x").stderr == f"grep: unknown option: --frobnicate. Usage: {USAGE}"
    assert grep("-A", "x", "y").stderr == f"grep: invalid number for -A: x. Usage: {USAGE}"
    assert "use -E" in grep("-P", "\\d").stderr
    assert grep("x").stderr == "grep: no input provided. Usage: see 'help grep'"


def test_counts_quiet_and_flags_from_the_recorded_subset():
    assert out("-c", "refund", stdin=b"refund a\nrefund b\nskip\n") == ("2\n", 0)
    assert out("-i", "-n", "error", "/logs/app.log") == ("2:ERROR db down\n4:ERROR timeout\n", 0)
    assert out("-F", "-o", "O", stdin=b"TODO\n") == ("O\nO\n", 0)
    assert out("-x", "beta", "/notes.txt") == ("beta\n", 0)
    assert out("-w", "foo", "/notes.txt") == ("foo-bar\n", 0)
    assert out("-in", "ALPHA", "/notes.txt") == ("1:alpha\n", 0)


def test_c_locale_bytes():
    data = "É\né\nE\ne\n".encode()
    assert out("^.$", stdin=data) == ("E\ne\n", 0)
    assert out("-i", "é", stdin=data) == ("é\n", 0)
    assert out("-F", "-i", "é", stdin=data) == ("é\n", 0)


# -- docs/DIFFERENCES.md item 13: BRE by default, -E, -e, -r, -- --------------------------------------------
def test_basic_regular_expressions_by_default():
    assert out("ERROR\\|WARN", "/logs/app.log")[0] == "ERROR db down\nWARN slow\nERROR timeout\n"
    assert out("\\(ERROR\\) \\(db\\)", "/logs/app.log")[0] == "ERROR db down\n"
    assert out("-o", "E\\{1\\}R\\{2\\}", "/logs/app.log")[0] == "ERR\nERR\n"
    assert out("ERROR|WARN", "/logs/app.log") == ("", 1)  # `|` is a literal in BRE
    assert out("-E", "ERROR|WARN", "/logs/app.log")[0] == "ERROR db down\nWARN slow\nERROR timeout\n"


def test_e_patterns_repeat_and_double_dash_ends_options():
    assert out("-e", "alpha", "-e", "gamma", "/notes.txt")[0] == "alpha\ngamma delta\n"
    assert out("-e", "-bar", "/notes.txt")[0] == "foo-bar\n"
    assert out("--", "-bar", "/notes.txt")[0] == "foo-bar\n"
    assert out("--regexp=beta", "/notes.txt")[0] == "beta\n"


def test_pattern_file():
    world = {**WORLD, "/pats": b"alpha\nbeta\n"}
    assert out("-f", "/pats", "/notes.txt", world=world)[0] == "alpha\nbeta\n"
    assert out("-f", "/empty", "/notes.txt", world={**WORLD, "/empty": b""}) == ("", 1)
    assert grep("-f", "/nope", "/notes.txt").stderr == "grep: pattern file not found: /nope. Use: ls /"


def test_help_option_prints_the_help_entry():
    assert out("--help")[0].startswith("grep: Filter lines by pattern.") and out("--help")[1] == 0


def test_options_may_follow_operands():
    assert out("ERROR", "/logs/app.log", "-c") == ("2\n", 0)


def test_empty_pattern_matches_every_line():
    assert out("-c", "", "/notes.txt") == ("6\n", 0)


# -- several files, recursion ---------------------------------------------------------------------
def test_several_files_are_prefixed_with_their_paths():
    assert out("-i", "error", "/logs/app.log", "/logs/other.log")[0] == (
        "/logs/app.log:ERROR db down\n/logs/app.log:ERROR timeout\n/logs/other.log:error lower\n")
    assert out("-h", "-i", "lower", "/logs/app.log", "/logs/other.log")[0] == "error lower\n"
    assert out("-H", "beta", "/notes.txt")[0] == "/notes.txt:beta\n"
    assert out("-c", "ERROR", "/logs/app.log", "/logs/other.log")[0] == "/logs/app.log:2\n/logs/other.log:0\n"
    assert out("-H", "beta", stdin=b"beta\n")[0] == "(standard input):beta\n"


def test_recursive_search_in_c_locale_order_skipping_the_system_folder():
    assert out("-r", "TODO", "/src")[0] == (
        "/src/B.py:TODO upper\n/src/a.py:# TODO fix\n/src/sub/b.py:# TODO again\n/src/sub/c.txt:TODO text\n")
    assert out("-rn", "TODO", "/")[0].splitlines()[0] == "/src/B.py:1:TODO upper"
    assert "spilled" not in out("-r", "TODO", "/")[0]
    assert out("-r", "TODO", "/.system")[0] == "/.system/cmd-output/cmd-0001.txt:TODO spilled\n"
    assert out("-R", "again", "/src") == ("/src/sub/b.py:# TODO again\n", 0)


def test_recursive_filters_and_listing():
    assert out("-rl", "TODO", "/src")[0] == "/src/B.py\n/src/a.py\n/src/sub/b.py\n/src/sub/c.txt\n"
    assert out("-rL", "fix", "/src")[0] == "/src/B.py\n/src/sub/b.py\n/src/sub/c.txt\n"
    assert out("-r", "--include=*.py", "-l", "TODO", "/src")[0] == "/src/B.py\n/src/a.py\n/src/sub/b.py\n"
    assert out("-r", "--exclude=*.py", "TODO", "/src")[0] == "/src/sub/c.txt:TODO text\n"
    assert out("-r", "--exclude-dir=sub", "-c", "TODO", "/src")[0] == "/src/B.py:1\n/src/a.py:1\n"
    assert out("-r", "fix", "/src/a.py")[0] == "# TODO fix\n"  # one file: no prefix
    assert out("-l", "fix", "/src/a.py")[0] == "/src/a.py\n"
    assert out("-L", "zzz", stdin=b"x\n")[0] == "(standard input)\n"


def test_recursive_without_a_path_searches_stdin_or_the_root():
    assert out("-r", "x", stdin=b"x\ny\n")[0] == "x\n"
    assert out("-rl", "again")[0] == "/src/sub/b.py\n"


def test_missing_files_and_directories_are_errors_but_the_rest_is_searched():
    result = grep("alpha", "/missing.txt", "/notes.txt")
    assert (result.stdout, result.stderr, result.exit_code) == (
        b"/notes.txt:alpha\n", "grep: file not found: /missing.txt. Use: ls /", 2)
    result = grep("x", "/src")
    assert (result.stderr, result.exit_code) == ("grep: path is a directory: /src. Use: grep -r PATTERN /src", 2)
    result = grep("-s", "x", "/missing.txt")
    assert (result.stderr, result.exit_code) == ("", 2)
    assert grep("-q", "alpha", "/missing.txt", "/notes.txt").exit_code == 0


def test_binary_files():
    result = grep("TODO", "/img.bin")
    assert (result.stderr, result.exit_code) == ("grep: binary file (7B): /img.bin. Use: stat /img.bin", 2)
    result = grep("TODO", "/img.bin", "/src/a.py")
    assert (result.stdout, result.stderr, result.exit_code) == (
        b"/src/a.py:# TODO fix\n", "grep: /img.bin: binary file matches", 0)
    assert grep("-I", "TODO", "/img.bin", "/src/a.py").stderr == ""
    assert grep("-a", "-c", "TODO", "/img.bin").stdout == b"1\n"
    assert grep("-l", "TODO", "/img.bin", "/src/a.py").stdout == b"/img.bin\n/src/a.py\n"


# -- selection and output shapes ---------------------------------------------------------------------
LOG = b"".join(b"%d\n" % i for i in range(1, 11)).replace(b"3\n", b"hit 3\n").replace(b"8\n", b"hit 8\n")


def test_context_lines_and_group_separators():
    assert out("-n", "-C1", "hit", stdin=LOG)[0] == "2-2\n3:hit 3\n4-4\n--\n7-7\n8:hit 8\n9-9\n"
    assert out("-A1", "hit", stdin=LOG)[0] == "hit 3\n4\n--\nhit 8\n9\n"
    assert out("-B1", "hit", stdin=LOG)[0] == "2\nhit 3\n--\n7\nhit 8\n"
    assert out("-3", "hit", stdin=LOG)[0] == "".join(f"{i}\n" if i not in (3, 8) else f"hit {i}\n" for i in range(1, 11))
    assert out("--no-group-separator", "-A0", "hit", stdin=LOG)[0] == "hit 3\nhit 8\n"
    assert out("--group-separator=##", "-A0", "hit", stdin=LOG)[0] == "hit 3\n##\nhit 8\n"
    assert out("-vn", "-A1", "[0-9]$", stdin=b"a\n1\n2\nb\n3\n")[0] == "1:a\n2-1\n--\n4:b\n5-3\n"


def test_context_across_files_with_names():
    assert out("-A1", "ERROR db", "/logs/app.log", "/logs/app.log")[0] == (
        "/logs/app.log:ERROR db down\n/logs/app.log-WARN slow\n--\n"
        "/logs/app.log:ERROR db down\n/logs/app.log-WARN slow\n")


def test_max_count():
    assert out("-m1", "hit", stdin=LOG)[0] == "hit 3\n"
    assert out("-m", "1", "-A1", "hit", stdin=LOG)[0] == "hit 3\n4\n"
    assert out("-c", "-m1", "hit", stdin=LOG)[0] == "1\n"
    assert out("-v", "-m2", "hit", stdin=LOG)[0] == "1\n2\n"
    assert out("-m0", "hit", stdin=LOG) == ("", 1)


def test_only_matching_uses_posix_longest_match():
    assert out("-oE", "ab|abcd", stdin=b"abcd ab\n")[0] == "abcd\nab\n"
    assert out("-on", "[0-9]\\+", stdin=b"a1b22\nc\n333\n")[0] == "1:1\n1:22\n3:333\n"
    assert out("-ov", "x", stdin=b"a\nb\n") == ("", 0)  # GNU prints nothing, still selects
    assert out("-o", "x*", stdin=b"abc\n") == ("", 0)


def test_invert_count_and_word_options_combined():
    assert out("-vc", "a", "/notes.txt") == ("1\n", 0)
    assert out("-wc", "bar", "/notes.txt") == ("1\n", 0)
    assert out("-v", "", "/notes.txt") == ("", 1)
    assert out("-x", "", "/notes.txt") == ("\n", 0)


# -- the fast scan against a line-by-line reference --------------------------------------------------
@settings(max_examples=examples(150), deadline=None)
@given(lines=st.lists(st.sampled_from(["ab", "", "b", "aab", "x", "ba a"]), max_size=8),
       terminated=st.booleans(), pattern=st.sampled_from(["a", "^a", "b$", "^$", "a*", "\\<a", "x\\|^b"]),
       flags=st.lists(st.sampled_from(["-v", "-c", "-n", "-x", "-w", "-m2"]), max_size=3, unique=True))
def test_scanning_the_whole_input_matches_a_line_by_line_reference(lines, terminated, pattern, flags):
    data = "\n".join(lines).encode() + (b"\n" if terminated and lines else b"")
    result = grep(*flags, pattern, stdin=data or b"\n", world={})
    from onetool_wasm.regex import compile_grep
    regex = compile_grep((pattern,), "basic", word="-w" in flags, line="-x" in flags)
    split = (data or b"\n").split(b"\n")
    split = split[:-1] if split[-1] == b"" else split
    chosen = [(i, line) for i, line in enumerate(split) if regex.test(line) != ("-v" in flags)]
    chosen = chosen[:2] if "-m2" in flags else chosen
    if "-c" in flags:
        expected = f"{len(chosen)}\n".encode()
    else:
        expected = b"".join((b"%d:" % (i + 1) if "-n" in flags else b"") + line + b"\n" for i, line in chosen)
    assert (result.stdout, result.exit_code) == (expected, 0 if chosen else 1)


# -- conformance and random arguments -------------------------------------------------------------------
test_conformance = conformance_test("grep")


def test_metadata():
    spec = create_command_registry().get("grep")
    # min_args 0: the handler words a missing pattern (GNU's usage lines in bash, exit 2)
    assert (spec.group, spec.kind_for(["-r", "x"]), spec.accepts_stdin, spec.min_args) == ("text", "read", True, 0)
    assert call("grep", [], ctx=command_context({})).stderr == f"grep: usage: {USAGE}"
    assert spec.usage == USAGE and spec.summary == "Filter lines by pattern. Supports a common GNU grep subset."


FLAGS = ["-i", "-v", "-c", "-n", "-F", "-E", "-G", "-o", "-w", "-x", "-q", "-s", "-r", "-R", "-l", "-L", "-h",
         "-H", "-a", "-I", "-e", "-f", "-m", "-A", "-B", "-C", "-2", "-in", "-A1", "-m1", "--", "-", "--include=*.py",
         "--exclude-dir", "--context=1", "--color=never", "-P", "-Z", "--bogus", "\\(", "[[:x:]]", "a\\{2", "(a|b)+",
         "\\(a*\\)*\\1", "x{99999}", "*", "^$"]
PATHS = ["/", "/notes.txt", "/src", "/missing", "/img.bin", "/notes.txt/x", "../..", ""]


@fuzz_settings(200)
@given(args=random_args(FLAGS, PATHS), stdin=random_stdin(16))
def test_random_arguments_never_crash(args, stdin):
    check_no_crash(grep(*args, stdin=stdin), args, "grep: ", (0, 1, 2))
