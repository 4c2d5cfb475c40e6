"""The boot snapshot (web/js/boot.js, snapshot-store.js): a first visit restores the site's
snapshot (boot/snapshot.bin, made at build time), a repeat visit the one stored in IndexedDB,
instead of starting Pyodide; a bad stored snapshot falls back to the site's (or, without one,
to a cold boot) and is replaced.

Each test has its own browser context (own IndexedDB). The plugin writes the session's boot
snapshot into it first (onetool_wasm/pytest_plugin/snapshot.py), so the first boot restores it;
the first-visit tests ask for a fresh profile instead (and the cold one takes the site's
snapshot away).
"""
import re

import pytest

FOOTER = re.compile(r"\n\n\[exit:(\d+) \| [0-9.]+m?s\]$")
OPTIONS = """{
  storage: {kind: "indexeddb", name: %s},
  files: {"/notes/todo.txt": "buy milk\\nwrite tests\\n"},
  providers: [{namespace: "shop", summary: "A tiny shop", operations: [
    {name: "addItem", kind: "read", summary: "Add an item",
     inputSchema: {type: "object", properties: {name: {type: "string"}, price: {type: "number"}}, required: ["name"]},
     handler: async (input) => ({added: input})}]}],
  onProgress: (p) => window.progress.push(p),
}"""
# jsonschema is imported on first use (catalog/validation.py): after a restore it must come
# from the site-packages files written back into the in-memory file system.
COMMANDS = [
    "cat /notes/todo.txt | grep -c e",
    "write /notes/new.txt hello && cat /notes/new.txt",
    "api call shop:addItem price=2",
    "shop addItem name=pen price=2",
    "echo '{\"a\": [1, 2]}' | jq '.a | length'",
    "ls /notes",
]
BOOT_JS = """async () => {
  window.progress = [];
  window.tool = await OneTool.createOneTool(%s);
  return await window.tool.booting;  // the init result: which boot path ran, and why
}"""
RUN_ALL_JS = """async (lines) => { const out = []; for (const line of lines) out.push(await tool.run(line)); return out; }"""
# The snapshot record (snapshot-store.js), from the page: same origin, same IndexedDB.
RECORD_JS = """async ({wait, notBefore}) => {
  const store = await import("./js/snapshot-store.js");
  const manifest = await (await fetch("./onetool-manifest.json", {cache: "no-cache"})).json();
  const key = store.snapshotKey(manifest);
  for (let i = 0; i < (wait ? 1200 : 1); i++) {
    const record = await store.readSnapshot();
    if (record && record.createdAt > notBefore) {
      return {key: record.key, expectedKey: key, createdAt: record.createdAt,
              size: record.memory.byteLength, files: record.fileIndex.length,
              checksumOk: (await store.sha256Hex(record.memory)) === record.sha256};
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}"""
TAMPER_JS = """async (kind) => {
  const store = await import("./js/snapshot-store.js");
  const record = await store.readSnapshot();
  if (kind === "stale") {
    record.key = record.key.replace(/site=[^;]*/, "site=0.0.0+an-older-build");
  } else if (kind === "corrupted") {
    record.memory[Math.floor(record.memory.length / 2)] ^= 0xff;     // the checksum no longer matches
  } else if (kind === "garbage") {
    record.memory = new Uint8Array(record.memory.length).fill(7);    // checksum right, not a snapshot
    record.sha256 = await store.sha256Hex(record.memory);
  } else if (kind === "foreign") {                                   // a real snapshot, of bare Pyodide
    const { loadPyodide } = await import("./pyodide/pyodide.mjs");
    const bare = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href, _makeSnapshot: true });
    record.memory = bare.makeMemorySnapshot();
    record.sha256 = await store.sha256Hex(record.memory);
    record.files = new Uint8Array(0);
    record.fileIndex = [];
  }
  await store.writeSnapshot(record);
}"""


def boot(page, onetool_site_url, harness, db):
    harness.open(page, onetool_site_url)
    return page.evaluate(BOOT_JS % (OPTIONS % f'"{db}"'))


def run_all(page, lines=COMMANDS):
    return [FOOTER.sub(lambda m: f" [exit:{m.group(1)}]", text) for text in page.evaluate(RUN_ALL_JS, lines)]


def phases(page):
    names = page.evaluate("window.progress.map(p => p.phase)")
    return [name for i, name in enumerate(names) if i == 0 or names[i - 1] != name]


def stored_snapshot(page, not_before=0):
    record = page.evaluate(RECORD_JS, {"wait": True, "notBefore": not_before})
    assert record is not None, "no boot snapshot was stored"
    return record


def close_tool(page):
    page.evaluate("() => tool.close()")


# What COMMANDS answer on a cold boot (the first test checks it); every boot path must agree.
# Each entry: the whole answer, or the start of it (...).
EXPECTED = [
    "1 [exit:0]",
    "wrote 5B to /notes/new.txt\nhello [exit:0]",
    "[error] api: invalid input for shop:addItem (1 problem):...",
    '{\n  "added": {\n    "name": "pen",\n    "price": 2\n  }\n} [exit:0]',
    "2 [exit:0]",
    "new.txt\ntodo.txt [exit:0]",
]
SITE_SNAPSHOT_GONE = re.compile(r"the site's boot snapshot could not be fetched \(http://[^ ]+/boot/snapshot\.bin: "
                                r"Failed to fetch \(missing, or not the file the manifest lists\)\)")


def assert_expected(answers):
    assert len(answers) == len(EXPECTED), answers
    for want, got in zip(EXPECTED, answers):
        assert got.startswith(want[:-3]) if want.endswith("...") else got == want, (want, got)


def without_site_snapshot(page):
    """The site's boot snapshot answers 404 in this context (a site built without one)."""
    page.route("**/boot/snapshot.bin", lambda route: route.fulfill(status=404, body="gone"))
    page.watch.allow_console_error("the server responded with a status of 404")


def test_a_cold_boot_stores_a_snapshot_that_the_repeat_visit_restores(onetool_new_page, onetool_site_url, harness, fresh_db_name):
    page = onetool_new_page(boot_snapshot=False)  # a fresh profile, and no site snapshot: a cold boot
    without_site_snapshot(page)
    db = fresh_db_name()
    info = boot(page, onetool_site_url, harness, db)
    assert info["boot"] == "cold" and info["snapshotSource"] is None
    assert SITE_SNAPSHOT_GONE.fullmatch(info["bootReason"]), info["bootReason"]
    assert phases(page) == ["worker", "snapshot", "pyodide", "packages", "runtime", "ready"]
    first = page.evaluate("window.progress.find(p => p.boot === 'cold')")
    assert first["phase"] == "pyodide" and first["bootReason"] == info["bootReason"]
    cold = run_all(page)
    assert_expected(cold)
    record = stored_snapshot(page)
    assert record["key"] == record["expectedKey"] and record["checksumOk"] is True
    assert record["files"] > 100 and record["size"] > 10_000_000
    close_tool(page)

    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["snapshotSource"], info["bootReason"]) == ("snapshot", "stored", None)
    assert info["snapshotRestoreMs"] > 0 and info["snapshotBytes"] > 10_000_000
    assert phases(page) == ["worker", "snapshot", "pyodide", "snapshot", "runtime", "ready"]
    assert page.evaluate("window.progress.at(-1)") == {"phase": "ready", "loaded": 1, "total": 1, "message": "ready"}
    # The same commands, the same answers (the file written by the first visit is in the store).
    assert run_all(page) == cold


def test_a_first_visit_restores_the_sites_snapshot_and_stores_it(onetool_new_page, onetool_site_url, harness, fresh_db_name):
    page = onetool_new_page(boot_snapshot=False)  # a fresh profile: nothing stored yet
    db = fresh_db_name()
    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["snapshotSource"], info["bootReason"]) == ("snapshot", "site", None)
    assert info["snapshotBytes"] > 10_000_000
    assert list(info["bootPhases"]) == ["manifest", "snapshotLookup", "restore", "import", "start"]
    assert phases(page) == ["worker", "snapshot", "pyodide", "snapshot", "runtime", "ready"]
    first = page.evaluate("window.progress.find(p => p.phase === 'snapshot')")
    assert first["message"].startswith("restoring from the site's boot snapshot (")
    assert_expected(run_all(page))
    # The site's snapshot is stored: the next visit restores it from IndexedDB.
    record = stored_snapshot(page)
    assert record["key"] == record["expectedKey"] and record["checksumOk"] is True
    assert record["files"] > 100 and record["size"] > 10_000_000
    close_tool(page)
    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["snapshotSource"]) == ("snapshot", "stored")
    assert run_all(page, COMMANDS[:1] + COMMANDS[-1:]) == [EXPECTED[0], EXPECTED[-1]]


def test_two_restores_give_different_random_values(onetool_watched_page, onetool_site_url, harness, fresh_db_name):
    page = onetool_watched_page  # holds the session's boot snapshot (the plugin's seeding)
    db = fresh_db_name()
    values = []
    for _ in range(2):
        assert boot(page, onetool_site_url, harness, db)["boot"] == "snapshot"
        [text] = run_all(page, ["echo $RANDOM $RANDOM $RANDOM"])
        assert re.fullmatch(r"\d+ \d+ \d+ \[exit:0\]", text)
        values.append(text)
        close_tool(page)
    assert values[0] != values[1]


BAD = [
    ("stale", "the snapshot was made for another version of the site"),
    ("corrupted", "the snapshot is corrupted (checksum mismatch)"),
    ("garbage", "the snapshot could not be restored (Snapshot has invalid magic number)"),
    ("foreign", "the snapshot could not be restored (the snapshot was not made by this site)"),
]


@pytest.mark.parametrize("kind, reason", BAD)
def test_a_bad_stored_snapshot_falls_back_to_the_sites_and_is_replaced(onetool_watched_page, onetool_site_url, harness, fresh_db_name, kind, reason):
    page = onetool_watched_page
    db = fresh_db_name()
    assert boot(page, onetool_site_url, harness, db)["boot"] == "snapshot"
    assert run_all(page, ["write /keep.txt kept && cat /keep.txt"]) == ["wrote 4B to /keep.txt\nkept [exit:0]"]
    old = stored_snapshot(page)
    close_tool(page)
    page.evaluate(TAMPER_JS, kind)

    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["snapshotSource"], info["bootReason"]) == ("snapshot", "site", reason)
    # A failed restore's start is followed by the next path's, which says why.
    site = page.evaluate("window.progress.find(p => p.boot && p.message.startsWith(\"restoring from the site's\"))")
    assert (site["phase"], site["boot"], site["bootReason"]) == ("snapshot", "snapshot", reason)
    assert run_all(page, ["cat /keep.txt", "cat /notes/todo.txt"]) == ["kept [exit:0]", "buy milk\nwrite tests [exit:0]"]
    new = stored_snapshot(page, not_before=old["createdAt"])
    assert new["key"] == new["expectedKey"] and new["checksumOk"] is True
    close_tool(page)
    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["snapshotSource"]) == ("snapshot", "stored")
    assert run_all(page, ["cat /keep.txt"]) == ["kept [exit:0]"]


def test_a_bad_stored_snapshot_and_no_site_snapshot_boot_cold_with_nothing_lost(onetool_watched_page, onetool_site_url, harness, fresh_db_name):
    page = onetool_watched_page
    db = fresh_db_name()
    boot(page, onetool_site_url, harness, db)
    assert run_all(page, ["write /keep.txt kept && cat /keep.txt"]) == ["wrote 4B to /keep.txt\nkept [exit:0]"]
    old = stored_snapshot(page)
    close_tool(page)
    page.evaluate(TAMPER_JS, "corrupted")
    without_site_snapshot(page)

    info = boot(page, onetool_site_url, harness, db)
    assert info["boot"] == "cold" and info["snapshotSource"] is None
    stored_reason, site_reason = info["bootReason"].split("; ")
    assert stored_reason == "the snapshot is corrupted (checksum mismatch)"
    assert SITE_SNAPSHOT_GONE.fullmatch(site_reason), site_reason
    first = page.evaluate("window.progress.find(p => p.boot === 'cold')")
    assert first["phase"] == "pyodide" and first["message"].startswith(f"cold boot ({info['bootReason']})")
    assert run_all(page, ["cat /keep.txt", "cat /notes/todo.txt"]) == ["kept [exit:0]", "buy milk\nwrite tests [exit:0]"]
    new = stored_snapshot(page, not_before=old["createdAt"])  # the cold boot's capture
    assert new["key"] == new["expectedKey"] and new["checksumOk"] is True
    close_tool(page)
    assert boot(page, onetool_site_url, harness, db)["snapshotSource"] == "stored"
    assert run_all(page, ["cat /keep.txt"]) == ["kept [exit:0]"]
