"""The IndexedDB file system in Chromium: persistence, two tabs, the store's layout, reset,
quota.

Two tabs (two pages of one browser context, so one IndexedDB) boot once for the module, on
one database seeded with /README.md; each test starts from tool.reset(). The quota test has
a context of its own.
"""
import re

import pytest

FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$")
DB = "e2e-storage"
OPTIONS = f'{{storage: {{kind: "indexeddb", name: "{DB}"}}, files: {{"/README.md": "# world"}}}}'


def body(text):
    return text[:FOOTER.search(text).start()]


def run(page, line):
    return page.evaluate("line => tool.run(line)", line)


def user_files(page):
    files = page.evaluate("async () => tool.listFiles()")
    return [(f["path"], f["size"]) for f in files if not f["path"].startswith("/.system")]


def stored_records(page, db):
    """What the database holds, read by the page itself (no worker involved)."""
    return page.evaluate("""async (name) => {
        const db = await new Promise((ok, fail) => { const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = fail; });
        const all = (store) => new Promise((ok) => { const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); });
        const files = await all("files"), dirs = await all("dirs");
        db.close();
        return {stores: Array.from(db.objectStoreNames), version: db.version,
                files: files.map(f => [f.path, f.data instanceof Uint8Array, new TextDecoder().decode(f.data), typeof f.mtimeMs]),
                dirs: dirs.map(d => [d.path, typeof d.mtimeMs])};
    }""", db)


@pytest.fixture(scope="module")
def tabs(onetool_page_factory, onetool_site_url, harness):
    first = onetool_page_factory(onetool_site_url)
    second = first.context.new_page()
    for tab in (first, second):
        harness.open(tab, onetool_site_url)
        harness.start(tab, OPTIONS)  # both boot at once
    for tab in (first, second):
        harness.wait(tab)
    yield first, second
    problems = first.watch.take()
    first.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def world(tabs):
    """Both tabs over the seeded world; the test must leave no error behind."""
    first, second = tabs
    first.evaluate("async () => tool.reset()")
    yield first, second
    first.watch.assert_clean()


def test_reset_empties_the_store_seeds_again_and_tells_the_other_tab(world):
    first, second = world
    run(first, "write /extra.txt more && memory store remember-me")
    assert body(run(second, "ls /")) == "README.md\nextra.txt"
    first.evaluate("async () => tool.reset()")
    assert body(run(first, "ls /")) == "README.md"
    assert body(run(second, "ls /")) == "README.md"
    assert "remember-me" not in run(first, "memory recent")


def test_the_store_uses_upstreams_layout(world):
    first, _ = world
    run(first, "write /docs/a.txt hello")
    records = stored_records(first, DB)
    assert records["stores"] == ["dirs", "files"] and records["version"] == 1
    assert ["/docs/a.txt", True, "hello", "number"] in records["files"]
    assert ["/", "number"] in records["dirs"] and ["/docs", "number"] in records["dirs"]


def test_two_tabs_writing_at_once_lose_nothing(world):
    first, second = world
    # Both tabs write at the same time, interleaved with listings served by their index.
    for number, tab in enumerate(world):
        tab.evaluate("""(n) => { window.job = (async () => {
            for (let i = 0; i < 15; i++) {
                await tool.run(`write /shared/tab${n}-${String(i).padStart(2, "0")}.txt ${i}`);
                await tool.run("ls /shared");
            }
        })(); }""", number)
    for tab in world:
        tab.evaluate("() => window.job")
    expected = [f"tab{n}-{i:02d}.txt" for n in range(2) for i in range(15)]
    for tab in world:
        assert body(run(tab, "ls /shared")).split("\n") == expected
    assert len([f for f in stored_records(first, DB)["files"] if f[0].startswith("/shared/")]) == 30


def test_a_change_in_one_tab_is_seen_by_the_others_next_command(world):
    first, second = world
    run(first, "write /note.txt from-the-first-tab")
    assert body(run(second, "cat /note.txt")) == "from-the-first-tab"
    run(second, "append /note.txt ' and the second' && mkdir -p /made/by/second")
    assert body(run(first, "cat /note.txt")) == "from-the-first-tab and the second"
    assert body(run(first, "ls /made/by")) == "second"
    run(first, "rm -r /made")
    assert body(run(second, "ls /")) == "README.md\nnote.txt"


def test_files_persist_across_a_reload(world, onetool_site_url, harness):
    first, second = world
    run(first, "mkdir -p /project/src && write /project/src/main.py 'print(1)' && rm /README.md")
    first.evaluate("async () => tool.writeFile('/project/logo.bin', new Uint8Array([137, 80, 78, 71]))")
    before = user_files(first)
    first.reload()
    harness.open(first, onetool_site_url)
    info = harness.create(first, OPTIONS)
    assert info["storage"] == {"kind": "indexeddb", "name": DB}
    assert user_files(first) == before  # and the seed is not written again into a store with files
    assert body(run(first, "cat /project/src/main.py")) == "print(1)"
    assert first.evaluate("async () => Array.from(await tool.readFile('/project/logo.bin'))") == [137, 80, 78, 71]
    assert body(run(second, "ls /project")) == "logo.bin\nsrc"


def test_quota_exceeded_is_a_clear_error_and_the_store_stays_consistent(onetool_new_page, onetool_site_url, harness, fresh_db_name):
    page = onetool_new_page(boot_snapshot=False)  # an empty origin: the quota below counts only this test's data
    db = fresh_db_name()
    harness.open(page, onetool_site_url)
    origin = onetool_site_url.rstrip("/")
    cdp = page.context.new_cdp_session(page)
    # Chromium applies a quota override to storage opened after it: set it before booting.
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 400_000})
    harness.create(page, f'{{storage: {{kind: "indexeddb", name: "{db}"}}}}')
    run(page, "write /small.txt fits")
    page.evaluate("async () => tool.writeFile('/big/block.bin', new Uint8Array(1000))")
    text = page.evaluate("async () => tool.run(`write /big/huge.txt ${'x'.repeat(600000)}`)")
    assert body(text) == "[error] write: resource limit exceeded (browser storage quota) at /big/huge.txt"
    assert FOOTER.search(text).group(1) == "1"
    assert user_files(page) == [("/big", 0), ("/big/block.bin", 1000), ("/small.txt", 4)]
    records = stored_records(page, db)
    assert sorted(f[0] for f in records["files"]) == ["/big/block.bin", "/small.txt"]
    assert body(run(page, "write /after.txt ok && cat /small.txt")) == "wrote 2B to /after.txt\nfits"
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin})
