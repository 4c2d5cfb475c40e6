"""The pytest plugin (onetool_wasm/pytest_plugin/, docs/TESTING_PAGES.md) from a user's side:
its documented examples run as written, and the handle does what the doc says."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "TESTING_PAGES.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$")

# The doc's examples become tests of this module, exactly as written there.
[EXAMPLES] = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)
exec(compile(EXAMPLES, "docs/TESTING_PAGES.md", "exec"), globals())


def test_the_readme_example_is_one_of_them():
    readme_block = README[README.index("## Testing your pages"):].split("```python\n", 1)[1].split("```", 1)[0]
    assert readme_block.startswith("def test_a_pipeline(onetool_page):") and readme_block in EXAMPLES


def test_the_doc_examples_are_collected_here():
    assert [name for name in globals() if name.startswith("test_") and name in EXAMPLES] == [
        "test_a_pipeline", "test_a_read_only_runtime_with_seed_files", "test_my_page"]


def test_files_in_and_out_keep_every_byte(onetool_page):
    data = bytes(range(256)) * 3
    assert onetool_page.write_file("/bin/all.bin", data) == "/bin/all.bin"
    assert onetool_page.read_file("/bin/all.bin") == data
    assert FOOTER.sub("", onetool_page.run("wc -c < /bin/all.bin")) == "768"
    paths = [entry["path"] for entry in onetool_page.list_files() if not entry["path"].startswith("/.system")]
    assert paths == ["/bin", "/bin/all.bin"]


def test_run_detailed_gives_bytes_and_the_trace(onetool_page):
    execution = onetool_page.run_detailed("printf 'a\\0b' | cat")
    assert (execution["exitCode"], execution["stdout"], execution["stderr"]) == (0, b"a\x00b", "")
    assert [command["argv"][0] for command in execution["trace"][0]["commands"]] == ["printf", "cat"]


def test_each_test_gets_a_runtime_of_its_own(onetool_page, onetool_create):
    other = onetool_create({"files": {"/only-here.txt": "x"}})
    assert other.page is onetool_page.page  # one shared page, one worker
    assert other.id != onetool_page.id
    assert FOOTER.sub("", other.run("cat /only-here.txt")) == "x"
    assert onetool_page.run("cat /only-here.txt").startswith("[error] cat: /only-here.txt: No such file or directory")


def test_options_as_javascript_hold_functions(onetool_create):
    tool = onetool_create("""{
      adapters: {search: (query, limit) => [{title: "found " + query, snippet: "s", source: "test"}]},
    }""")
    assert "found onetool" in tool.run('search "onetool"')


def test_a_runtime_of_its_own_on_the_plain_host(onetool_create, onetool_plain_site_url):
    tool = onetool_create(shared=False, site_url=onetool_plain_site_url)
    assert tool.info["crossOriginIsolated"] is False and tool.info["shared"] is False
    # A plain static host restores a snapshot too (the site's, in this fresh profile).
    assert (tool.info["boot"], tool.info["snapshotSource"]) == ("snapshot", "site")
    assert FOOTER.sub("", tool.run("echo plain")) == "plain"


def test_new_contexts_restore_the_sessions_boot_snapshot(onetool_new_page, onetool_site_url, onetool_boot_snapshot):
    assert onetool_boot_snapshot is not None and len(onetool_boot_snapshot) > 10_000_000
    seeded, fresh = onetool_new_page(), onetool_new_page(boot_snapshot=False)
    boots = []
    for page in (seeded, fresh):
        page.goto(onetool_site_url + "test-harness.html")
        boots.append(page.evaluate("async () => (await OneTool.createOneTool({storage: {kind: 'memory'}})).info"))
    # Seeded: the session's snapshot, from IndexedDB; fresh: a first visit, the site's snapshot.
    assert [(info["boot"], info["snapshotSource"]) for info in boots] == [("snapshot", "stored"), ("snapshot", "site")]
