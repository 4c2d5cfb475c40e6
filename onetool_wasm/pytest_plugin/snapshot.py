"""The boot snapshot, carried from one browser context into new ones.

A runtime's first boot in a browser profile restores the site's own boot snapshot (about
1.5 s; a site built without one boots cold, about 5 s); it then stores the snapshot in
IndexedDB, which the next boot restores in about 0.9 s (docs/BROWSER.md,
"Boot snapshot"). Each Playwright context is a new profile, so every test would take the first
path. The plugin takes the record out of the session's page once (`export_snapshot`) and writes
it into each new context before its test (`import_snapshot`): the page's own module
web/js/snapshot-store.js reads and writes it, so the record is whatever the runtime made,
checked by the runtime as on any repeat visit.

Bytes cross between the page and Python through the site's own server (a POST out, a GET in:
server.py's memory files; Playwright's pipe is slow for 40 MB), packed as
[4-byte big-endian header length][JSON header][the record's byte arrays]; in the header each
Uint8Array field is {"$bytes": [offset, length]}.
"""
from __future__ import annotations

TRANSFER = "/__onetool_pytest__/boot-snapshot.bin"
WAIT_MS = 120_000

PACK_JS = """async ([module, url, waitMs]) => {
  const store = await import(module);
  const started = performance.now();
  let record = await store.readSnapshot();
  while (!record && performance.now() - started < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    record = await store.readSnapshot();
  }
  if (!record) return false;
  const header = {};
  const parts = [];
  let offset = 0;
  for (const [name, value] of Object.entries(record)) {
    if (value instanceof Uint8Array) {
      header[name] = {$bytes: [offset, value.byteLength]};
      parts.push(value);
      offset += value.byteLength;
    } else {
      header[name] = value;
    }
  }
  const head = new TextEncoder().encode(JSON.stringify(header));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, head.byteLength);
  const response = await fetch(url, {method: "POST", body: new Blob([length, head, ...parts])});
  return response.ok;
}"""

UNPACK_JS = """async ([module, url]) => {
  const store = await import(module);
  const packed = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const headLength = new DataView(packed.buffer).getUint32(0);
  const header = JSON.parse(new TextDecoder().decode(packed.subarray(4, 4 + headLength)));
  const body = 4 + headLength;
  const record = {};
  for (const [name, value] of Object.entries(header)) {
    record[name] = value && value.$bytes
      ? packed.slice(body + value.$bytes[0], body + value.$bytes[0] + value.$bytes[1]) : value;
  }
  await store.writeSnapshot(record);
}"""


def store_module_url(site_url: str, runtime_module: str) -> str:
    """web/js/snapshot-store.js sits beside onetool.js."""
    return site_url + runtime_module.rsplit("/", 1)[0] + "/snapshot-store.js" if "/" in runtime_module \
        else site_url + "snapshot-store.js"


def export_snapshot(page, server, runtime_module: str) -> bytes | None:
    """The snapshot record of `page`'s profile, packed (waits for its first boot to store it);
    None when the page stored none (snapshots off). The page
    POSTs it to `server` (the site's, server.py), so it never crosses Playwright's pipe."""
    site_url = server.url + "/"
    server.upload_paths.add(TRANSFER)
    try:
        ok = page.evaluate(PACK_JS, [store_module_url(site_url, runtime_module), server.url + TRANSFER, WAIT_MS])
        packed = server.memory_files.pop(TRANSFER, None)
    finally:
        server.upload_paths.discard(TRANSFER)
    return packed if ok else None


def offer_snapshot(server, packed: bytes) -> None:
    """Serve the packed record at TRANSFER from now on (import_snapshot fetches it there)."""
    server.memory_files[TRANSFER] = packed


def import_snapshot(page, site_url: str, runtime_module: str) -> None:
    """Write the offered record into the IndexedDB of `page`'s profile (the page is on the site)."""
    page.evaluate(UNPACK_JS, [store_module_url(site_url, runtime_module), site_url.rstrip("/") + TRANSFER])
