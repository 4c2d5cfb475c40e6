"""The JS API in headless Chromium: boot, run, runDetailed, tool definitions, seeded files.

One page boots one instance (memory storage, seeded files) for the whole module.
"""
import re

import pytest

from onetool_wasm import __version__

FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$")
SEED = """{
  storage: {kind: "memory"},
  files: {"/notes/todo.txt": "buy milk\\nwrite tests\\n", "/data/raw.bin": new Uint8Array([0, 1, 2, 255])},
  onProgress: (p) => (window.progress ??= []).push(p),
}"""


@pytest.fixture(scope="module")
def booted(onetool_page_factory, onetool_site_url, harness):
    page = onetool_page_factory(onetool_site_url, boot_snapshot=False)  # a first visit: the site's snapshot
    harness.open(page, onetool_site_url)
    info = harness.create(page, SEED)
    yield page, info
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def page(booted):
    """The module's page; each test must leave it without errors or foreign requests."""
    page, _ = booted
    yield page
    page.watch.assert_clean()


def run(page, line):
    return page.evaluate("line => tool.run(line)", line)


def test_boot_reports_progress_and_info(booted):
    page, info = booted
    phases = page.evaluate("window.progress.map(p => p.phase)")
    assert [phase for i, phase in enumerate(phases) if i == 0 or phases[i - 1] != phase] == [
        "worker", "snapshot", "pyodide", "snapshot", "runtime", "ready"]
    assert page.evaluate("window.progress.at(-1)") == {"phase": "ready", "loaded": 1, "total": 1, "message": "ready"}
    assert info["pyodideVersion"] == "314.0.7"
    assert info["storage"] == {"kind": "memory"}
    assert info["crossOriginIsolated"] is True and info["sharedInterrupt"] is True
    assert info["restarts"] == 0 and info["bootMs"] > 0
    assert info["onetoolVersion"] == __version__
    assert (info["boot"], info["snapshotSource"], info["bootReason"]) == ("snapshot", "site", None)
    assert list(info["bootPhases"]) == ["manifest", "snapshotLookup", "restore", "import", "start"]


def test_first_run_and_a_pipeline(page):
    text = run(page, "cat /notes/todo.txt | grep -c e")
    assert FOOTER.search(text).group(1) == "0"
    assert text[:FOOTER.search(text).start()] == "1"


def test_run_detailed_shape(page):
    detailed = page.evaluate("""async () => {
        const d = await tool.runDetailed("echo hi && cat /missing.txt");
        return {...d, stdoutIsBytes: d.stdout instanceof Uint8Array, stdout: new TextDecoder().decode(d.stdout)};
    }""")
    assert sorted(detailed) == sorted(["commandLine", "exitCode", "durationMs", "stdout", "stderr", "contentType",
                                       "trace", "presentation", "stdoutIsBytes"])
    assert detailed["commandLine"] == "echo hi && cat /missing.txt"
    assert detailed["exitCode"] == 1
    assert detailed["stdoutIsBytes"] is True
    assert detailed["stdout"] == "hi\n"
    assert detailed["stderr"] == "cat: /missing.txt: No such file or directory"
    assert detailed["contentType"] == "text/plain"
    assert isinstance(detailed["durationMs"], int)
    assert [(t["relationFromPrevious"], t["executed"], t["exitCode"]) for t in detailed["trace"]] == [
        (None, True, 0), ("&&", True, 1)]
    [echo] = detailed["trace"][0]["commands"]
    assert isinstance(echo.pop("durationMs"), int)
    assert echo == {"argv": ["echo", "hi"], "stdinBytes": 0, "stdoutBytes": 3, "stderr": "", "exitCode": 0,
                    "contentType": "text/plain"}
    presentation = detailed["presentation"]
    assert sorted(presentation) == ["body", "savedPath", "stdoutMode", "text", "totalBytes", "totalLines"]
    assert presentation["body"] == "hi\n\n[error] cat: /missing.txt: No such file or directory"
    assert presentation["stdoutMode"] == "plain" and presentation["savedPath"] is None


def test_binary_seed_and_the_file_api(page):
    assert page.evaluate("async () => Array.from(await tool.readFile('/data/raw.bin'))") == [0, 1, 2, 255]
    assert page.evaluate("async () => tool.writeFile('/data/new.txt', 'fresh')") == "/data/new.txt"
    files = page.evaluate("async () => tool.listFiles()")
    user_files = [f for f in files if not f["path"].startswith("/.system")]
    assert [(f["path"], f["isDir"], f["size"]) for f in user_files] == [
        ("/data", True, 0), ("/data/new.txt", False, 5), ("/data/raw.bin", False, 4),
        ("/notes", True, 0), ("/notes/todo.txt", False, 21)]
    assert all(isinstance(f["mtimeMs"], int) and f["mtimeMs"] > 0 for f in files)
    assert "binary" in run(page, "cat /data/raw.bin").lower()


def test_tool_definitions(page):
    openai = page.evaluate("async () => tool.toolDefinition('openai')")
    assert openai["type"] == "function" and openai["function"]["name"] == "run"
    assert openai["function"]["parameters"]["required"] == ["command"]
    assert "cat" in openai["function"]["description"]
    anthropic = page.evaluate("async () => tool.toolDefinition('anthropic', {toolName: 'shell'})")
    assert anthropic["name"] == "shell" and "input_schema" in anthropic
    mcp = page.evaluate("async () => tool.toolDefinition('mcp')")
    assert sorted(mcp) == ["description", "inputSchema", "name"]
    error = page.evaluate("async () => tool.toolDefinition('yaml').then(() => null, (e) => [e.name, e.message])")
    assert error[0] == "ValueError" and error[1].startswith("unknown tool definition format: yaml")


def test_errors_of_the_api_are_javascript_errors(page):
    error = page.evaluate("async () => tool.readFile('/nope').then(() => null, (e) => [e.name, e.message])")
    assert error == ["VFSError", "ENOENT:/nope"]
    error = page.evaluate("""async () => OneTool.createOneTool({storage: {kind: "disk"}})
        .then(() => null, (e) => e.message)""")
    assert error == 'onetool: storage.kind must be "indexeddb" or "memory", got "disk"'


def test_commands_run_one_at_a_time_in_call_order(page):
    results = page.evaluate("""async () => Promise.all([
        tool.run("write /order.txt one"), tool.run("append /order.txt ' two'"), tool.run("cat /order.txt")])""")
    assert results[2].startswith("one two\n")


def test_the_watch_sees_a_request_leaving_the_origin(page):
    # 127.0.0.2 is loopback, outside the site's origin: the watcher must report it.
    page.evaluate("() => fetch('http://127.0.0.2:9/probe').catch(() => null)")
    page.wait_for_timeout(200)
    problems = page.watch.take()
    assert any("request outside the origin: GET http://127.0.0.2:9/probe" in p for p in problems), problems


def test_the_bash_language_in_the_browser(page):
    script = ("mkdir -p /w && cd /w\n"
              "cat > plan.txt <<'EOF'\nship\ntest\nEOF\n"
              "for f in *.txt; do echo \"$f: $(wc -l < $f) lines\"; done > /tmp-report.txt\n"
              "cat /tmp-report.txt > report.txt; cat report.txt; echo \"sum=$((2 + 3))\"; pwd")
    text = run(page, script)
    assert text[:FOOTER.search(text).start()] == "plan.txt: 2 lines\nsum=5\n/w"
    assert page.evaluate("tool.readFile('/w/report.txt').then(b => new TextDecoder().decode(b))") == \
        "plan.txt: 2 lines\n"


def test_limits_session_and_the_strict_grammar_as_options(page):
    """Two more instances on the same page: a short deadline with a session, and the strict grammar."""
    page.evaluate("""async () => {
        [window.limited, window.strict] = await Promise.all([
            OneTool.createOneTool({storage: {kind: "memory"}, executionPolicy: {deadlineMs: 1500},
                                   shellSession: true}),
            OneTool.createOneTool({storage: {kind: "memory"}, grammar: "strict"}),
        ]);
    }""")
    endless = page.evaluate("limited.runDetailed('while true; do :; done')")
    assert endless["exitCode"] == 124
    assert "took longer than its 1.5 s limit" in endless["stderr"]
    assert endless["durationMs"] < 10_000
    page.evaluate("limited.run('x=kept; cd /tmp 2>/dev/null || mkdir /tmp')")
    assert page.evaluate("limited.run('echo $x')").startswith("kept\n")
    refused = page.evaluate("strict.runDetailed('echo $HOME')")
    assert refused["exitCode"] == 2 and "variable expansion '$HOME' is not supported" in refused["stderr"]
    page.evaluate("Promise.all([limited.close(), strict.close()])")


def test_deep_recursion_and_a_runaway_one_end_cleanly_in_the_worker(page):
    deep = run(page, "f() { if [ $1 -gt 0 ]; then f $(($1 - 1)); else echo bottom; fi; }; f 45")
    assert deep[:FOOTER.search(deep).start()] == "bottom"
    runaway = page.evaluate("tool.runDetailed('f() { f; }; f')")
    assert runaway["exitCode"] == 124
    assert "maximum function depth" in runaway["stderr"]
    nested = run(page, "echo " + "$(echo " * 90 + "x" + ")" * 90)
    assert nested[:FOOTER.search(nested).start()] == "x"
