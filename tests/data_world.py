"""The world the data, calc, memory and adapters tests share: files, search documents and
fetch resources, a runner over them, and the property test that fuzzes those commands."""
from __future__ import annotations

from hypothesis import given

from onetool_wasm.commands import invoke_command
from onetool_wasm.testing import DemoFetch, DemoSearch

from .helpers import arun, call, check_no_crash, command_context, fuzz_settings, random_args, random_stdin

FILES = {
    "/d.json": '{"user":{"email":"a@x.io","tags":["x","y"]},"items":[{"id":1,"ok":true},{"id":2.5,"ok":null}],"s":"hi"}',
    "/u.csv": 'id,name,email\r\n1,"Smith, J",j@x.io\r\n2,"say ""hi""",h@x.io\r\n\r\n3,"two\nlines",m@x.io\r\n',
    "/t.txt": "plain text\n",
    "/bin.dat": {"kind": "bytes", "data_b64": "AAECAw=="},
    "/dir": {"kind": "dir"},
}
SEARCH_DOCS = [{"title": "Refund timeout", "body": "refund timeout retro", "source": "kb://1"},
               {"title": "Acme notes", "body": "acme renewal", "source": "kb://2"}]
FETCH_RESOURCES = {"order:1": {"id": 1, "items": [1, 2]}, "text:1": "hello", "bin:1": b"\x00\x01\x02"}
PATHS = ["/d.json", "/u.csv", "/t.txt", "/bin.dat", "/dir", "/missing", "/", "..", "-"]
SAMPLE_STDIN = [b"", b'{"a":[1,{"b":true}]}', b"[1,2]", b"a,b\n1,2\n", b'"x', b"aGVsbG8=", b"\x00\x01",
                b"not json", b"\xef\xbb\xbf{}", b"1e999", b"[" * 50]
STDIN = random_stdin(40, SAMPLE_STDIN)


def run(name, *args, stdin=b"", files=None, **ctx_options):
    """One command over FILES (or `files`); `ctx_options` go to the context (adapters...)."""
    return call(name, args, ctx=command_context(FILES if files is None else files, **ctx_options), stdin=stdin)


def out(result):
    return (result.stdout.decode("utf-8"), result.stderr, result.exit_code, result.content_type)


def world_context(memory_texts=()):
    """FILES, the demo search and fetch adapters over SEARCH_DOCS and FETCH_RESOURCES, and notes."""
    ctx = command_context(FILES, adapters={"search": DemoSearch(SEARCH_DOCS), "fetch": DemoFetch(FETCH_RESOURCES)})
    for text in memory_texts:
        ctx.memory.store(text)
    return ctx


def arg_lists(vocab):
    return random_args(list(vocab) + PATHS, numbers=(-3, 40), text_size=12, max_size=5, extra=("", "\ud800"))


def check_fuzzed_call(name, args, stdin, exit_codes=(0, 1)):
    """One call never crashes; failures are one line naming the command."""
    ctx = world_context(["alpha note", "beta"])
    result = arun(invoke_command(ctx.registry.get(name), ctx, args, stdin))
    check_no_crash(result, args, name, exit_codes)
    if result.exit_code:
        assert result.stderr.startswith(name), (args, result.stderr)
        # One line, unless the message quotes an argument that itself holds a newline.
        assert result.stderr.count("\n") <= sum(arg.count("\n") for arg in args), (args, result.stderr)
    assert isinstance(result.stdout, bytes)


def fuzz_command(name, vocab, stdin=STDIN):
    """The property test: random arguments (from `vocab` and PATHS) and stdin never crash `name`."""
    @fuzz_settings(120)
    @given(args=arg_lists(vocab), stdin=stdin)
    def check(args, stdin):
        check_fuzzed_call(name, args, stdin)
    check()
