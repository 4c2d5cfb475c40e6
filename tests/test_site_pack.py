"""tools/site_pack.py: the site's wheels installed as pyodide.loadPackage would, in one pack
(boot.js unpacks it on a cold boot). The .pyc compilation runs Pyodide in Node at build time
and is exercised by every build; here the installing and the packing, exactly."""
from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import pytest

from tools.site_pack import LOADPACKAGE_METADATA, MAGIC, install_wheel, pack_tree, read_pack


def make_wheel(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
    return path


DEMO = {
    "demo/__init__.py": "VALUE = 1\n",
    "demo/sub/mod.py": "def f():\n    return 2\n",
    "demo-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
    "demo-1.0.dist-info/RECORD": "",
}


def test_a_wheel_is_installed_as_load_package_installs_it(tmp_path):
    root = tmp_path / "site-packages"
    root.mkdir()
    install_wheel(make_wheel(tmp_path / "demo-1.0-py3-none-any.whl", DEMO), root)
    installed = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert installed == sorted([*DEMO, "demo-1.0.dist-info/INSTALLER", "demo-1.0.dist-info/PYODIDE_SOURCE"])
    assert (root / "demo-1.0.dist-info/INSTALLER").read_text() == LOADPACKAGE_METADATA["INSTALLER"]
    assert (root / "demo/sub/mod.py").read_text() == DEMO["demo/sub/mod.py"]


@pytest.mark.parametrize("bad, message", [
    ({"demo-1.0.data/scripts/x": "", "demo-1.0.dist-info/METADATA": ""}, "has a .data folder"),
    ({"../escape.py": "", "demo-1.0.dist-info/METADATA": ""}, "unsafe path ../escape.py"),
])
def test_wheels_it_cannot_install_faithfully_are_refused(tmp_path, bad, message):
    with pytest.raises(SystemExit, match=message.replace(".", r"\.")):
        install_wheel(make_wheel(tmp_path / "demo-1.0-py3-none-any.whl", bad), tmp_path)


def test_the_pack_holds_every_file_byte_for_byte(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.py").write_bytes(b"print('x')\n")
    (tmp_path / "a" / "__pycache__").mkdir()
    (tmp_path / "a" / "__pycache__" / "x.cpython-314.pyc").write_bytes(bytes(range(256)))
    (tmp_path / "b.txt").write_bytes(b"")
    packed = pack_tree(tmp_path)
    assert gzip.decompress(packed).startswith(MAGIC)
    assert read_pack(packed) == {"a/__pycache__/x.cpython-314.pyc": bytes(range(256)), "a/x.py": b"print('x')\n",
                                 "b.txt": b""}
    assert pack_tree(tmp_path) == packed  # the same files make the same bytes (no time stamp)


def test_something_else_is_not_a_pack():
    with pytest.raises(ValueError, match="not a site pack"):
        read_pack(gzip.compress(b"PK\x03\x04"))
