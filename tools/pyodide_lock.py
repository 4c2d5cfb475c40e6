"""Our own Pyodide lock file: only the wheels we carry, resolvable offline.

The format is Pyodide's `pyodide-lock.json` (an `info` section copied from the npm
package, whose ABI version Pyodide checks, and one entry per package keyed by its
canonical name).  `file_name` is relative to the lock file's folder, which is
Pyodide's default `packageBaseUrl` both in a browser and in Node.
"""

import json
import os
from pathlib import Path

from tools.wheels import canonical_name, sha256_file, wheel_dependencies, wheel_imports, wheel_metadata


def pyodide_marker_environment(info: dict) -> dict:
    """PEP 508 marker values of Pyodide's interpreter, from the lock's info section."""
    full = info["python"]
    return {
        "python_version": ".".join(full.split(".")[:2]),
        "python_full_version": full,
        "implementation_version": full,
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": info.get("arch", "wasm32"),
        "os_name": "posix",
        "platform_release": "",
        "platform_version": "",
        "extra": "",
    }


def lock_entry(wheel: Path, lock_dir: Path, environment: dict) -> dict:
    metadata = wheel_metadata(wheel)
    return {
        "name": canonical_name(metadata["Name"]),
        "version": metadata["Version"],
        "file_name": Path(os.path.relpath(wheel, lock_dir)).as_posix(),
        "install_dir": "site",
        "sha256": sha256_file(wheel),
        "package_type": "package",
        "imports": wheel_imports(wheel),
        "depends": wheel_dependencies(wheel, environment),
        "unvendored_tests": False,
        "tool": {},
    }


def check_closed(packages: dict) -> None:
    """Every dependency must be a package we carry, or loadPackage would go looking for it."""
    missing = {
        f"{name} needs {dep}"
        for name, entry in packages.items()
        for dep in entry["depends"]
        if dep not in packages
    }
    if missing:
        raise SystemExit("lock file is not closed under dependencies: " + "; ".join(sorted(missing)))


def write_lock(path: Path, info: dict, wheels: list[Path]) -> dict:
    """Write the lock file for `wheels` next to `path` and return its packages."""
    environment = pyodide_marker_environment(info)
    packages = {}
    for wheel in sorted(wheels):
        entry = lock_entry(wheel, path.parent, environment)
        packages[entry["name"]] = entry
    check_closed(packages)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"info": info, "packages": packages, "tool": {}}, indent=2, sort_keys=True) + "\n")
    return packages
