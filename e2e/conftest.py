"""The browser suite runs on the package's own pytest plugin (onetool_wasm/pytest_plugin/,
docs/TESTING_PAGES.md): `onetool_site_url`, `onetool_plain_site_url`, `onetool_browser`,
`onetool_page_factory` / `onetool_new_page` / `onetool_watched_page` (watched pages in new
contexts, seeded with the session's boot snapshot unless `boot_snapshot=False`),
`onetool_page` / `onetool_create` (runtimes in one shared page) and `onetool_open`.

This file adds what only this repository needs:
    onetool_site_dir   dist/site, built once per session (`python build.py build`) unless
                       ONETOOL_E2E_BUILT=1 says build.py already did it
    fresh_db_name() -> str               an IndexedDB name no other test uses
    harness            helpers for web/test-harness.html (the site's own test page)
"""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "dist" / "site"

try:
    import playwright  # noqa: F401
except ImportError as error:  # not a skip: the suite must run, so say how to get it
    raise RuntimeError("the e2e suite needs the `playwright` package: run `python build.py test --only e2e`, "
                       "which installs it into .cache/venv") from error


@pytest.fixture(scope="session")
def onetool_site_dir() -> Path:
    if os.environ.get("ONETOOL_E2E_BUILT") != "1":
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], cwd=ROOT, check=True)
    if not (SITE / "onetool-manifest.json").exists():
        raise RuntimeError(f"{SITE} has no onetool-manifest.json: run `python build.py build`")
    return SITE


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
