"""The browser, measured in headless Chromium against the built site (a benchmark, not a test).

    python bench/bench_browser.py [--runs N] [--screenshot docs/playground.png] [--no-build] [--site DIR]

Prints, each against a baseline in the same browser:
  * boot: page open -> first `run` result in the playground, vs a bare `loadPyodide()` of the
    same runtime files; cold (fresh profile) and repeat visit (warm HTTP cache);
  * the boot snapshot: first visit (fresh profile: the site's snapshot restored) vs bare
    `loadPyodide()` (target <= 1.15x), the same without the site's snapshot (a cold boot), repeat
    visit (restored from the stored snapshot; target <= 1.0 s) absolute and vs bare, the
    snapshot's size and its restore time, each row measured in the same browser. A repeat visit
    is a user coming back: the first visit's page is gone (about:blank in between) and its
    service worker has finished caching the site (26 MB, written while the first visit's page
    is still open);
  * the phases of both boots (medians): on the page (until the worker is created, the worker's
    init, opening the file system, the first run) and in the worker (`bootPhases` of the init
    answer: boot.js's phases and start());
  * `run("echo hi")` round trip from the page (median of 50);
  * 1,000 `write` commands into the IndexedDB store, and the restore after a reload (boot over
    the 1,000-file store minus boot over an empty one), vs plain IndexedDB puts / getAll of
    the same records in the same page.
With --screenshot it also saves the playground (1280x800) after a few demo commands.
The site is built first (build.py build) unless --no-build; it is served on 127.0.0.1 with the
COOP/COEP headers of `build.py serve`. Nothing here leaves the machine.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.serve import start_server  # noqa: E402

SITE = ROOT / "dist" / "site"
BOOT_TIMEOUT_MS = 180_000
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Content-Type": "text/html; charset=utf-8",
}

# A same-origin page served by the bench itself (route interception): no UI, just the probes.
BLANK_PAGE = "<!doctype html><meta charset=utf-8><title>bench</title><body>bench</body>"
BARE_PYODIDE_PAGE = """<!doctype html><meta charset=utf-8><title>bare</title>
<script type="module">
  import { loadPyodide } from "./pyodide/pyodide.mjs";
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  pyodide.runPython("1 + 1");
  window.__readyAt = performance.now();
</script>"""

ROUND_TRIP_JS = """async (count) => {
  const times = [];
  for (let i = 0; i < count + 5; i++) {
    const started = performance.now();
    await window.onetool.run("echo hi");
    if (i >= 5) times.push(performance.now() - started);
  }
  return times;
}"""

WRITES_JS = """async ({count, store}) => {
  const { createOneTool } = await import("./js/onetool.js");
  const tool = await createOneTool({ storage: { kind: "indexeddb", name: store } });
  await tool.reset();
  await tool.run("mkdir /bench");
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const text = await tool.run(`write /bench/f${String(i).padStart(4, "0")}.txt content-${i}`);
    if (!text.includes("[exit:0")) throw new Error(text);
  }
  const elapsed = performance.now() - started;
  await tool.close();
  return elapsed;
}"""

PLAIN_PUTS_JS = """async ({count, name}) => {
  const open = () => new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("files", { keyPath: "path" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const db = await open();
  const done = (tx) => new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  const clear = db.transaction("files", "readwrite");
  clear.objectStore("files").clear();
  await done(clear);
  const encoder = new TextEncoder();
  const started = performance.now();
  for (let i = 0; i < count; i++) {   // one committed transaction per file, like each `write`
    const tx = db.transaction("files", "readwrite");
    tx.objectStore("files").put({ path: `/bench/f${String(i).padStart(4, "0")}.txt`,
                                  data: encoder.encode(`content-${i}`), mtimeMs: Date.now() });
    await done(tx);
  }
  const elapsed = performance.now() - started;
  db.close();
  return elapsed;
}"""

RESTORE_JS = """async ({store, expected}) => {
  const { createOneTool } = await import("./js/onetool.js");
  const started = performance.now();
  const tool = await createOneTool({ storage: { kind: "indexeddb", name: store } });
  const execution = await tool.runDetailed("find /bench -type f");
  const elapsed = performance.now() - started;
  await tool.close();
  const listed = new TextDecoder().decode(execution.stdout).split("\\n").filter(Boolean).length;
  if (listed !== expected) throw new Error(`restore listed ${listed} files, expected ${expected}`);
  return elapsed;
}"""

PLAIN_GET_ALL_JS = """async ({name}) => {
  const started = performance.now();
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const records = await new Promise((resolve, reject) => {
    const request = db.transaction("files", "readonly").objectStore("files").getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const elapsed = performance.now() - started;
  db.close();
  if (records.length === 0) throw new Error("no records");
  return elapsed;
}"""


# --- the site and the browser ---------------------------------------------------------------

def launch(playwright):
    """Playwright's own Chromium when installed, else the system's."""
    try:
        return playwright.chromium.launch(headless=True)
    except Exception:
        for path in SYSTEM_CHROMIUM:
            if Path(path).exists():
                return playwright.chromium.launch(headless=True, executable_path=path, args=["--no-sandbox"])
        raise


def new_page(browser, base_url: str):
    """A fresh profile (empty caches and IndexedDB) with the bench's own same-origin pages."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pages = {"__bench.html": BLANK_PAGE, "__bare.html": BARE_PYODIDE_PAGE}
    for name, html in pages.items():
        context.route(base_url + name, fulfill_with(html))
    page = context.new_page()
    return context, page


def fulfill_with(html: str):
    def handler(route) -> None:
        route.fulfill(status=200, body=html, headers=ISOLATION_HEADERS)
    return handler


# --- measurements ----------------------------------------------------------------------------

def playground_first_result(page, url: str) -> float:
    """ms from navigation start until the first `run` result, through the playground page."""
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_TIMEOUT_MS)
    return page.evaluate("async () => { await window.onetool.run('echo hi'); return performance.now(); }")


def bare_pyodide(page, url: str) -> float:
    page.goto(url)
    page.wait_for_function("window.__readyAt !== undefined", timeout=BOOT_TIMEOUT_MS)
    return page.evaluate("window.__readyAt")


def revisit(probe, page, url: str) -> float:
    """`probe` on a page opened again, as a user coming back: the last page is gone first."""
    page.goto("about:blank")
    return probe(page, url)


def boot_times(browser, base_url: str, runs: int) -> dict[str, list[float]]:
    """Cold (first visit of a fresh profile) and warm (reloads) for both pages."""
    probes = {"playground": (playground_first_result, base_url + "index.html?world=demo"),
              "bare loadPyodide()": (bare_pyodide, base_url + "__bare.html")}
    times = {}
    for name, (probe, url) in probes.items():
        cold, warm = [], []
        for _ in range(runs):
            context, page = new_page(browser, base_url)
            cold.append(probe(page, url))
            warm.extend(probe(page, url) for _ in range(2))
            context.close()
        times[f"{name} cold"] = cold
        times[f"{name} warm"] = warm
    return times


# The service worker is active once it has cached every file of the site (sw.js install).
SITE_CACHED_JS = """async () => {
  if (!("serviceWorker" in navigator)) return false;
  const registration = await navigator.serviceWorker.ready;
  return Boolean(registration.active);
}"""
SNAPSHOT_STORED_JS = """async () => {
  const store = await import("./js/snapshot-store.js");
  for (let i = 0; i < 1200; i++) {
    const record = await store.readSnapshot().catch(() => null);
    if (record) return record.memory.byteLength + record.files.byteLength;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}"""
BOOT_INFO_JS = "async () => { const info = await window.onetool.booting; return info; }"
# Page-side times of the worker's calls (init, open, the first run), from a wrapped Worker.
TIMELINE_JS = """(() => {
  const Native = window.Worker;
  const t = window.__timeline = { calls: {}, replies: {} };
  window.Worker = function (url, options) {
    t.worker ??= performance.now();
    const worker = new Native(url, options);
    const methods = {};
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message, ...rest) => {
      if (message?.kind === "call") { methods[message.id] = message.method; t.calls[message.method] ??= performance.now(); }
      return post(message, ...rest);
    };
    worker.addEventListener("message", (event) => {
      const m = event.data;
      if (m?.kind === "reply" && methods[m.id]) t.replies[methods[m.id]] ??= performance.now();
    });
    return worker;
  };
  window.Worker.prototype = Native.prototype;
})();"""


def boot_phases(page, info: dict) -> dict[str, float]:
    """{phase: ms} of one boot: the page's timeline, then the worker's bootPhases (worker.*)."""
    t = page.evaluate("window.__timeline ?? null")
    phases = {}
    if t and t.get("worker") is not None:
        calls, replies = t["calls"], t["replies"]
        phases["page: until new Worker"] = t["worker"]
        for method, label in (("init", "page: worker init"), ("open", "page: open file system"), ("run", "page: first run")):
            if method in calls and method in replies:
                phases[label] = replies[method] - calls[method]
    for name, ms in (info.get("bootPhases") or {}).items():
        phases[f"worker.{name}"] = ms
    return phases


def snapshot_times(browser, base_url: str, runs: int) -> dict:
    """Per fresh profile: the first visit (the site's snapshot restored, then stored), then
    repeat visits that restore the stored one; in another fresh profile the first visit without
    the site's snapshot (a cold boot); bare loadPyodide() cold and warm in a third, alternated."""
    url = base_url + "index.html?world=demo"
    first, cold, repeat, bare_cold, bare_warm, restore, sizes, paths = [], [], [], [], [], [], [], []
    first_phases, cold_phases, repeat_phases = [], [], []

    def visit(page, times, phases):
        times.append(playground_first_result(page, url))
        info = page.evaluate(BOOT_INFO_JS)
        paths.append(f"{info['boot']}:{info.get('snapshotSource') or '-'}")
        phases.append(boot_phases(page, info))
        return info

    for _ in range(runs):
        context, page = new_page(browser, base_url)
        page.add_init_script(TIMELINE_JS)
        visit(page, first, first_phases)
        sizes.append(page.evaluate(SNAPSHOT_STORED_JS))
        if not page.evaluate(SITE_CACHED_JS):
            raise RuntimeError("bench_browser: the site's service worker did not become active")
        for _ in range(2):
            page.goto("about:blank")
            restore.append(visit(page, repeat, repeat_phases).get("snapshotRestoreMs") or float("nan"))
        context.close()
        context, page = new_page(browser, base_url)
        page.add_init_script(TIMELINE_JS)
        page.route("**/boot/snapshot.bin", lambda route: route.fulfill(status=404, body="not here"))
        visit(page, cold, cold_phases)
        context.close()
        context, page = new_page(browser, base_url)
        bare_cold.append(bare_pyodide(page, base_url + "__bare.html"))
        bare_warm.extend(revisit(bare_pyodide, page, base_url + "__bare.html") for _ in range(2))
        context.close()
    return {"first": first, "cold": cold, "repeat": repeat, "bare cold": bare_cold, "bare warm": bare_warm,
            "restore": restore, "size": sizes, "paths": paths,
            "first phases": first_phases, "cold phases": cold_phases, "repeat phases": repeat_phases}


def vfs_times(browser, base_url: str, count: int, restores: int = 5) -> dict[str, float]:
    context, page = new_page(browser, base_url)
    page.goto(base_url + "__bench.html")
    ours = page.evaluate(WRITES_JS, {"count": count, "store": "bench-vfs"})
    plain = page.evaluate(PLAIN_PUTS_JS, {"count": count, "name": "bench-plain"})
    page.reload()
    page.evaluate("async () => { const { createOneTool } = await import('./js/onetool.js');"
                  " const t = await createOneTool({storage: {kind: 'indexeddb', name: 'bench-empty'}});"
                  " await t.reset(); await t.run('mkdir /bench'); await t.close(); }")
    full, empty, get_all = [], [], []
    for _ in range(restores):  # alternated, each after a reload: boots are noisy on 2 cores
        page.reload()
        full.append(page.evaluate(RESTORE_JS, {"store": "bench-vfs", "expected": count}))
        page.reload()
        empty.append(page.evaluate(RESTORE_JS, {"store": "bench-empty", "expected": 0}))
        page.reload()
        get_all.append(page.evaluate(PLAIN_GET_ALL_JS, {"name": "bench-plain"}))
    context.close()
    return {"writes": ours, "plain puts": plain, "boot+restore": median(full),
            "boot, empty store": median(empty), "plain getAll": median(get_all)}


def round_trip(browser, base_url: str, count: int) -> list[float]:
    context, page = new_page(browser, base_url)
    page.goto(base_url + "index.html?world=demo")
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_TIMEOUT_MS)
    times = page.evaluate(ROUND_TRIP_JS, count)
    context.close()
    return times


def screenshot(browser, base_url: str, path: Path) -> None:
    """The playground after a few demo commands, with the trace of the last one."""
    context, page = new_page(browser, base_url)
    page.goto(base_url + "index.html?world=demo")
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_TIMEOUT_MS)
    page.click("#world-reset")
    page.wait_for_function("!document.querySelector('#world-reset').disabled")
    for line in ("cat /logs/app.log | grep ERROR | wc -l", "fetch order:123 | json get customer.email",
                 "tree /config", "write /reports/errors.txt 'payment timeouts: 2'",
                 "grep -c timeout /logs/app.log && cat /logs/app.log | grep ERROR | cut -d ' ' -f 3-5"):
        entries = page.locator("#term-output .entry .out").count()
        page.fill("#term-input", line)
        page.press("#term-input", "Enter")
        page.locator("#term-output .entry .out").nth(entries).wait_for()
    page.wait_for_timeout(300)
    page.mouse.move(0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    context.close()
    print(f"screenshot: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


# --- report ----------------------------------------------------------------------------------

def median(values) -> float:
    return statistics.median(values)


def report_boot(boot: dict, browser_version: str) -> None:
    print(f"\nbrowser bench: headless Chromium {browser_version}, {os.cpu_count()} cores, "
          f"{platform.system()} {platform.machine()}")
    print("\nboot (ms from navigation start; median, cold = fresh profile, warm = reload):")
    for mode in ("cold", "warm"):
        ours, bare = median(boot[f"playground {mode}"]), median(boot[f"bare loadPyodide() {mode}"])
        print(f"  {mode:<5} playground -> first run result {ours:8.0f}   "
              f"bare loadPyodide() {bare:8.0f}   ratio {ours / bare:5.2f}x", flush=True)


def report_snapshot(times: dict) -> None:
    first, bare_cold = median(times["first"]), median(times["bare cold"])
    repeat, bare_warm = median(times["repeat"]), median(times["bare warm"])
    sizes = [size for size in times["size"] if size]
    print("\nboot snapshot (ms from navigation start to the first `run` result; median):")
    cold = median(times["cold"])
    print(f"  first visit (site snapshot)  {first:8.0f}   bare loadPyodide() cold {bare_cold:8.0f}   "
          f"ratio {first / bare_cold:5.2f}x   (target <= 1.15x)")
    print(f"  first visit, no site snapshot (cold boot) {cold:8.0f}   ratio {cold / bare_cold:5.2f}x")
    print(f"  repeat visit (stored)        {repeat:8.0f}   bare loadPyodide() warm {bare_warm:8.0f}   "
          f"ratio {repeat / bare_warm:5.2f}x   (target <= 1000 ms)")
    print(f"  snapshot size {median(sizes) / 1048576 if sizes else float('nan'):.1f} MB; restore (in the worker) "
          f"{median(times['restore']):.0f} ms; paths {', '.join(times['paths'])}", flush=True)
    report_phases({"first": times["first phases"], "cold": times["cold phases"], "repeat": times["repeat phases"]},
                  bare_cold)


def report_phases(columns: dict[str, list[dict]], bare_cold: float) -> None:
    """Phase medians of each kind of visit (a column each)."""
    names = list(dict.fromkeys(name for rows in columns.values() for row in rows for name in row))
    if not names:
        return
    def cell(rows, name):
        values = [row[name] for row in rows if name in row]
        return f"{median(values):8.0f}" if values else f"{'-':>8}"
    print(f"\nboot phases (ms, median; bare loadPyodide() cold {bare_cold:.0f}):")
    print(f"  {'phase':<32} " + " ".join(f"{column:>8}" for column in columns))
    for name in names:
        print(f"  {name:<32} " + " ".join(cell(rows, name) for rows in columns.values()))


def report_round_trip(trips: list[float]) -> None:
    print(f"\nrun('echo hi') round trip from the page: median {median(trips):.2f} ms "
          f"(p90 {statistics.quantiles(trips, n=10)[-1]:.2f} ms, {len(trips)} runs)", flush=True)


def report_vfs(vfs: dict, count: int) -> None:
    restore = vfs["boot+restore"] - vfs["boot, empty store"]
    print(f"\nIndexedDB, {count:,} files:")
    print(f"  {count:,} `write` commands      {vfs['writes']:8.0f} ms   plain puts (a transaction each) "
          f"{vfs['plain puts']:8.0f} ms   ratio {vfs['writes'] / vfs['plain puts']:5.2f}x")
    print(f"  reload restore              {restore:8.0f} ms   plain getAll "
          f"{vfs['plain getAll']:8.0f} ms   ratio {restore / max(vfs['plain getAll'], 0.1):5.2f}x")
    print(f"    (median boot over the {count:,}-file store {vfs['boot+restore']:.0f} ms "
          f"- over an empty store {vfs['boot, empty store']:.0f} ms)", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh profiles per boot measurement (default 3)")
    parser.add_argument("--files", type=int, default=1000, help="files written for the VFS measurement")
    parser.add_argument("--screenshot", type=Path, help="also save the playground screenshot here")
    parser.add_argument("--screenshot-only", action="store_true", help="only take the screenshot")
    parser.add_argument("--no-build", action="store_true", help="use the site as it is")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site to serve (default dist/site)")
    args = parser.parse_args(argv)
    if not args.no_build:
        import build
        build.build_site()
    if not (args.site / "index.html").exists():
        print(f"bench_browser: {args.site} has no index.html; run python build.py build", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    server = start_server(args.site)
    base_url = server.url + "/"
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            if args.screenshot or args.screenshot_only:
                screenshot(browser, base_url, (args.screenshot or ROOT / "docs" / "playground.png").resolve())
            if not args.screenshot_only:
                report_boot(boot_times(browser, base_url, args.runs), browser.version)
                report_snapshot(snapshot_times(browser, base_url, args.runs))
                report_round_trip(round_trip(browser, base_url, 50))
                report_vfs(vfs_times(browser, base_url, args.files), args.files)
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
