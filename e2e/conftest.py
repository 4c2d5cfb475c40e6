"""Fixtures for the browser suite: the built site, headless Chromium, watched pages.

    site_url        dist/site served on 127.0.0.1 with COOP/COEP (tools/serve.py, a thread);
                    the site is built once per session (`python build.py build`) unless
                    ONETOOL_E2E_BUILT=1 says build.py already did it
    plain_site_url  the same files from a server without COOP/COEP (a plain static host)
    browser         Chromium, headless: Playwright's own when installed, else the system's
                    (/usr/bin/chromium, Debian's package), which `python build.py test` installs;
                    ONETOOL_CHROMIUM=<path> (set by build.py) overrides the search
    page            a page in a new browser context; the test fails at teardown if any page of
                    that context had an uncaught error, a console error, or made a request
                    outside the site's origin. `page.watch` is its Watch (see below)
    new_watched_page(site_url) -> page   for module-scoped fixtures (one boot for many tests)
    fresh_db_name() -> str               an IndexedDB name no other test uses

A new context has its own IndexedDB, so tests do not see each other's files; two pages of
one context (page.context.new_page()) share storage like two tabs.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "dist" / "site"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")

try:
    from playwright.sync_api import sync_playwright
except ImportError as error:  # not a skip: the suite must run, so say how to get it
    raise RuntimeError("the e2e suite needs the `playwright` package: run `python build.py test --only e2e`, "
                       "which installs it into .cache/venv") from error

sys.path.insert(0, str(ROOT))
from tools.serve import start_server  # noqa: E402


# -- the site ------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def site_url() -> str:
    if os.environ.get("ONETOOL_E2E_BUILT") != "1":
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    if not (SITE / "onetool-manifest.json").exists():
        raise RuntimeError(f"{SITE} has no onetool-manifest.json: run `python build.py build`")
    server = start_server(SITE)
    yield server.url + "/"
    server.shutdown()


@pytest.fixture(scope="session")
def plain_site_url(site_url) -> str:
    """The same site from a plain static server: no COOP/COEP, so not cross-origin isolated."""
    server = start_server(SITE, isolated=False)
    yield server.url + "/"
    server.shutdown()


# -- the browser -----------------------------------------------------------------------------

def chromium_executable(playwright) -> str | None:
    """ONETOOL_CHROMIUM when build.py chose (empty: Playwright's own); else Playwright's own
    Chromium if installed (None), else a system one."""
    chosen = os.environ.get("ONETOOL_CHROMIUM")
    if chosen is not None:
        return chosen or None
    try:
        own = playwright.chromium.executable_path
    except Exception:  # no browser registry at all
        own = None
    if own and Path(own).exists():
        return None  # Playwright's default
    for candidate in (*SYSTEM_CHROMIUM, shutil.which("chromium") or ""):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("no Chromium found: install one (`apt-get install chromium`), "
                       "or run `python build.py test --only e2e`, which does it where it can")


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance):
    executable = chromium_executable(playwright_instance)
    browser = playwright_instance.chromium.launch(headless=True, executable_path=executable, args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


# -- watched pages -----------------------------------------------------------------------------

class Watch:
    """Everything that went wrong in one browser context: errors, console errors, foreign requests."""

    def __init__(self, context, origin: str) -> None:
        self.origin = origin
        self.problems: list[str] = []
        self.allowed: list[str] = []  # substrings of console errors a test expects
        context.on("weberror", lambda error: self.problems.append(f"page error: {error.error}"))
        context.on("console", self._console)
        context.on("request", self._request)

    def _console(self, message) -> None:
        if message.type == "error" and not any(text in message.text for text in self.allowed):
            self.problems.append(f"console error: {message.text}")

    def _request(self, request) -> None:
        url = request.url
        if urlsplit(url).scheme in ("data", "blob"):
            return
        if not url.startswith(self.origin):
            self.problems.append(f"request outside the origin: {request.method} {url}")

    def allow_console_error(self, text: str) -> None:
        self.allowed.append(text)

    def take(self) -> list[str]:
        problems, self.problems = self.problems, []
        return problems

    def assert_clean(self) -> None:
        problems = self.take()
        assert not problems, "\n".join(problems)


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"


@pytest.fixture(scope="session")
def new_watched_page(browser):
    """new_watched_page(site_url) -> a page of a new context, with `page.watch` (caller closes
    `page.context` and calls `page.watch.assert_clean()`)."""
    def make(site_url: str):
        context = browser.new_context()
        context.set_default_timeout(60_000)
        watch = Watch(context, origin_of(site_url))
        page = context.new_page()
        page.watch = watch
        return page
    return make


@pytest.fixture
def page(new_watched_page, site_url):
    page = new_watched_page(site_url)
    yield page
    problems = page.watch.take()
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def fresh_db_name(request):
    """fresh_db_name() -> "e2e-<test>-<random>": a database no other test touches."""
    test = "".join(ch if ch.isalnum() else "-" for ch in request.node.name)[:40]
    return lambda: f"e2e-{test}-{uuid.uuid4().hex[:8]}"


# -- the test harness page (web/test-harness.html) -------------------------------------------------

BOOT_TIMEOUT_MS = 180_000


def open_harness(page, site_url: str) -> None:
    """Load web/test-harness.html, which exposes web/js/onetool.js as window.OneTool."""
    page.goto(site_url + "test-harness.html")
    page.wait_for_function("document.body.dataset.harness === 'ready'")


def create_tool(page, options_js: str = "{}", name: str = "tool") -> dict:
    """`window[name] = await OneTool.createOneTool(<options_js>)`; returns its `info`.
    `options_js` is JavaScript (an object literal), so it can define adapters and handlers."""
    return page.evaluate(
        f"async () => {{ window.{name} = await OneTool.createOneTool({options_js}); return window.{name}.info; }}",
    )


def start_tool(page, options_js: str = "{}", name: str = "tool") -> None:
    """Like create_tool, without waiting: boot several pages at once, then await_tool each."""
    page.evaluate(f"() => {{ window.booting = OneTool.createOneTool({options_js})"
                  f".then((tool) => (window.{name} = tool).info); }}")


def await_tool(page) -> dict:
    return page.evaluate("() => window.booting")


@pytest.fixture(scope="session")
def harness():
    """The helpers above: harness.open(page, site_url), harness.create(page, options_js),
    harness.start(page, options_js) + harness.wait(page)."""
    class Harness:
        open = staticmethod(open_harness)
        create = staticmethod(create_tool)
        start = staticmethod(start_tool)
        wait = staticmethod(await_tool)
    return Harness
