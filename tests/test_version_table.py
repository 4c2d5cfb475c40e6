"""The "Versions" table of docs/JUPYTERLITE.md stays true.

Each row says which onetool-wasm ran on which Pyodide (and its Python and micropip), where,
and how that was verified. What can be checked without a browser or a JupyterLite build is
checked here, against the files that decide it:

* the onetool-wasm version of every row is pyproject.toml's;
* the site's row and the Node row use tools/pins.py's PYODIDE_VERSION, with the micropip that
  tests/pyodide/micropip_install.mjs pins for it;
* every row's Python is the one its Pyodide version names (Pyodide 314.x is Python 3.14) and
  satisfies pyproject.toml's requires-python;
* when the pinned Pyodide has been fetched (`python build.py build`: .cache/npm, or the built
  dist/site manifest), the site's row has exactly the Python of its lock file, and the
  kernel's packages the recipe downloads are the versions that lock file lists.

The JupyterLite rows themselves were verified by hand (see the page): their JupyterLite and
kernel versions are not checked here.
"""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from tools import pins

from .helpers import IN_PYODIDE

pytestmark = pytest.mark.skipif(IN_PYODIDE, reason="checks documentation files against pins: "
                                                   "once, on CPython, is enough")

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "JUPYTERLITE.md"
NODE_TEST = ROOT / "tests" / "pyodide" / "micropip_install.mjs"
NPM_PYODIDE = ROOT / ".cache" / "npm" / "node_modules" / "pyodide"
SITE_MANIFEST = ROOT / "dist" / "site" / "onetool-manifest.json"
HEADER = ["onetool-wasm", "Pyodide", "Python", "micropip", "Where", "Verified by"]
SITE_ROW = "the site ("
NODE_ROW = "Node: "
# Packages the recipe downloads that are not in Pyodide's lock file, or not as a dependency there.
NOT_IN_PYODIDE_LOCK = {"comm", "ipython-pygments-lexers"}


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def parse_table(text: str) -> list[dict[str, str]]:
    """The rows of the first Markdown table of the "Versions" section, keyed by the header."""
    lines = [line.strip() for line in section(text, "Versions").splitlines() if line.strip().startswith("|")]
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    header, separator, *rows = cells
    assert header == HEADER, header
    assert all(re.fullmatch(r"-{3,}", cell) for cell in separator), separator
    assert all(len(row) == len(header) for row in rows), rows
    return [dict(zip(header, row)) for row in rows]


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def pinned_micropip() -> str:
    """The micropip version micropip_install.mjs installs into the pinned Pyodide."""
    match = re.search(r'file: "micropip-([\d.]+)-py3-none-any\.whl"', NODE_TEST.read_text(encoding="utf-8"))
    assert match, f"no micropip wheel named in {NODE_TEST}"
    return match.group(1)


def pinned_lock() -> dict:
    """pyodide-lock.json of the pinned Pyodide as fetched by `python build.py build`, or a skip."""
    package = NPM_PYODIDE / "package.json"
    if package.exists() and json.loads(package.read_text())["version"] == pins.PYODIDE_VERSION:
        return json.loads((NPM_PYODIDE / "pyodide-lock.json").read_text())
    pytest.skip(f"Pyodide {pins.PYODIDE_VERSION} is not fetched here ({NPM_PYODIDE} is missing or another "
                "version): `python build.py build` fetches it")


def pinned_python() -> str:
    """The Python of the pinned Pyodide: from its lock file, else from the built site's manifest."""
    package = NPM_PYODIDE / "package.json"
    if package.exists() and json.loads(package.read_text())["version"] == pins.PYODIDE_VERSION:
        return json.loads((NPM_PYODIDE / "pyodide-lock.json").read_text())["info"]["python"]
    if SITE_MANIFEST.exists():
        manifest = json.loads(SITE_MANIFEST.read_text())
        if manifest.get("pyodideVersion") == pins.PYODIDE_VERSION:
            return manifest["python"]
    pytest.skip(f"no lock file of Pyodide {pins.PYODIDE_VERSION} here (neither {NPM_PYODIDE} nor "
                f"{SITE_MANIFEST}): `python build.py build` fetches it")


ROWS = parse_table(DOC.read_text(encoding="utf-8"))


def test_the_table_has_the_site_node_and_jupyterlite_rows():
    wheres = [row["Where"] for row in ROWS]
    assert sum(where.startswith(SITE_ROW) for where in wheres) == 1, wheres
    assert sum(where.startswith(NODE_ROW) for where in wheres) == 1, wheres
    assert sum(where.startswith("JupyterLite ") for where in wheres) >= 1, wheres
    for row in ROWS:
        for column in ("onetool-wasm", "Pyodide", "Python", "micropip"):
            assert re.fullmatch(r"\d+(\.\d+)+", row[column]), (column, row)
        assert row["Verified by"], row


def test_every_row_is_this_onetool_wasm_version():
    assert {row["onetool-wasm"] for row in ROWS} == {pyproject()["version"]}


def test_the_site_and_node_rows_use_the_pinned_pyodide_and_micropip():
    pinned = [row for row in ROWS if row["Where"].startswith((SITE_ROW, NODE_ROW))]
    assert [row["Pyodide"] for row in pinned] == [pins.PYODIDE_VERSION] * 2
    assert [row["micropip"] for row in pinned] == [pinned_micropip()] * 2
    # Every row of the pinned Pyodide says the same about it.
    same = [row for row in ROWS if row["Pyodide"] == pins.PYODIDE_VERSION]
    assert {(row["Python"], row["micropip"]) for row in same} == {(pinned[0]["Python"], pinned_micropip())}


def test_every_python_is_the_one_its_pyodide_names_and_new_enough():
    required = re.fullmatch(r">=\s*([\d.]+)", pyproject()["requires-python"]).group(1)
    for row in ROWS:
        major = row["Pyodide"].split(".")[0]
        assert int(major) >= 314, f"Pyodide {row['Pyodide']} predates the 3xx numbering: check its Python by hand"
        assert row["Python"].startswith(f"{major[0]}.{major[1:]}."), row
        assert version_tuple(row["Python"]) >= version_tuple(required), row


def test_the_site_row_has_the_python_of_the_pinned_lock_file():
    site = next(row for row in ROWS if row["Where"].startswith(SITE_ROW))
    assert site["Python"] == pinned_python()


def test_the_recipe_downloads_the_kernel_packages_at_the_pinned_lock_versions():
    lock = pinned_lock()["packages"]
    recipe = section(DOC.read_text(encoding="utf-8"), "Recipe")
    download = next(line for line in recipe.splitlines() if " pip download " in line or "/pip download " in line)
    pins_in_recipe = dict(re.findall(r"\s([A-Za-z][\w.-]*)==([\d.]+)", download))
    assert {"micropip", "ipython", "jedi", "comm"} <= set(pins_in_recipe), download
    assert pins_in_recipe["micropip"] == pinned_micropip()
    wrong = {name: (version, lock.get(name, {}).get("version"))
             for name, version in pins_in_recipe.items()
             if name not in NOT_IN_PYODIDE_LOCK and lock.get(name, {}).get("version") != version}
    assert wrong == {}, "recipe version vs Pyodide's lock file"
