"""Embedding the distributable web runtime (dist/runtime/onetool-wasm-web-<version>/) on other
sites, as docs/EMBEDDING.md tells: every HTML snippet of that page is read out of it and run
here, in Chromium.

* another origin: a page on origin A (its own server, a temporary folder holding only that
  page) imports createOneTool and <onetool-sandbox> from the runtime served on origin B, with
  A cross-origin isolated (COOP/COEP) and not;
* the same origin: the folder copied under a temporary site as `onetool/`, the doc's page at
  the site's root, and the doc's offline page inside the folder (service worker scope);
* micropip: a plain Pyodide page on origin C, with C's own copy of Pyodide (the npm package's
  runtime and its own lock file: a fresh Pyodide), installs the wheels from B with the snippet
  of docs/BROWSER.md and runs a command.

Cross-origin pages run in contexts made here (the plugin's Watch flags any request outside the
page's origin): they fail on page errors and console errors too, and assert which origins
were asked for what.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from onetool_wasm.pytest_plugin.server import start_server  # what `build.py serve` serves with

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "dist" / "site"
EMBEDDING = ROOT / "docs" / "EMBEDDING.md"
BROWSER = ROOT / "docs" / "BROWSER.md"
DOC_RUNTIME_URL = "https://runtime.example.com/onetool/"  # where docs/EMBEDDING.md's runtime lives
DOC_MICROPIP_SITE = "https://example.org/onetool/"  # docs/BROWSER.md's example site
NPM_PYODIDE = ROOT / ".cache" / "npm" / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WHEEL_CACHE = ROOT / ".cache" / "wheels"
VENV_PYTHON = ROOT / ".cache" / "venv" / "bin" / "python"
# The micropip of Pyodide 314.0.7, from PyPI (as tests/pyodide/micropip_install.mjs takes it).
MICROPIP = ("micropip-0.11.1-py3-none-any.whl", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3")
BOOT_MS = 180_000
RUN_OUTPUT = re.compile(r"6\n\n\[exit:0 \| \d+ms\]")
SORTED_FRUIT = re.compile(r"^      2 apple\n      1 banana\n\n\[exit:0 \| \d+ms\]")
FAVICON = '<link rel="icon" href="data:,">'


# -- the snippets ----------------------------------------------------------------------------

def snippet(doc: Path, section: str, language: str) -> str:
    """The first ```<language> block of the section `## <section>` of `doc`."""
    text = doc.read_text()
    start = text.find(f"\n## {section}\n")
    assert start > -1, f"{doc.name} has no section {section!r}"
    following = text[start + 1:]
    end = following.find("\n## ")
    block = re.search(rf"```{language}\n(.*?)```", following if end < 0 else following[:end], re.S)
    assert block, f"the section {section!r} of {doc.name} has no {language} block"
    return block.group(1)


def cross_origin_page(runtime_url: str) -> str:
    page = snippet(EMBEDDING, "Another origin", "html")
    assert page.count(DOC_RUNTIME_URL) == 2 and FAVICON in page
    return page.replace(DOC_RUNTIME_URL, runtime_url)


# -- servers and watched contexts ------------------------------------------------------------

@pytest.fixture(scope="module")
def runtime_folder(onetool_site_dir, tmp_path_factory) -> Path:
    """A copy of dist/runtime/onetool-wasm-web-<version>/ (onetool_site_dir builds unless
    ONETOOL_E2E_BUILT=1), so that a rebuild during the tests does not pull files away."""
    version = json.loads((SITE / "onetool-manifest.json").read_text())["version"]
    folder = ROOT / "dist" / "runtime" / f"onetool-wasm-web-{version}"
    assert (folder / "onetool-manifest.json").is_file(), f"{folder}: run `python build.py build`"
    return Path(shutil.copytree(folder, tmp_path_factory.mktemp("runtime") / folder.name))


@pytest.fixture(scope="module")
def runtime_url(runtime_folder) -> str:
    """Origin B: the distributable folder, served as `build.py serve` serves (COOP/COEP, CORP,
    Access-Control-Allow-Origin: *)."""
    server = start_server(runtime_folder)
    yield server.url + "/"
    server.shutdown()


@pytest.fixture
def serve_folder():
    """serve_folder(path, isolated) -> "http://127.0.0.1:<port>/": another origin for a test."""
    servers = []

    def start(path: Path, isolated: bool = True) -> str:
        server = start_server(path, isolated=isolated)
        servers.append(server)
        return server.url + "/"
    yield start
    for server in servers:
        server.shutdown()


class Recorder:
    """A context's page errors, console errors and failed requests (problems), and every URL
    it asked for (pages, workers)."""

    def __init__(self, context) -> None:
        self.problems: list[str] = []
        self.urls: list[str] = []
        context.on("weberror", lambda error: self.problems.append(f"page error: {error.error}"))
        context.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        context.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} {r.failure}"))
        context.on("request", lambda r: self.urls.append(r.url))

    def origins(self) -> set[str]:
        return {f"{urlsplit(u).scheme}://{urlsplit(u).netloc}/" for u in self.urls
                if urlsplit(u).scheme in ("http", "https")}

    def paths_from(self, origin: str) -> set[str]:
        return {urlsplit(u).path.lstrip("/") for u in self.urls if u.startswith(origin)}


@pytest.fixture
def recorded_context(onetool_browser):
    contexts = []

    def make():
        context = onetool_browser.new_context()
        context.set_default_timeout(60_000)
        recorder = Recorder(context)
        contexts.append((context, recorder))
        return context, recorder
    yield make
    problems = [p for _, recorder in contexts for p in recorder.problems]
    for context, _ in contexts:
        context.close()
    assert not problems, "\n".join(problems)


def wait_for_the_page(page) -> None:
    """The doc's page: #out filled by createOneTool, and its sandbox's autorun shown."""
    page.wait_for_function("document.querySelector('#out').textContent !== ''", timeout=BOOT_MS)
    assert RUN_OUTPUT.fullmatch(page.locator("#out").text_content())
    page.wait_for_function("document.querySelector('onetool-sandbox').hasAttribute('ready')", timeout=BOOT_MS)
    expect(page.locator("onetool-sandbox .out").first).to_have_text(SORTED_FRUIT, timeout=60_000)


# -- another origin ----------------------------------------------------------------------------

INTERRUPT_JS = """async (runtime) => {
  const { createOneTool } = await import(runtime + "js/onetool.js");   // the page's module
  const tool = await createOneTool({ storage: { kind: "memory" }, interruptGraceMs: 20000 });
  const running = tool.run("echo x | sed ':a;ba'");
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { outcome } = await tool.interrupt();
  const text = await running;
  const after = await tool.run("echo still here");
  const info = { ...tool.info };
  await tool.close();
  return { outcome, text, after, sharedInterrupt: info.sharedInterrupt };
}"""


@pytest.mark.parametrize("isolated", [True, False], ids=["isolated-page", "plain-page"])
def test_a_page_on_another_origin_embeds_the_runtime(runtime_folder, runtime_url, serve_folder, recorded_context, tmp_path, isolated):
    (tmp_path / "index.html").write_text(cross_origin_page(runtime_url))
    page_url = serve_folder(tmp_path, isolated=isolated)
    assert page_url != runtime_url
    context, recorder = recorded_context()
    page = context.new_page()
    page.goto(page_url + "index.html")
    wait_for_the_page(page)
    assert page.evaluate("crossOriginIsolated") is isolated

    # The page's origin served only the page; everything else came from the runtime's origin.
    assert recorder.origins() == {page_url, runtime_url}
    assert recorder.paths_from(page_url) == {"index.html"}
    assert {"js/onetool.js", "js/sandbox-element.js", "js/worker.js", "css/sandbox.css", "onetool-manifest.json",
            "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json",
            "boot/site-packages.bin"} <= recorder.paths_from(runtime_url)

    if isolated:
        # The blob: worker inherits the page's isolation: the shared-memory interrupt stops a
        # busy loop without replacing the worker.
        result = page.evaluate(INTERRUPT_JS, runtime_url)
        assert result["sharedInterrupt"] is True
        assert result["outcome"] == "interrupted"
        assert re.search(r"\n\[exit:130 \| [\d.]+m?s\]$", result["text"]), result["text"]
        assert re.fullmatch(r"still here\n\n\[exit:0 \| \d+ms\]", result["after"])


def test_without_cors_headers_the_runtime_cannot_be_imported(runtime_folder, serve_folder, recorded_context, tmp_path):
    """B as a plain static host (no Access-Control-Allow-Origin): the module import fails,
    as docs/EMBEDDING.md says."""
    runtime_url = serve_folder(runtime_folder, isolated=False)
    (tmp_path / "index.html").write_text(cross_origin_page(runtime_url))
    page_url = serve_folder(tmp_path, isolated=True)
    context, recorder = recorded_context()
    page = context.new_page()
    page.goto(page_url + "index.html")
    page.wait_for_timeout(1500)
    assert page.locator("#out").text_content() == ""
    blocked = [p for p in recorder.problems if "blocked by CORS policy" in p]
    assert blocked and all(runtime_url + "js/" in p for p in blocked), recorder.problems
    recorder.problems.clear()  # expected here


# -- the same origin -----------------------------------------------------------------------------

def test_the_folder_copied_under_a_site_same_origin_and_offline(runtime_folder, serve_folder, onetool_new_page, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(runtime_folder, site / "onetool")
    (site / "index.html").write_text(snippet(EMBEDDING, "Same origin", "html"))
    offline_page = snippet(EMBEDDING, "Offline use", "html")
    (site / "onetool" / "index.html").write_text(offline_page)  # the folder's page: cached
    (site / "onetool" / "other.html").write_text(offline_page)  # in scope, not in the manifest
    site_url = serve_folder(site, isolated=True)
    # A fresh profile; the test fails on page or console errors or a request outside the site.
    page = onetool_new_page(site_url, boot_snapshot=False)
    page.goto(site_url + "index.html")
    wait_for_the_page(page)
    assert page.evaluate("crossOriginIsolated") is True

    # The offline page is the folder's own: the service worker's scope is the folder.
    page.goto(site_url + "onetool/")
    state = page.evaluate("""async () => {
      const registration = await navigator.serviceWorker.ready;
      return { scope: registration.scope, script: registration.active.scriptURL };
    }""")
    assert state["scope"] == site_url + "onetool/"
    assert state["script"].startswith(site_url + "onetool/sw.js?v=")
    expect(page.locator("onetool-sandbox .out").first).to_have_text(
        re.compile(r"^works offline\n\n\[exit:0 \| \d+ms\]"), timeout=BOOT_MS)

    page.context.set_offline(True)
    page.watch.allow_console_error("net::ERR_INTERNET_DISCONNECTED")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null") is True
    expect(page.locator("onetool-sandbox .out").first).to_have_text(
        re.compile(r"^works offline\n\n\[exit:0 \| \d+ms\]"), timeout=BOOT_MS)
    # Offline, a page outside the folder (not in the worker's scope) is not there, nor is
    # a page in the folder that the manifest does not list.
    for url in (site_url + "index.html", site_url + "onetool/other.html"):
        with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
            page.goto(url)


# -- a plain Pyodide page, micropip ------------------------------------------------------------

def micropip_wheel() -> Path:
    name, sha256 = MICROPIP
    wheel = WHEEL_CACHE / name
    if not wheel.exists() or hashlib.sha256(wheel.read_bytes()).hexdigest() != sha256:
        spec = "==".join(name.split("-")[:2])
        subprocess.run([str(VENV_PYTHON), "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--platform", "any", "--implementation", "py", "--abi", "none", "--python-version", "3.14",
                        "--dest", str(WHEEL_CACHE), spec], check=True)
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == sha256, f"{wheel} does not match its pinned sha256"
    return wheel


PYODIDE_PAGE = f"""<!doctype html>
<meta charset="utf-8">
{FAVICON}
<title>A plain Pyodide page</title>
<script type="module">
  import {{ loadPyodide }} from "./pyodide/pyodide.mjs";
  window.pyodideReady = loadPyodide({{ indexURL: new URL("./pyodide/", location.href).href }})
    .then((pyodide) => (window.pyodide = pyodide));
</script>
"""

RUN_SNIPPET_JS = """async ({ wheel, code }) => {
  const pyodide = await window.pyodideReady;
  const errors = [];
  await pyodide.loadPackage(wheel, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
  let printed = "";
  pyodide.setStdout({ batched: (line) => { printed += line + "\\n"; } });
  pyodide.setStderr({ batched: (line) => errors.push(line) });
  await pyodide.runPythonAsync(code);
  const installed = JSON.parse(pyodide.runPython(
    "import json, micropip\\njson.dumps({p.name: p.source for p in micropip.list().values()})"));
  return { printed, errors, installed, version: pyodide.version };
}"""


def test_a_plain_pyodide_page_installs_the_wheels_with_micropip(runtime_folder, runtime_url, serve_folder,
                                                                recorded_context, tmp_path):
    own = tmp_path / "pyodide-page"
    (own / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:  # the npm package's runtime and its own lock: a fresh Pyodide
        shutil.copy2(NPM_PYODIDE / name, own / "pyodide" / name)
    shutil.copy2(micropip_wheel(), own / MICROPIP[0])
    (own / "index.html").write_text(PYODIDE_PAGE)
    page_url = serve_folder(own, isolated=False)
    code = snippet(BROWSER, "Installing with micropip (JupyterLite, any Pyodide)", "python")
    assert code.count(f'"{DOC_MICROPIP_SITE}"') == 1
    context, recorder = recorded_context()
    page = context.new_page()
    page.goto(page_url + "index.html")
    result = page.evaluate(RUN_SNIPPET_JS, {"wheel": page_url + MICROPIP[0],
                                            "code": code.replace(f'"{DOC_MICROPIP_SITE}"', json.dumps(runtime_url))})
    assert result["errors"] == []
    assert RUN_OUTPUT.fullmatch(result["printed"].rstrip("\n")) and result["printed"].endswith("]\n")
    manifest = json.loads((runtime_folder / "onetool-manifest.json").read_text())
    expected = {name.split("-")[0].replace("_", "-").lower(): runtime_url + "wheels/" + name
                for name in manifest["wheels"]}
    assert len(expected) == 8
    assert {k: v for k, v in result["installed"].items() if k != "micropip"} == expected
    # Pyodide from the page's origin, the wheels from the runtime's: nothing from a CDN.
    assert recorder.origins() == {page_url, runtime_url}
    assert recorder.paths_from(runtime_url) == {"onetool-manifest.json", *(f"wheels/{n}" for n in manifest["wheels"])}
