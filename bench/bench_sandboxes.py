"""Several <onetool-sandbox> elements on one page, measured in headless Chromium (a benchmark, not a test).

    python bench/bench_sandboxes.py [--counts 1,2,4,8] [--runs N] [--no-build] [--site DIR]

For 1 / 2 / 4 / 8 sandboxes on one page, all in view, each measured in a fresh profile:
  * time from adding the sandboxes to all of them `ready` (ms, median of --runs);
  * the memory the browser gained: the PSS (proportional set size, /proc/<pid>/smaps_rollup)
    of the Chromium process tree after all are ready, minus before they were added. Linux
    only. (`performance.measureUserAgentSpecificMemory()` sees only the page's own agent
    cluster and waits for a garbage collection; Chromium's CDP has no per-process memory
    query that counts workers: the process tree's PSS is what the machine pays.)
Both paths in the same run and the same browser: the page's shared worker (the default) and
the old one-worker-each path (the `own-worker` attribute). Targets for the shared path:
8 sandboxes <= 1.3x one in time and <= 1.5x one in memory.
The site is built first (build.py build) unless --no-build; it is served on 127.0.0.1 with the
COOP/COEP headers of `build.py serve`. Nothing here leaves the machine.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.serve import start_server  # noqa: E402

SITE = ROOT / "dist" / "site"
BOOT_TIMEOUT_MS = 300_000
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Content-Type": "text/html; charset=utf-8",
}
BLANK_PAGE = "<!doctype html><meta charset=utf-8><title>bench</title><body>bench</body>"

# Add `count` sandboxes (own-worker or shared), all in view; ms until every one is ready.
SANDBOXES_JS = """async ({count, ownWorker}) => {
  await import("./js/sandbox-element.js");
  const started = performance.now();
  const boxes = [];
  for (let i = 0; i < count; i++) {
    const box = document.createElement("onetool-sandbox");
    box.setAttribute("label", `sandbox ${i}`);
    box.setAttribute("files", JSON.stringify({"/notes.txt": `sandbox ${i}\\n`}));
    if (ownWorker) box.setAttribute("own-worker", "");
    document.body.append(box);
    boxes.push(box);
  }
  const tools = await Promise.all(boxes.map((box) => box.ready));
  const elapsed = performance.now() - started;
  const texts = await Promise.all(tools.map((tool) => tool.run("cat /notes.txt")));
  texts.forEach((text, i) => { if (!text.startsWith(`sandbox ${i}\\n`)) throw new Error(text); });
  return elapsed;
}"""


# --- the browser and its memory -----------------------------------------------------------------

def launch(playwright, tag: str):
    """Playwright's own Chromium when installed, else the system's; `tag` finds its processes."""
    args = [f"--onetool-bench={tag}"]
    try:
        return playwright.chromium.launch(headless=True, args=args)
    except Exception:
        for path in SYSTEM_CHROMIUM:
            if Path(path).exists():
                return playwright.chromium.launch(headless=True, executable_path=path, args=["--no-sandbox", *args])
        raise


def process_tree(tag: str) -> list[int]:
    """The browser process started with --onetool-bench=<tag> and all its descendants."""
    parents, roots = {}, []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
        if f"--onetool-bench={tag}".encode() in cmdline:
            roots.append(int(entry.name))
    tree, frontier = set(roots), list(roots)
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sorted(tree)


def tree_pss_bytes(tag: str) -> int:
    total = 0
    for pid in process_tree(tag):
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue  # ended meanwhile
    return total


# --- measurements ----------------------------------------------------------------------------

def measure(browser, tag: str, base_url: str, count: int, own_worker: bool) -> tuple[float, int]:
    """A fresh profile: ms until `count` sandboxes are ready, and the PSS the browser gained."""
    context = browser.new_context(viewport={"width": 1280, "height": 4000})  # all in view
    context.route(base_url + "__bench.html",
                  lambda route: route.fulfill(status=200, body=BLANK_PAGE, headers=ISOLATION_HEADERS))
    page = context.new_page()
    page.goto(base_url + "__bench.html")
    page.wait_for_timeout(500)
    before = tree_pss_bytes(tag)
    elapsed = page.evaluate(SANDBOXES_JS, {"count": count, "ownWorker": own_worker})
    page.wait_for_timeout(1500)  # let a cold boot's snapshot write and the heaps settle
    after = tree_pss_bytes(tag)
    context.close()
    return elapsed, after - before


# --- report ----------------------------------------------------------------------------------

def report(results: dict, counts: list[int], browser_version: str) -> None:
    print(f"\nsandboxes bench: headless Chromium {browser_version}, {os.cpu_count()} cores, "
          f"{platform.system()} {platform.machine()}")
    print("\nN sandboxes on one page: ms until all ready, browser memory gained (PSS, MB); median")
    print(f"{'N':>3} {'shared ms':>10} {'x one':>7} {'shared MB':>10} {'x one':>7}"
          f"   {'own-worker ms':>13} {'x one':>7} {'own-worker MB':>13} {'x one':>7}")
    one = {mode: (median(results[mode, counts[0]]["ms"]), median(results[mode, counts[0]]["bytes"]))
           for mode in ("shared", "own")}
    for count in counts:
        cells = [f"{count:>3}"]
        for mode, width in (("shared", 10), ("own", 13)):
            ms, size = median(results[mode, count]["ms"]), median(results[mode, count]["bytes"])
            cells.append(f"{ms:>{width}.0f} {ms / one[mode][0]:>6.2f}x {size / 1048576:>{width}.0f} "
                         f"{size / one[mode][1]:>6.2f}x")
        print(" ".join(cells[:1]) + " " + "   ".join(cells[1:]), flush=True)
    last = counts[-1]
    if last != counts[0]:
        ms = median(results["shared", last]["ms"]) / one["shared"][0]
        size = median(results["shared", last]["bytes"]) / one["shared"][1]
        print(f"\nshared, {last} vs {counts[0]}: time {ms:.2f}x (target <= 1.3x), memory {size:.2f}x (target <= 1.5x)")


def median(values) -> float:
    return statistics.median(values)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", default="1,2,4,8", help="sandboxes per page (default 1,2,4,8)")
    parser.add_argument("--runs", type=int, default=1, help="fresh profiles per measurement (default 1)")
    parser.add_argument("--no-build", action="store_true", help="use the site as it is")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site to serve (default dist/site)")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.counts.split(",")]
    if not Path("/proc/self/smaps_rollup").exists():
        print("bench_sandboxes: needs Linux /proc (smaps_rollup) to measure memory", file=sys.stderr)
        return 1
    if not args.no_build:
        import build
        build.build_site()
    if not (args.site / "index.html").exists():
        print(f"bench_sandboxes: {args.site} has no index.html; run python build.py build", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    server = start_server(args.site)
    base_url = server.url + "/"
    tag = uuid.uuid4().hex[:12]
    results = {}
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright, tag)
            for _ in range(args.runs):
                for count in counts:
                    for mode in ("shared", "own"):  # alternated: boots are noisy on 2 cores
                        ms, size = measure(browser, tag, base_url, count, own_worker=mode == "own")
                        entry = results.setdefault((mode, count), {"ms": [], "bytes": []})
                        entry["ms"].append(ms)
                        entry["bytes"].append(size)
            report(results, counts, browser.version)
            browser.close()
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
