"""A pytest plugin for Playwright tests of pages that embed the onetool runtime.

Installed with the wheel (entry point `pytest11: onetool`); its fixtures live in
`fixtures.py` and are created only when a test asks for one, so it costs nothing elsewhere
(inside Pyodide too). It serves a built site (`python build.py build` -> dist/site, the
distributable runtime folder, or your own folder holding one), starts Chromium, and gives:

    onetool_page            a ready runtime: `onetool_page.run("ls /")`, `.run_detailed()`,
                            `.write_file()`, `.read_file()`, `.list_files()`, `.page`
    onetool_create(...)     more of them, with options (storage, files, policy, adapters...)
    onetool_open(path)      your own page, once its runtime is up
    onetool_watched_page    a fresh page that fails the test on page errors, console errors
                            and requests leaving the site

docs/TESTING_PAGES.md explains the options and the fixtures; this package holds no runtime
code: `server.py` (the static server `build.py serve` uses too), `browser.py` (finding
Chromium, watching a context), `handle.py` (the Python handle of one runtime in a page).
"""
