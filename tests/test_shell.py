"""The shell grammar (docs/DIFFERENCES.md, grammar): tokens, chains, improvements and every refusal."""

from __future__ import annotations

import dataclasses

import pytest

from onetool_wasm.shell import (
    ChainItem,
    ParseError,
    Pipeline,
    SimpleCommand,
    Token,
    ast_to_json,
    parse_command_line,
    tokenize,
)

SUBSTITUTION = (
    "command substitution is not supported. Compose commands explicitly with pipes and files."
)
BACKGROUND = "background operator '&' is not supported. Use ';' or explicit chaining instead."


def redirection(char: str) -> str:
    return f"redirection operator '{char}' is not supported. Use pipes plus write/append instead."


def variable(reference: str) -> str:
    return (
        f"variable expansion '{reference}' is not supported. "
        "Write the value directly, or use single quotes for a literal '$'."
    )


def values(line: str) -> list[str]:
    return [token.value for token in tokenize(line)]


def argv(line: str) -> list[str]:
    """The argv of a line that must parse to exactly one command."""
    chain = parse_command_line(line)
    assert len(chain) == 1 and len(chain[0].pipeline.commands) == 1
    return list(chain[0].pipeline.commands[0].argv)


def shape(line: str) -> list[tuple[str | None, list[list[str]]]]:
    """A chain as (relation, [argv, ...]) pairs, compact enough to compare exactly."""
    return [
        (item.relation, [list(command.argv) for command in item.pipeline.commands])
        for item in parse_command_line(line)
    ]


def refusal(line: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse_command_line(line)
    return caught.value


# -- tokens ---------------------------------------------------------------------------------


def test_words_split_on_blanks():
    assert tokenize("ls  /foo\t-l") == [
        Token("word", "ls"),
        Token("word", "/foo"),
        Token("word", "-l"),
    ]


def test_blanks_are_javascripts_whitespace_class():
    # Upstream splits on JavaScript `\s`: no-break and ideographic spaces split words...
    assert values("a\u00a0b\u3000c\u2003d\ufeffe\vf\fg") == ["a", "b", "c", "d", "e", "f", "g"]
    # ...while the control separators Python calls whitespace do not.
    assert values("a\x1cb") == ["a\x1cb"]


def test_operators_need_no_spaces():
    assert tokenize("a|b&&c||d;e") == [
        Token("word", "a"),
        Token("op", "|"),
        Token("word", "b"),
        Token("op", "&&"),
        Token("word", "c"),
        Token("op", "||"),
        Token("word", "d"),
        Token("op", ";"),
        Token("word", "e"),
    ]


def test_three_pipes_are_or_then_pipe():
    assert tokenize("a|||b")[1:3] == [Token("op", "||"), Token("op", "|")]


def test_token_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Token("word", "a").value = "b"  # type: ignore[misc]


def test_single_quotes_keep_everything_literal():
    line = "echo 'a \"b\" \\n $HOME $(x) `x` > < & | ; && || *'"
    assert argv(line) == ["echo", 'a "b" \\n $HOME $(x) `x` > < & | ; && || *']


def test_double_quotes_keep_operators_and_redirections_literal():
    literal = "a 'b' > < >> & | ; && || # * ?"
    assert argv(f'echo "{literal}"') == ["echo", literal]


def test_adjacent_quoted_and_bare_parts_make_one_word():
    assert values("a'b c'\"d e\"f") == ["ab cd ef"]


def test_backslash_outside_quotes_escapes_the_next_character():
    assert values(r"a\ b \| \; \& \> \< \$HOME \` \' \" \\ \x") == [
        "a b", "|", ";", "&", ">", "<", "$HOME", "`", "'", '"', "\\", "x",
    ]


def test_escaped_operator_is_a_word():
    assert tokenize(r"\|") == [Token("word", "|")]
    assert argv(r"echo \&\& \;") == ["echo", "&&", ";"]


def test_backslash_newline_continues_the_line():
    assert values("ab\\\ncd") == ["abcd"]
    assert values("a \\\n b") == ["a", "b"]
    assert values('"ab\\\ncd"') == ["abcd"]


def test_glob_and_grouping_characters_are_literal():
    # "No globbing": patterns reach the command as written (calc, find --name, regexes).
    assert argv("calc (12 * 8) / 3") == ["calc", "(12", "*", "8)", "/", "3"]
    assert argv("find /config --name *.json") == ["find", "/config", "--name", "*.json"]
    words = ["a?", "[abc]", "{a,b}", "~", "#", "!x", "%"]
    assert argv("echo " + " ".join(words)) == ["echo", *words]


def test_dollar_not_starting_an_expansion_is_literal():
    assert argv('grep -E "^[0-9]+$" /f') == ["grep", "-E", "^[0-9]+$", "/f"]
    assert argv("grep x$ /f") == ["grep", "x$", "/f"]
    assert argv('sed "s/$/;/" /f') == ["sed", "s/$/;/", "/f"]
    assert argv('echo $ "$" $% $/ "a$ b"') == ["echo", "$", "$", "$%", "$/", "a$ b"]


def test_escaped_or_single_quoted_dollar_is_literal():
    assert argv(r"echo \$HOME '$HOME' \$(x) '$(x)' '${x}'") == [
        "echo", "$HOME", "$HOME", "$(x)", "$(x)", "${x}",
    ]
    assert argv(r'echo "\$HOME" "\$(x)"') == ["echo", "$HOME", "$(x)"]
    assert argv(r"sed -n '$p' /f") == ["sed", "-n", "$p", "/f"]


def test_newline_inside_quotes_is_literal():
    assert argv("write /f 'a\nb'") == ["write", "/f", "a\nb"]
    assert argv('write /f "a\nb"') == ["write", "/f", "a\nb"]


# -- chains ---------------------------------------------------------------------------------


def test_single_command():
    assert parse_command_line("ls /foo") == [
        ChainItem(None, Pipeline((SimpleCommand(("ls", "/foo")),)))
    ]


def test_pipes_bind_tighter_than_chain_operators():
    assert shape("a | b && c x || d ; e | f") == [
        (None, [["a"], ["b"]]),
        ("&&", [["c", "x"]]),
        ("||", [["d"]]),
        (";", [["e"], ["f"]]),
    ]


def test_ast_to_json_has_the_recorded_shape():
    assert ast_to_json(parse_command_line("cat /f | grep x && ls")) == [
        {
            "relationFromPrevious": None,
            "pipeline": {"commands": [{"argv": ["cat", "/f"]}, {"argv": ["grep", "x"]}]},
        },
        {"relationFromPrevious": "&&", "pipeline": {"commands": [{"argv": ["ls"]}]}},
    ]


def test_nodes_hold_tuples():
    item = parse_command_line("a b | c")[0]
    assert item.pipeline.commands == (SimpleCommand(("a", "b")), SimpleCommand(("c",)))


# -- newlines -------------------------------------------------------------------------------


def test_newline_separates_commands_like_semicolon():
    assert shape("mkdir /a\nwrite /a/f hi") == [
        (None, [["mkdir", "/a"]]),
        (";", [["write", "/a/f", "hi"]]),
    ]


def test_blank_lines_and_surrounding_newlines_are_ignored():
    assert shape("\n\na\n\n  \nb\n\n") == [(None, [["a"]]), (";", [["b"]])]
    assert shape("a\r\nb\r\n") == [(None, [["a"]]), (";", [["b"]])]


def test_newline_after_an_operator_continues_the_command():
    assert shape("a |\n b &&\n c ||\n\n d ;\n e") == [
        (None, [["a"], ["b"]]),
        ("&&", [["c"]]),
        ("||", [["d"]]),
        (";", [["e"]]),
    ]


def test_operator_at_start_of_a_line_is_refused():
    assert refusal("a\n| b").message == "unexpected operator"
    assert refusal("a\n&& b").message == "unexpected operator"


# -- improvement 1: a quoted operator is a literal argument ---------------------------------


@pytest.mark.parametrize(
    "quoted, literal", [('"|"', "|"), ("'&&'", "&&"), ('";"', ";"), ("'||'", "||")]
)
def test_quoted_operator_is_a_word(quoted, literal):
    assert tokenize(quoted) == [Token("word", literal)]
    assert argv(f"echo {quoted} x") == ["echo", literal, "x"]


def test_quoted_operator_inside_a_word():
    assert argv("grep a'|'b /f") == ["grep", "a|b", "/f"]


def test_quoted_pipe_does_not_split_a_pipeline():
    assert shape("echo '|' | wc -l") == [(None, [["echo", "|"], ["wc", "-l"]])]


# -- improvement 2: empty quotes make an empty argument -------------------------------------


def test_empty_quotes_are_empty_arguments():
    assert argv('echo "" x') == ["echo", "", "x"]
    assert argv("echo '' x") == ["echo", "", "x"]
    assert argv("echo \"\" ''") == ["echo", "", ""]


def test_empty_quotes_next_to_text_add_nothing():
    assert argv('echo a"" ""b a""b') == ["echo", "a", "b", "ab"]


def test_empty_quotes_alone_are_one_empty_word():
    assert tokenize('""') == [Token("word", "")]
    assert shape("''") == [(None, [[""]])]


def test_sed_with_empty_replacement():
    assert argv("sed s/x//g ''") == ["sed", "s/x//g", ""]


# -- improvement 3: POSIX backslashes inside double quotes -----------------------------------


def test_backslash_before_ordinary_character_is_kept_in_double_quotes():
    assert argv(r'echo -e "a\nb"') == ["echo", "-e", "a\\nb"]
    assert argv(r'echo "tab\there" "C:\dir"') == ["echo", "tab\\there", "C:\\dir"]
    assert argv(r'grep "a\|b" /f') == ["grep", "a\\|b", "/f"]


def test_backslash_escapes_quote_backslash_dollar_backtick_in_double_quotes():
    assert argv(r'echo "say \"hi\"" "a\\b" "\$x" "\`"') == ["echo", 'say "hi"', "a\\b", "$x", "`"]


def test_double_backslash_then_n_in_double_quotes():
    assert argv(r'echo "\\n"') == ["echo", "\\n"]


def test_backslash_is_literal_in_single_quotes():
    assert argv(r"tr a '\000'") == ["tr", "a", "\\000"]


# -- improvement 6: a trailing semicolon ----------------------------------------------------


@pytest.mark.parametrize("line", ["a ;", "a;", "a ; ", "a;\n"])
def test_trailing_semicolon_is_allowed(line):
    assert shape(line) == [(None, [["a"]])]


def test_trailing_semicolon_after_a_chain():
    assert shape("a && b | c;") == [(None, [["a"]]), ("&&", [["b"], ["c"]])]


@pytest.mark.parametrize("line", [";", "; a", "a ; ;", "a ;;", "a && ;", "a | ;", "a || ;"])
def test_other_stray_semicolons_are_refused(line):
    error = refusal(line)
    assert (error.message, error.stage) == ("unexpected operator", "parse")


# -- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["", "   ", "\t", "\n", " \n\n ", "\\\n"])
def test_empty_line(line):
    error = refusal(line)
    assert str(error) == "empty command string"
    with pytest.raises(ParseError, match="^empty command string$"):
        tokenize(line)


@pytest.mark.parametrize(
    "line, message",
    [
        ('write /f "unterminated', 'unterminated " quote'),
        ("write /f 'unterminated", "unterminated ' quote"),
        ("echo 'it\"s", "unterminated ' quote"),
        ('echo "ends with backslash\\', 'unterminated " quote'),
        ('"', 'unterminated " quote'),
    ],
)
def test_unterminated_quotes(line, message):
    error = refusal(line)
    assert (error.message, error.stage) == (message, "tokenize")


def test_dangling_escape():
    assert refusal("write /f trailing\\").message == "dangling escape at end of command"


@pytest.mark.parametrize(
    "line",
    [
        "echo $(whoami)",
        "echo `whoami`",
        'echo "$(whoami)"',
        'echo "`whoami`"',
        "calc $((1+2))",
        "a$(b)",
    ],
)
def test_command_substitution(line):
    error = refusal(line)
    assert (error.message, error.stage) == (SUBSTITUTION, "tokenize")


@pytest.mark.parametrize(
    "line, char",
    [
        ("cat /f > out.txt", ">"),
        ("cat /f < in.txt", "<"),
        ("cat /f >> out.txt", ">"),
        ("cat /f 2> err.txt", ">"),
        ("cat /f 2>&1", ">"),
        ("cat <<EOF", "<"),
        ("cat /f >out", ">"),
        ("diff <(a) b", "<"),
    ],
)
def test_redirection_names_its_first_character_as_upstream(line, char):
    error = refusal(line)
    assert (error.message, error.stage) == (redirection(char), "tokenize")


@pytest.mark.parametrize("line", ["long_task &", "a & b", "a &> f", "a |& b", "a &&& b", "&"])
def test_background_operator(line):
    error = refusal(line)
    assert (error.message, error.stage) == (BACKGROUND, "tokenize")


@pytest.mark.parametrize(
    "line, reference",
    [
        ("echo $HOME", "$HOME"),
        ('echo "home: $HOME/x"', "$HOME"),
        ("cat /$dir_1/f", "$dir_1"),
        ("echo ${HOME}", "${HOME}"),
        ('echo "${HOME"', '${HOME"'),
        ('grep "$100" /f', "$1"),
        ("echo $?", "$?"),
        ("echo $$", "$$"),
        ("echo $@", "$@"),
        ("echo $_", "$_"),
    ],
)
def test_variable_expansion(line, reference):
    error = refusal(line)
    assert (error.message, error.stage) == (variable(reference), "tokenize")


@pytest.mark.parametrize("line", ["a |", "a &&", "a ||", "a | b |", "a &&\n"])
def test_unexpected_end(line):
    error = refusal(line)
    assert (error.message, error.stage) == ("unexpected end of command", "parse")


@pytest.mark.parametrize(
    "line", ["a | | b", "| a", "&& a", "|| a", "a && && b", "a || ; b", "a ; | b", "a|||b"]
)
def test_unexpected_operator(line):
    error = refusal(line)
    assert (error.message, error.stage) == ("unexpected operator", "parse")


def test_first_problem_in_the_line_wins():
    assert refusal("echo > $(x)").message == redirection(">")
    assert refusal("echo $(x) > f").message == SUBSTITUTION
    assert refusal("a & b > f").message == BACKGROUND


def test_tokenizer_errors_win_over_grammar_errors():
    assert refusal("| a > f").message == redirection(">")


def test_parse_error_carries_message_and_stage():
    error = ParseError("unexpected operator", "parse")
    assert str(error) == error.message == "unexpected operator"
    assert error.stage == "parse"
    assert isinstance(error, Exception)


# -- properties -----------------------------------------------------------------------------

try:
    from hypothesis import given, strategies as st
except ImportError:  # the in-Pyodide run may not carry hypothesis
    given = None


@pytest.mark.skipif(given is None, reason="hypothesis is not installed")
def test_properties():
    """Run the hypothesis properties (kept inside one test so the module imports without it)."""
    shell_char = st.sampled_from(list("ab |&;'\"\\$`()<>{}\n\t*#")) | st.characters()
    shell_text = st.text(alphabet=shell_char, max_size=40)
    safe_word = st.text(st.characters(blacklist_characters="'"), max_size=12)

    @given(shell_text)
    def parses_or_refuses(line: str) -> None:
        try:
            chain = parse_command_line(line)
        except ParseError as error:
            assert error.stage in ("tokenize", "parse") and error.message
            return
        assert chain and all(command.argv for item in chain for command in item.pipeline.commands)

    @given(st.lists(safe_word, min_size=1, max_size=6))
    def single_quoting_round_trips(words: list[str]) -> None:
        line = " ".join(f"'{word}'" for word in words)
        assert tokenize(line) == [Token("word", word) for word in words]

    parses_or_refuses()
    single_quoting_round_trips()
