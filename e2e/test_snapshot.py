"""The boot snapshot (web/js/boot.js, snapshot-store.js): a repeat visit restores Pyodide's memory
instead of starting it; a bad snapshot falls back to a cold boot and is replaced.

Each test has its own browser context (own IndexedDB). The plugin writes the session's boot
snapshot into it first (onetool_wasm/pytest_plugin/snapshot.py), so the first boot restores it;
the repeat-visit test asks for a fresh profile instead, whose first boot is cold.
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


def test_repeat_visit_boots_from_the_snapshot_with_the_same_results(onetool_new_page, onetool_site_url, harness, fresh_db_name):
    page = onetool_new_page(boot_snapshot=False)  # a fresh profile: the first boot is cold
    db = fresh_db_name()
    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["bootReason"]) == ("cold", "no snapshot yet")
    assert phases(page) == ["worker", "pyodide", "packages", "runtime", "ready"]
    first = page.evaluate("window.progress.find(p => p.phase === 'pyodide')")
    assert (first["boot"], first["bootReason"]) == ("cold", "no snapshot yet")
    cold = run_all(page)
    assert cold[0] == "1 [exit:0]"
    assert cold[2].startswith("[error] api: invalid input for shop:addItem (1 problem):")
    record = stored_snapshot(page)
    assert record["key"] == record["expectedKey"] and record["checksumOk"] is True
    assert record["files"] > 100 and record["size"] > 10_000_000
    close_tool(page)

    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["bootReason"]) == ("snapshot", None)
    assert info["snapshotRestoreMs"] > 0 and info["snapshotBytes"] > 10_000_000
    assert phases(page) == ["worker", "snapshot", "pyodide", "snapshot", "runtime", "ready"]
    assert page.evaluate("window.progress.at(-1)") == {"phase": "ready", "loaded": 1, "total": 1, "message": "ready"}
    # The same commands, the same answers (the file written by the first visit is in the store).
    assert run_all(page) == cold


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


@pytest.mark.parametrize("kind, reason", [
    ("stale", "the snapshot was made for another version of the site"),
    ("corrupted", "the snapshot is corrupted (checksum mismatch)"),
    ("garbage", "the snapshot could not be restored (Snapshot has invalid magic number)"),
    ("foreign", "the snapshot could not be restored (the snapshot was not made by this site)"),
])
def test_a_bad_snapshot_falls_back_to_a_cold_boot_and_is_replaced(onetool_watched_page, onetool_site_url, harness, fresh_db_name, kind, reason):
    page = onetool_watched_page  # holds the session's boot snapshot (the plugin's seeding)
    db = fresh_db_name()
    assert boot(page, onetool_site_url, harness, db)["boot"] == "snapshot"
    assert run_all(page, ["write /keep.txt kept && cat /keep.txt"]) == ["wrote 4B to /keep.txt\nkept [exit:0]"]
    old = stored_snapshot(page)
    close_tool(page)
    page.evaluate(TAMPER_JS, kind)

    info = boot(page, onetool_site_url, harness, db)
    assert (info["boot"], info["bootReason"]) == ("cold", reason)
    first = page.evaluate("window.progress.find(p => p.boot === 'cold')")
    assert first["phase"] == "pyodide" and first["bootReason"] == reason and first["message"].startswith(f"cold boot ({reason})")
    assert run_all(page, ["cat /keep.txt", "cat /notes/todo.txt"]) == ["kept [exit:0]", "buy milk\nwrite tests [exit:0]"]
    new = stored_snapshot(page, not_before=old["createdAt"])
    assert new["key"] == new["expectedKey"] and new["checksumOk"] is True
    close_tool(page)
    assert boot(page, onetool_site_url, harness, db)["boot"] == "snapshot"
    assert run_all(page, ["cat /keep.txt"]) == ["kept [exit:0]"]
