"""Reading and writing wheels with the standard library: hashes, metadata, imports, the rpds shim."""

import base64
import hashlib
import re
import zipfile
from email.parser import HeaderParser
from pathlib import Path

ZIP_EPOCH = (2020, 1, 1, 0, 0, 0)  # fixed timestamps: the shim wheel's hash never changes


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def canonical_name(name: str) -> str:
    """PEP 503 normalisation, as Pyodide keys its lock file."""
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_metadata(path: Path):
    """The METADATA headers of a wheel (Name, Version, Requires-Dist, ...)."""
    with zipfile.ZipFile(path) as wheel:
        name = next(n for n in wheel.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        return HeaderParser().parsestr(wheel.read(name).decode("utf-8"))


def wheel_imports(path: Path) -> list[str]:
    """Top-level importable names: package folders and single-file modules."""
    names = set()
    with zipfile.ZipFile(path) as wheel:
        for entry in wheel.namelist():
            top, _, rest = entry.partition("/")
            if top.endswith((".dist-info", ".data")):
                continue
            if rest:
                names.add(top)
            elif top.endswith(".py"):
                names.add(top[:-3])
    return sorted(names)


# --- environment markers (PEP 508), enough for Requires-Dist lines -----------------

_COMPARISON = re.compile(
    r"""(?P<var>[a-z_]+)\s*(?P<op>==|!=|<=|>=|<|>|~=|not\s+in|in)\s*(?P<quote>['"])(?P<value>.*?)(?P=quote)"""
)
_VERSION_VARS = {"python_version", "python_full_version", "implementation_version"}


def _version_tuple(text: str) -> tuple:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def _compare(left: str, op: str, right: str, as_version: bool) -> bool:
    op = " ".join(op.split())
    if op in ("in", "not in"):
        return (left in right) == (op == "in")
    if as_version:
        left, right = _version_tuple(left), _version_tuple(right)
        if op == "~=":
            return left >= right and left[: len(right) - 1] == right[:-1]
    return {"==": left == right, "!=": left != right, "<": left < right,
            "<=": left <= right, ">": left > right, ">=": left >= right}[op]


def marker_holds(marker: str, environment: dict) -> bool:
    """Evaluate a marker such as `python_version < "3.11" and extra == "dev"`."""
    def replace(match: re.Match) -> str:
        var, op, value = match["var"], match["op"], match["value"]
        if var not in environment:
            raise ValueError(f"unknown marker variable {var!r} in {marker!r}")
        return str(_compare(environment[var], op, value, var in _VERSION_VARS))

    expression = _COMPARISON.sub(replace, marker)
    if not re.fullmatch(r"(\s|\(|\)|True|False|and|or|not)*", expression):
        raise ValueError(f"cannot evaluate marker {marker!r}")
    return eval(expression, {"__builtins__": {}})  # only True/False/and/or/not/parentheses


def wheel_dependencies(path: Path, environment: dict) -> list[str]:
    """Canonical names of the wheel's requirements that apply in `environment` (no extras)."""
    depends = []
    for requirement in wheel_metadata(path).get_all("Requires-Dist") or []:
        spec, _, marker = requirement.partition(";")
        if marker.strip() and not marker_holds(marker.strip(), environment):
            continue
        name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec).group(1)
        depends.append(canonical_name(name))
    return sorted(set(depends))


# --- the rpds-py shim --------------------------------------------------------------

RPDS_SHIM_MODULE = '''\
"""rpds-py for Pyodide: the pure-Python implementation of pyrsistent-as-rpds-py.

rpds-py has no WebAssembly wheel; jsonschema and referencing only need the
HashTrieMap / HashTrieSet / List / Queue API, which pyrsistent_as_rpds provides.
"""

from pyrsistent_as_rpds.pure import *  # noqa: F401,F403
from pyrsistent_as_rpds.pure import __all__  # noqa: F401

is_pure_pyrsistent_as_rpds = True
'''


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_rpds_shim(out_dir: Path, version: str, requires: tuple) -> Path:
    """Write `rpds_py-<version>-py3-none-any.whl` (METADATA, WHEEL, RECORD) and return its path."""
    dist_info = f"rpds_py-{version}.dist-info"
    metadata = "".join(
        ["Metadata-Version: 2.1\n", "Name: rpds-py\n", f"Version: {version}\n",
         "Summary: rpds-py API re-exported from pyrsistent-as-rpds-py (pure Python, for Pyodide)\n"]
        + [f"Requires-Dist: {name}\n" for name in requires]
    )
    wheel_info = "Wheel-Version: 1.0\nGenerator: onetool-wasm build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files = {
        "rpds/__init__.py": RPDS_SHIM_MODULE.encode(),
        f"{dist_info}/METADATA": metadata.encode(),
        f"{dist_info}/WHEEL": wheel_info.encode(),
    }
    record = "".join(_record_line(name, data) + "\n" for name, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"rpds_py-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, data)
    return path
