"""The plugin's options and fixtures (the `pytest11` entry point of the wheel).

Options (command line, or the ini key without dashes, or the environment variable):
    --onetool-site DIR        a built site: dist/site, the distributable runtime folder, or
                              your folder holding one (ONETOOL_SITE; default <rootdir>/dist/site)
    --onetool-chromium PATH   the browser ("" = Playwright's own; ONETOOL_CHROMIUM; default:
                              Playwright's own when installed, else the system's chromium)

Fixtures (all names start with `onetool_`, so they sit beside pytest-playwright's `page`):
    onetool_page             a ready runtime in the session's shared page (one worker, one
                             Pyodide for the whole session; a new runtime with its own memory
                             file system for each test): .run(), .run_detailed(), .write_file(),
                             .read_file(), .list_files(), .page
    onetool_create(options=None, shared=True, site_url=None)
                             more runtimes; `options` is a dict (JSON) or JavaScript source of
                             createOneTool's options object (so it can hold functions);
                             shared=False boots a page and a worker of its own
    onetool_open(path, tool="window.onetool", site_url=None)
                             a page of the site (yours) whose runtime is up, as a handle
    onetool_watched_page     a blank page in a new context; the test fails at teardown on page
                             errors, console errors or requests leaving the site's origin
    onetool_new_page(origin_url=None, boot_snapshot=True)
                             more of those (each in its own context, so its own IndexedDB,
                             seeded with the session's boot snapshot unless told not to:
                             a runtime then starts in about a second, not five)
    onetool_page_factory     the same for fixtures wider than a test (the caller closes them)
    onetool_site_dir, onetool_site_server, onetool_site_url, onetool_plain_site_url (no
    COOP/COEP: a plain static host), onetool_browser (Chromium, headless)
"""
from __future__ import annotations

import functools
import itertools
import json
import os
from pathlib import Path

import pytest

from .browser import CHROMIUM_FLAGS, Watch, chromium_executable, origin_of
from .handle import OneToolPage, adopt, create
from .snapshot import export_snapshot, import_snapshot, offer_snapshot

MANIFEST = "onetool-manifest.json"
BOOT_TIMEOUT_MS = 180_000
ACTION_TIMEOUT_MS = 60_000
HARNESS = "__onetool_pytest__.html"
ISOLATION_HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}
_handle_ids = itertools.count(1)


def pytest_addoption(parser) -> None:
    group = parser.getgroup("onetool", "onetool-wasm pages (onetool_wasm.pytest_plugin)")
    group.addoption("--onetool-site", default=None, help="a built site folder (default: dist/site)")
    group.addoption("--onetool-chromium", default=None, help='Chromium to launch ("" = Playwright\'s own)')
    parser.addini("onetool_site", "a built site folder (default: dist/site)", default=None)


# -- the site --------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def onetool_site_dir(pytestconfig) -> Path:
    chosen = (pytestconfig.getoption("--onetool-site") or pytestconfig.getini("onetool_site")
              or os.environ.get("ONETOOL_SITE") or "dist/site")
    folder = Path(chosen)
    if not folder.is_absolute():
        folder = Path(pytestconfig.rootpath) / folder
    if not (folder / MANIFEST).is_file():
        raise pytest.UsageError(f"onetool: {folder} holds no {MANIFEST}: build the site "
                                "(`python build.py build`) or pass --onetool-site=<a built site folder>")
    return folder


def _serve(folder: Path, isolated: bool):
    from .server import start_server
    return start_server(folder, isolated=isolated)


@pytest.fixture(scope="session")
def onetool_site_server(onetool_site_dir):
    """The site's server (server.py), cross-origin isolated (COOP/COEP), with CORS."""
    server = _serve(onetool_site_dir, isolated=True)
    yield server
    server.shutdown()


@pytest.fixture(scope="session")
def onetool_site_url(onetool_site_server) -> str:
    """http://127.0.0.1:<port>/ of onetool_site_server."""
    return onetool_site_server.url + "/"


@pytest.fixture(scope="session")
def onetool_plain_site_url(onetool_site_dir):
    """The same files as a plain static host serves them: no COOP/COEP, no SharedArrayBuffer."""
    server = _serve(onetool_site_dir, isolated=False)
    yield server.url + "/"
    server.shutdown()


# -- the browser -------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def onetool_playwright():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def onetool_browser(onetool_playwright, pytestconfig):
    executable = chromium_executable(onetool_playwright, pytestconfig.getoption("--onetool-chromium"))
    browser = onetool_playwright.chromium.launch(headless=True, executable_path=executable, args=list(CHROMIUM_FLAGS))
    yield browser
    browser.close()


def _new_watched_page(browser, origin_url: str, module: str):
    """A page in a new context (its own storage), watched, with the harness routed in."""
    context = browser.new_context()
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    watch = Watch(context, origin_of(origin_url))
    _route_harness(context, module)
    page = context.new_page()
    page.watch = watch
    return page


def _route_harness(context, module: str) -> None:
    """The plugin's own page, <site>/__onetool_pytest__.html on any of the test's servers: the
    API module as window.OneTool, nothing else. Playwright answers it, so nothing is written
    into the site; it is cross-origin isolated when the site is."""
    html = (f'<!doctype html><meta charset="utf-8"><title>onetool pytest</title><link rel="icon" href="data:,">'
            f'<script type="module">import * as OneTool from "./{module}"; window.OneTool = OneTool;'
            f' document.documentElement.dataset.onetool = "ready";</script>')

    def answer(route) -> None:
        site_url = route.request.url[: -len(HARNESS)]
        headers = {"Content-Type": "text/html; charset=utf-8", **(ISOLATION_HEADERS if _is_isolated(site_url) else {})}
        route.fulfill(status=200, body=html, headers=headers)

    context.route("**/" + HARNESS, answer)


@functools.cache
def _is_isolated(site_url: str) -> bool:
    """Whether the server sends COOP/COEP (asked once per server)."""
    import urllib.request
    with urllib.request.urlopen(site_url + MANIFEST) as response:
        return response.headers.get("Cross-Origin-Embedder-Policy") == "require-corp"


def _open_harness(page, site_url: str) -> None:
    page.goto(site_url + HARNESS)
    page.wait_for_function("document.documentElement.dataset.onetool === 'ready'")


def _finish(page) -> list[str]:
    problems = page.watch.take()
    page.context.close()
    return problems


@pytest.fixture(scope="session")
def onetool_runtime_module(onetool_site_dir) -> str:
    """Where onetool.js is, relative to the site: js/onetool.js (dist/site) or onetool.js
    (the distributable runtime folder)."""
    for candidate in ("js/onetool.js", "onetool.js"):
        if (onetool_site_dir / candidate).is_file():
            return candidate
    raise pytest.UsageError(f"onetool: {onetool_site_dir} has no js/onetool.js or onetool.js")


@pytest.fixture(scope="session")
def onetool_page_factory(onetool_browser, onetool_site_url, onetool_runtime_module, request):
    """onetool_page_factory(origin_url=None, boot_snapshot=True) -> a watched page in a new
    context, for fixtures wider than a test (the caller closes `page.context` and calls
    `page.watch.assert_clean()`; onetool_new_page does both for a test). Requests outside
    origin_url's origin (default: the site's) count as problems. With boot_snapshot, the
    context's IndexedDB first gets the session's boot snapshot (the page is then on the site's
    harness page), so a runtime it starts restores it as on a repeat visit; boot_snapshot=False
    is a truly fresh profile (a first visit: the site's own snapshot, or a cold boot)."""
    def make(origin_url: str | None = None, boot_snapshot: bool = True):
        url = origin_url or onetool_site_url
        page = _new_watched_page(onetool_browser, url, onetool_runtime_module)
        if boot_snapshot and url == onetool_site_url:
            if request.getfixturevalue("onetool_boot_snapshot"):
                _open_harness(page, onetool_site_url)
                import_snapshot(page, onetool_site_url, onetool_runtime_module)
        return page
    return make


@pytest.fixture
def onetool_new_page(onetool_page_factory):
    """onetool_new_page(origin_url=None, boot_snapshot=True): onetool_page_factory's pages,
    closed after the test, which fails if any of them saw a problem."""
    pages = []

    def make(origin_url: str | None = None, boot_snapshot: bool = True):
        page = onetool_page_factory(origin_url, boot_snapshot)
        pages.append(page)
        return page

    yield make
    problems = [problem for page in pages for problem in _finish(page)]
    assert not problems, "\n".join(problems)


@pytest.fixture
def onetool_watched_page(onetool_new_page):
    return onetool_new_page()


# -- runtimes -----------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def _onetool_shared_page(onetool_browser, onetool_site_url, onetool_runtime_module):
    """One page for the whole session: its runtimes share one worker and one Pyodide. A
    keeper runtime stays open all along: the pool ends its worker with its last runtime."""
    page = _new_watched_page(onetool_browser, onetool_site_url, onetool_runtime_module)
    _open_harness(page, onetool_site_url)
    page.keeper = create(page, '{storage: {kind: "memory"}, shared: true}', "pytest-keeper")
    yield page
    page.context.close()


@pytest.fixture(scope="session")
def onetool_boot_snapshot(_onetool_shared_page, onetool_site_server, onetool_runtime_module) -> bytes | None:
    """The boot snapshot the session's page stored after its first boot, packed (snapshot.py)
    and offered by the site's server to the pages that get it; None when it stored none."""
    page = _onetool_shared_page
    packed = export_snapshot(page, onetool_site_server, onetool_runtime_module)
    if packed:
        offer_snapshot(onetool_site_server, packed)
    return packed


def options_source(options) -> str:
    """createOneTool's options as JavaScript: a dict is JSON, a str is taken as written."""
    if options is None:
        return "{}"
    return options if isinstance(options, str) else json.dumps(options)


@pytest.fixture
def onetool_create(request, onetool_site_url):
    """onetool_create(options=None, shared=True, site_url=None) -> OneToolPage. Shared runtimes
    live in the session's page, their storage defaults to memory, so tests never see each
    other's files; shared=False opens a page of its own (on site_url, e.g. the plain host)."""
    made: list[tuple[OneToolPage, bool]] = []

    def make(options=None, shared: bool = True, site_url: str | None = None) -> OneToolPage:
        handle_id = f"pytest-{next(_handle_ids)}"
        source = options_source(options)
        if shared:
            page = request.getfixturevalue("_onetool_shared_page")
            source = f'{{storage: {{kind: "memory"}}, ...({source}), shared: true}}'
        else:
            base = site_url or onetool_site_url
            page = request.getfixturevalue("onetool_new_page")(base)
            _open_harness(page, base)
        handle = create(page, source, handle_id)
        made.append((handle, shared))
        return handle

    yield make
    problems = []
    for handle, shared in made:
        if shared:
            handle.close()
            problems += handle.page.watch.take()
    assert not problems, "\n".join(problems)


@pytest.fixture
def onetool_page(onetool_create) -> OneToolPage:
    """A ready runtime with an empty memory file system, in the session's shared page."""
    return onetool_create()


@pytest.fixture
def onetool_open(onetool_new_page, onetool_site_url):
    """onetool_open(path, tool="window.onetool", site_url=None) -> OneToolPage: opens
    <site_url><path> in a new watched context and waits (up to 3 minutes) until the JavaScript
    expression `tool` is a runtime."""
    def open_page(path: str, tool: str = "window.onetool", site_url: str | None = None) -> OneToolPage:
        base = site_url or onetool_site_url
        page = onetool_new_page(base)
        page.goto(base + path.lstrip("/"))
        return adopt(page, tool, f"pytest-{next(_handle_ids)}", BOOT_TIMEOUT_MS)
    return open_page
