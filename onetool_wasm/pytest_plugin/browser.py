"""Chromium for the plugin, and a Watch over one browser context.

Playwright is imported by the caller (fixtures.py), never here at import time: the module is
imported inside Pyodide too, where there is no browser.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

# Flags for a headless Chromium in containers and CI: no sandbox (no user namespaces there),
# no GPU, nothing that talks to Google's servers.
CHROMIUM_FLAGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run")
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def chromium_executable(playwright, chosen: str | None = None) -> str | None:
    """The Chromium to launch: `chosen` (the --onetool-chromium option or ONETOOL_CHROMIUM; ""
    means Playwright's own), else Playwright's own Chromium if installed (None), else a
    system one. A clear error when there is none."""
    if chosen is None:
        chosen = os.environ.get("ONETOOL_CHROMIUM")
    if chosen is not None:
        return chosen or None
    try:
        own = playwright.chromium.executable_path
    except Exception:  # no browser registry at all
        own = None
    if own and Path(own).exists():
        return None
    for candidate in (*SYSTEM_CHROMIUM, shutil.which("chromium") or ""):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("onetool: no Chromium found: `python -m playwright install chromium`, or install "
                       "your system's chromium and pass --onetool-chromium=/path/to/chromium")


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/"


class Watch:
    """What went wrong in one browser context: page errors, console errors, and requests to
    another origin than the site's (a runtime must not fetch from a CDN)."""

    def __init__(self, context, origin: str) -> None:
        self.origins = [origin]
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
        if not any(url.startswith(origin) for origin in self.origins):
            self.problems.append(f"request outside the origin: {request.method} {url}")

    def allow_console_error(self, text: str) -> None:
        self.allowed.append(text)

    def allow_origin(self, url: str) -> None:
        """Requests to this URL's origin are expected (a runtime served from another origin)."""
        self.origins.append(origin_of(url))

    def take(self) -> list[str]:
        problems, self.problems = self.problems, []
        return problems

    def assert_clean(self) -> None:
        problems = self.take()
        assert not problems, "\n".join(problems)
