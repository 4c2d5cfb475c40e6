#!/usr/bin/env python3
"""Build, test, serve and benchmark onetool-wasm (Python standard library only).

    python build.py build            wheel + Pyodide runtime + pinned wheels -> dist/site/
    python build.py test [-k ...]    pytest on CPython, the same suite in Pyodide (Node), e2e
    python build.py serve [--port N] build, then serve dist/site/ with COOP/COEP headers
    python build.py bench            run bench/*.py

Layout (all git-ignored):
    .cache/venv/          the virtualenv every command uses
    .cache/npm/           the npm package pyodide (tarball checked against its pinned integrity)
    .cache/wheels/        pinned wheels from PyPI (sha256 checked) and the rpds-py shim
    dist/wheels/          the onetool-wasm wheel
    dist/site/            the static site: web/ + pyodide/ (runtime + our lock file) + wheels/
    dist/pyodide-test/    the lock file (site wheels + pytest, hypothesis, ...) for tests in Pyodide
"""

import argparse
import base64
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from tools import pins
from tools.boot_snapshot import write_boot_snapshot
from tools.pyodide_lock import write_lock
from tools.runtime_dist import build_and_report
from tools.site_pack import write_site_pack
from tools.wheels import build_rpds_shim, sha256_file, wheel_metadata

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
VENV = CACHE / "venv"
NPM_DIR = CACHE / "npm"
WHEEL_CACHE = CACHE / "wheels"
DIST = ROOT / "dist"
PROJECT_WHEELS = DIST / "wheels"
SITE = DIST / "site"
SITE_PYODIDE = SITE / "pyodide"
SITE_WHEELS = SITE / "wheels"
TEST_LOCK_DIR = DIST / "pyodide-test"
MANIFEST_NAME = "onetool-manifest.json"  # read by web/js/boot.js
SITE_PACK = "boot/site-packages.bin"  # the wheels installed + .pyc, for boot.js (tools/site_pack.py)
BOOT_SNAPSHOT = "boot/snapshot.bin"  # Pyodide's memory with the runtime imported (tools/boot_snapshot.py)
NODE_RUNNER = ROOT / "tests" / "pyodide" / "run.mjs"
# JS Promise Integration, so that asyncio.run works inside Pyodide (Node 20 has no other spelling).
NODE_FLAGS = ("--experimental-wasm-stack-switching",)


def main(argv=None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    os.chdir(ROOT)
    try:
        return args.handler(args, extra)
    except subprocess.CalledProcessError as error:
        print(f"build.py: command failed ({error.returncode}): {' '.join(map(str, error.cmd))}", file=sys.stderr)
        return 1
    except FileNotFoundError as error:  # e.g. no node/npm on PATH
        print(f"build.py: {error}", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="build.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    build = commands.add_parser("build", help="build the wheel and dist/site (Pyodide, pinned wheels, lock)")
    build.set_defaults(handler=cmd_build)

    test = commands.add_parser(
        "test", help="pytest on CPython, in Pyodide (Node), then e2e; args to pytest",
        description="Unrecognised arguments (e.g. -k shell, -x) are passed to pytest in every stage.",
    )
    test.add_argument("--only", choices=("cpython", "pyodide", "e2e"), help="run only this stage")
    test.set_defaults(handler=cmd_test)

    serve = commands.add_parser("serve", help="build, then serve dist/site on 127.0.0.1 (COOP/COEP)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000, 0 picks a free one)")
    serve.set_defaults(handler=cmd_serve)

    bench = commands.add_parser("bench", help="run every bench/*.py with the venv's python")
    bench.set_defaults(handler=cmd_bench)
    return parser


# --- commands ------------------------------------------------------------------------

def cmd_build(args, extra) -> int:
    build_site()
    return 0


def cmd_serve(args, extra) -> int:
    from tools.serve import PortUnavailable, listen, serve

    # Take the port first: a busy one is reported at once, not after a build.
    try:
        server = listen(SITE, args.port)
    except PortUnavailable as error:
        print(f"serve: {error}", file=sys.stderr)
        return 1
    with server:
        build_site()
        serve(SITE, args.port, server=server)
    return 0


def cmd_bench(args, extra) -> int:
    scripts = sorted(p for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))
    if not scripts:
        print("bench: no bench/*.py scripts yet, nothing to run")
        return 0
    python = ensure_venv(with_tests=True)
    failed = [s.name for s in scripts if run([python, str(s)], check=False) != 0]
    if failed:
        print(f"bench: failed: {', '.join(failed)}")
    return 1 if failed else 0


def cmd_test(args, pytest_args) -> int:
    results = {}
    for name in stages_to_run(args.only):
        stage, prerequisites = STAGES[name]
        print(f"\n=== stage {name} ===", flush=True)
        started = time.monotonic()
        blocked = [p for p in prerequisites if results[p][0] == "failed"]
        if blocked:
            outcome = "failed"
            print(f"stage {name}: not run, {', '.join(blocked)} failed")
        else:
            outcome = run_stage(name, stage, pytest_args)
        results[name] = (outcome, time.monotonic() - started)
    print_summary(results)
    return 1 if any(outcome == "failed" for outcome, _ in results.values()) else 0


def stages_to_run(only) -> list:
    """The stages asked for, with the stages they need, in STAGES order."""
    wanted = [only] if only else ["cpython", "pyodide", "e2e"]
    needed = set(wanted).union(*(STAGES[name][1] for name in wanted))
    return [name for name in STAGES if name in needed]


def run_stage(name, stage, pytest_args) -> str:
    try:
        return stage(pytest_args)
    except (subprocess.CalledProcessError, SystemExit, OSError) as error:
        print(f"stage {name}: {error}", file=sys.stderr)
        return "failed"


def print_summary(results) -> None:
    print("\n=== build.py test summary ===")
    for name, (outcome, seconds) in results.items():
        print(f"  {name:<8} {outcome:<9} {seconds:7.1f}s")
    total = sum(seconds for _, seconds in results.values())
    verdict = "FAILED" if any(o == "failed" for o, _ in results.values()) else "ok"
    print(f"build.py test: {verdict} in {total:.1f}s", flush=True)


# --- test stages -----------------------------------------------------------------------

def stage_setup(pytest_args) -> str:
    ensure_venv(with_tests=True)
    return "done"


def stage_cpython(pytest_args) -> str:
    python = ensure_venv(with_tests=True)
    code = run([python, "-m", "pytest", *pytest_args, *default_paths(pytest_args, "tests")], check=False)
    return pytest_outcome(code, pytest_args)


def stage_build(pytest_args) -> str:
    build_site()
    return "done"


def stage_pyodide(pytest_args) -> str:
    code = run(["node", *NODE_FLAGS, str(NODE_RUNNER), *pytest_args], check=False, env=pyodide_runner_env())
    outcome = pytest_outcome(code, pytest_args)
    if outcome == "passed" and not pytest_args:
        # The documented micropip install (docs/BROWSER.md) into a fresh Pyodide, from the site.
        installed = run(["node", *NODE_FLAGS, str(ROOT / "tests" / "pyodide" / "micropip_install.mjs")], check=False)
        outcome = "passed" if installed == 0 else "failed"
    return outcome


def stage_e2e(pytest_args) -> str:
    if not e2e_test_files():
        print("e2e: skipped, no test files in e2e/ yet")
        return "skipped"
    python = ensure_venv(with_tests=True)
    build_site()  # already done when the pyodide stage ran
    env = {**os.environ, "ONETOOL_E2E_BUILT": "1", "ONETOOL_CHROMIUM": ensure_chromium(python)}
    code = run([python, "-m", "pytest", *pytest_args, *default_paths(pytest_args, "e2e")], check=False, env=env)
    return pytest_outcome(code, pytest_args)


SYSTEM_CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
PLAYWRIGHT_CHROMIUM = (
    "from playwright.sync_api import sync_playwright\n"
    "with sync_playwright() as p:\n"
    "    print(p.chromium.executable_path)\n"
)


def ensure_chromium(python: str) -> str:
    """The browser for e2e: Playwright's own, else a system Chromium, else install Debian's
    `chromium` with apt-get (as root); says which. "" means Playwright's default."""
    own = subprocess.run([python, "-c", PLAYWRIGHT_CHROMIUM], capture_output=True, text=True).stdout.strip()
    if own and Path(own).exists():
        print(f"e2e: using Playwright's Chromium: {own}")
        return ""
    found = find_system_chromium()
    if found:
        print(f"e2e: using the system Chromium: {found} (Playwright has no browser of its own here)")
        return found
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("e2e: no Chromium found; installing Debian's `chromium` package "
              "(apt-get update && apt-get install -y chromium)", flush=True)
        run(["apt-get", "update"])
        run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        found = find_system_chromium()
        if found:
            print(f"e2e: installed and using {found}")
            return found
    raise SystemExit("e2e: no Chromium: Playwright's browser is not installed and no system Chromium was found.\n"
                     "  Install one: `apt-get install chromium` (Debian/Ubuntu, as root), or "
                     "`.cache/venv/bin/python -m playwright install chromium` where downloads are allowed.")


def find_system_chromium() -> str:
    return next((path for path in map(shutil.which, SYSTEM_CHROMIUM) if path), "")


# name: (function, stages it needs)
STAGES = {
    "setup": (stage_setup, ()),
    "cpython": (stage_cpython, ("setup",)),
    "build": (stage_build, ()),
    "pyodide": (stage_pyodide, ("build",)),
    "e2e": (stage_e2e, ()),  # sets itself up only when e2e/ has tests
}


def e2e_test_files() -> list:
    e2e = ROOT / "e2e"
    return sorted(e2e.rglob("test_*.py")) + sorted(e2e.rglob("*_test.py"))


def default_paths(pytest_args, folder: str) -> list:
    """Test `folder`, unless the arguments already name test files or folders."""
    named = [a for a in pytest_args if not a.startswith("-") and Path(a.split("::")[0]).exists()]
    return [] if named else [folder]


def pytest_outcome(code: int, pytest_args) -> str:
    """pytest exit 5 means no test ran: a failure, unless the caller narrowed the selection."""
    if code == 0:
        return "passed"
    if code == 5 and pytest_args:
        return "no tests"
    return "failed"


def pyodide_runner_env() -> dict:
    return {
        **os.environ,
        "ONETOOL_PYODIDE_MODULE": str(NPM_DIR / "node_modules" / "pyodide" / "pyodide.mjs"),
        "ONETOOL_PYODIDE_INDEX": str(SITE_PYODIDE) + os.sep,
        "ONETOOL_PYODIDE_LOCK": str(TEST_LOCK_DIR / "pyodide-lock.json"),
    }


# --- the virtualenv ------------------------------------------------------------------------

@functools.cache
def ensure_venv(with_tests: bool) -> str:
    """Create .cache/venv once; (re)install when pyproject.toml or the pins change."""
    python = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    constraints = write_constraints()
    install_once(python, "build-tools", [*pins.BUILD_TOOLS], [])
    if with_tests:
        requirement = [
            "--no-build-isolation", "-c", str(constraints), "-e", f"{ROOT}[test]",
        ]
        install_once(python, "test", requirement, [constraints.read_text(), (ROOT / "pyproject.toml").read_text()])
    return str(python)


def write_constraints() -> Path:
    """Pin CPython's test run to the same versions Pyodide gets."""
    lines = []
    for file_name in {**pins.SITE_WHEELS, **pins.TEST_WHEELS}:
        name, version = file_name.split("-")[:2]
        lines.append(f"{name.replace('_', '-')}=={version}\n")
    path = CACHE / "constraints.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(sorted(lines))
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def install_once(python: Path, label: str, pip_args: list, inputs: list) -> None:
    stamp = VENV / f".installed-{label}"
    digest = hashlib.sha256("\n".join(inputs + pip_args).encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    run([str(python), "-m", "pip", "install", "--quiet", *pip_args])
    stamp.write_text(digest)


# --- the site ----------------------------------------------------------------------------

@functools.cache
def build_site() -> None:
    """dist/site: web/, the Pyodide runtime, our wheels and their lock file; plus the test lock."""
    started = time.monotonic()
    python = ensure_venv(with_tests=False)
    package = fetch_pyodide()
    info = json.loads((package / "pyodide-lock.json").read_text())["info"]
    pinned = download_wheels({**pins.SITE_WHEELS, **pins.TEST_WHEELS}, python, info["python"])
    shim = build_rpds_shim(WHEEL_CACHE, pins.RPDS_SHIM_VERSION, pins.RPDS_SHIM_REQUIRES)
    project = build_project_wheel(python)

    reset_dir(SITE)
    copy_web(SITE)
    copy_pyodide_runtime(package, SITE_PYODIDE)
    site_wheels = copy_files([project, shim, *(pinned[f] for f in pins.SITE_WHEELS)], SITE_WHEELS)
    write_site_pack(site_wheels, package, SITE / SITE_PACK, CACHE / "site-pack")
    site_lock = write_lock(SITE_PYODIDE / "pyodide-lock.json", info, site_wheels)
    snapshot = write_boot_snapshot(SITE_PYODIDE, SITE / SITE_PACK, SITE / BOOT_SNAPSHOT, CACHE / "boot-snapshot")
    write_manifest(SITE, info, site_lock, project, snapshot)
    # The embeddable runtime (docs/EMBEDDING.md): dist/runtime/onetool-wasm-web-<version>/ + .tgz
    build_and_report(SITE, DIST / "runtime", lambda folder: write_manifest(folder, info, site_lock, project, snapshot))

    reset_dir(TEST_LOCK_DIR)
    test_wheels = copy_files([pinned[f] for f in pins.TEST_WHEELS], TEST_LOCK_DIR / "wheels")
    test_lock = write_lock(TEST_LOCK_DIR / "pyodide-lock.json", info, site_wheels + test_wheels)
    print(f"build: dist/site ready ({len(site_lock)} packages; test lock {len(test_lock)}) "
          f"in {time.monotonic() - started:.1f}s", flush=True)


def fetch_pyodide() -> Path:
    """The npm package pyodide, its tarball checked against the pinned integrity; returns its folder."""
    tarball = NPM_DIR / f"pyodide-{pins.PYODIDE_VERSION}.tgz"
    actual = npm_integrity(tarball) if tarball.exists() else None
    if actual != pins.PYODIDE_INTEGRITY:
        NPM_DIR.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", f"pyodide@{pins.PYODIDE_VERSION}", "--pack-destination", str(NPM_DIR),
             "--silent", "--no-fund", "--no-audit"])
        actual = npm_integrity(tarball)
        if actual != pins.PYODIDE_INTEGRITY:
            tarball.unlink()
            raise SystemExit(f"pyodide tarball integrity mismatch:\n  pinned {pins.PYODIDE_INTEGRITY}\n  got    {actual}")
    package = NPM_DIR / "node_modules" / "pyodide"
    if installed_npm_version(package) != pins.PYODIDE_VERSION or not same_as_tarball(package, tarball):
        # Installing the checked tarball also brings its dependency `ws`, which Pyodide imports in Node.
        run(["npm", "install", "--prefix", str(NPM_DIR), "--no-save", "--no-fund", "--no-audit",
             "--ignore-scripts", "--loglevel=error", str(tarball)])
        if not same_as_tarball(package, tarball):
            raise SystemExit(f"{package} does not hold the files of the checked tarball")
    return package


def npm_integrity(path: Path) -> str:
    """npm's `integrity` string of a tarball: sha512, base64."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


def installed_npm_version(package: Path):
    manifest = package / "package.json"
    return json.loads(manifest.read_text()).get("version") if manifest.exists() else None


def same_as_tarball(package: Path, tarball: Path) -> bool:
    """The runtime files npm installed are byte for byte those of the checked tarball."""
    with tarfile.open(tarball) as archive:
        for name in pins.PYODIDE_RUNTIME_FILES + ("pyodide-lock.json",):
            member = archive.extractfile(f"package/{name}")
            installed = package / name
            if not installed.exists() or installed.read_bytes() != member.read():
                return False
    return True


def download_wheels(wanted: dict, python: str, target_python: str) -> dict:
    """Pinned pure wheels for Pyodide's Python into .cache/wheels (one pip call), sha256 checked."""
    WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
    missing = [f for f, sha in wanted.items() if not has_hash(WHEEL_CACHE / f, sha)]
    if missing:
        specs = ["{}=={}".format(*f.split("-")[:2]) for f in missing]
        run([python, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "--platform", "any", "--implementation", "py", "--abi", "none", "--python-version", target_python,
             "--dest", str(WHEEL_CACHE), *specs])
    bad = [f for f, sha in wanted.items() if not has_hash(WHEEL_CACHE / f, sha)]
    if bad:
        raise SystemExit("wheels missing or not matching their pinned sha256: " + ", ".join(bad))
    return {f: WHEEL_CACHE / f for f in wanted}


def has_hash(path: Path, sha256: str) -> bool:
    return path.exists() and sha256_file(path) == sha256


def build_project_wheel(python: str) -> Path:
    """dist/wheels/onetool_wasm-*.whl, built by hatchling from the venv (no build isolation)."""
    for old in PROJECT_WHEELS.glob("onetool_wasm-*.whl"):
        old.unlink()
    run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(PROJECT_WHEELS), str(ROOT)])
    (wheel,) = PROJECT_WHEELS.glob("onetool_wasm-*.whl")
    print(f"build: {wheel.name} ({wheel_metadata(wheel)['Version']})")
    return wheel


def copy_web(site: Path) -> None:
    web = ROOT / "web"
    if web.is_dir():
        shutil.copytree(web, site, dirs_exist_ok=True)


def write_manifest(site: Path, info: dict, lock: dict, project: Path, snapshot: dict | None = None) -> None:
    """onetool-manifest.json: what web/js/boot.js loads (URLs relative to the site's root).

    `files` lists every file of the site but the manifest itself with its size and sha256
    (web/sw.js caches them for offline use; boot.js reads the sizes as download totals);
    `siteHash` is the sha256 of that list, so it changes whenever any file does: it names the
    service worker's cache and is part of the key of the boot snapshot, with `lockSha256`
    (the lock file, which holds each wheel's sha256) and `wheels` (file name -> sha256).
    `bootSnapshot` {path, key, memoryBytes, sitePackages} is the site's boot snapshot
    (tools/boot_snapshot.py)."""
    files = site_files(site)
    lock_file = site / "pyodide" / "pyodide-lock.json"
    manifest = {
        "pyodideVersion": pins.PYODIDE_VERSION,
        "python": info["python"],
        "indexURL": "pyodide/",
        "lockFileURL": "pyodide/pyodide-lock.json",
        "packages": sorted(lock),
        "wheel": f"wheels/{project.name}",
        "version": wheel_metadata(project)["Version"],
        "lockSha256": sha256_file(lock_file),
        "wheels": {path.split("/")[-1]: entry["sha256"] for path, entry in files.items() if path.startswith("wheels/")},
        "sitePack": SITE_PACK if SITE_PACK in files else None,  # the `packages` installed, one file
        "bootSnapshot": {"path": BOOT_SNAPSHOT, "key": snapshot["key"], "memoryBytes": snapshot["memoryBytes"],
                         "sitePackages": snapshot["sitePackages"]}
        if snapshot and BOOT_SNAPSHOT in files and SITE_PACK in files else None,
        "siteHash": hashlib.sha256("".join(f"{path} {entry['sha256']}\n" for path, entry in files.items())
                                   .encode()).hexdigest(),
        "files": files,
    }
    (site / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n")


def site_files(site: Path) -> dict:
    """{path relative to the site, "/"-separated: {size, sha256}} of every site file but the
    manifest, sorted by path."""
    files = {}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        relative = path.relative_to(site).as_posix()
        if relative != MANIFEST_NAME:
            files[relative] = {"size": path.stat().st_size, "sha256": sha256_file(path)}
    return files


def copy_pyodide_runtime(package: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for name in pins.PYODIDE_RUNTIME_FILES:
        shutil.copy2(package / name, dest / name)


def copy_files(files: list, dest: Path) -> list:
    dest.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy2(f, dest / Path(f).name)) for f in files]


def reset_dir(path: Path) -> None:
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)


# --- running things ------------------------------------------------------------------------

def run(command: list, check: bool = True, env=None) -> int:
    print("$ " + " ".join(str(part) for part in command), flush=True)
    completed = subprocess.run([str(part) for part in command], cwd=ROOT, env=env)
    if check and completed.returncode != 0:
        raise subprocess.CalledProcessError(completed.returncode, command[:3])
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
