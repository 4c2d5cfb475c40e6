// Runs this repository's pytest suite inside Pyodide under Node (or, with --script, one
// Python file of the repository, e.g. a benchmark, as `python file.py args`).
//
//   node --experimental-wasm-stack-switching tests/pyodide/run.mjs [pytest args]
//   node --experimental-wasm-stack-switching tests/pyodide/run.mjs --script bench/x.py [args]
//
// `python build.py test` runs it after `build.py build` has produced the Pyodide runtime
// (dist/site/pyodide), the wheels and the test lock file (dist/pyodide-test/pyodide-lock.json).
// Everything is loaded from local files; nothing is fetched from the network.
//
// * Every package of the lock file is loaded (our wheel, jsonschema & co, pytest, hypothesis).
//   loadPackage does not throw when a wheel fails, so what loaded is compared with what was asked.
// * The repository (and ../shared, when present) is mounted at the same absolute path as on
//   the host, and the working directory is the repository: tests find their files as on CPython.
// * `onetool_wasm` is imported from the installed wheel, never from the mounted sources.
// * No .pyc, pytest cache or hypothesis database is written into the repository.
// * Python is entered through runPythonAsync with JS Promise integration (the Node flag above),
//   so tests that call asyncio.run() work as on CPython.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const STACK_SWITCHING_FLAG = "--experimental-wasm-stack-switching";
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SHARED = path.resolve(REPO, "..", "shared");
const CONFIG = {
  module: process.env.ONETOOL_PYODIDE_MODULE ?? path.join(REPO, ".cache/npm/node_modules/pyodide/pyodide.mjs"),
  indexURL: process.env.ONETOOL_PYODIDE_INDEX ?? path.join(REPO, "dist/site/pyodide") + path.sep,
  lockFile: process.env.ONETOOL_PYODIDE_LOCK ?? path.join(REPO, "dist/pyodide-test/pyodide-lock.json"),
};

function hasStackSwitching() {
  return typeof WebAssembly.Suspending === "function" || typeof WebAssembly.Suspender === "function";
}

// Without JS Promise integration asyncio.run cannot work: re-run this script with the flag.
function rerunWithStackSwitching() {
  const child = spawnSync(process.execPath, [STACK_SWITCHING_FLAG, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(child.status ?? 1);
}

function fail(message) {
  console.error(`pyodide runner: ${message}`);
  process.exit(3);
}

function checkBuildOutputs() {
  for (const file of [CONFIG.module, path.join(CONFIG.indexURL, "pyodide.asm.wasm"), CONFIG.lockFile]) {
    if (!fs.existsSync(file)) fail(`${file} is missing: run \`python build.py build\` first`);
  }
}

function writeStream(fd) {
  return {
    write(buffer) {
      fs.writeSync(fd, buffer);
      return buffer.length;
    },
    isatty: false,
  };
}

async function startPyodide() {
  const { loadPyodide } = await import(pathToFileURL(CONFIG.module).href);
  const pyodide = await loadPyodide({
    indexURL: CONFIG.indexURL,
    lockFileURL: CONFIG.lockFile,
    env: {
      HOME: "/home/pyodide",
      ONETOOL_RUNTIME: "pyodide",
      PYTHONDONTWRITEBYTECODE: "1",
      HYPOTHESIS_STORAGE_DIRECTORY: "/tmp/hypothesis",
      COLUMNS: String(process.stdout.columns || 100),
    },
  });
  pyodide.setStdout(writeStream(1));
  pyodide.setStderr(writeStream(2));
  return pyodide;
}

// A browser checks each wheel against the lock's sha256 (subresource integrity); Node does not,
// so check here: a lock file that would fail in the browser fails this run too.
function checkWheelHashes(lock) {
  const lockDir = path.dirname(CONFIG.lockFile);
  const bad = Object.values(lock.packages).filter((entry) => {
    const wheel = path.resolve(lockDir, entry.file_name);
    if (!fs.existsSync(wheel)) return true;
    return createHash("sha256").update(fs.readFileSync(wheel)).digest("hex") !== entry.sha256;
  });
  if (bad.length) fail(`missing wheels or sha256 mismatch in ${CONFIG.lockFile}: ${bad.map((e) => e.file_name).join(", ")}`);
}

async function loadAllPackages(pyodide) {
  const lock = JSON.parse(fs.readFileSync(CONFIG.lockFile, "utf8"));
  checkWheelHashes(lock);
  const wanted = Object.keys(lock.packages).sort();
  const errors = [];
  await pyodide.loadPackage(wanted, {
    messageCallback: () => {},
    errorCallback: (message) => errors.push(message),
  });
  const loaded = new Set(Object.keys(pyodide.loadedPackages));
  const missing = wanted.filter((name) => !loaded.has(name));
  if (errors.length || missing.length) {
    fail(`packages failed to load: ${missing.join(", ") || "(none missing)"}\n${errors.join("\n")}`);
  }
  console.log(`pyodide runner: Pyodide ${pyodide.version}, loaded ${wanted.length} packages from ${CONFIG.lockFile}`);
}

function mountHostFolders(pyodide) {
  const mounted = [];
  for (const folder of [REPO, SHARED]) {
    if (fs.existsSync(folder)) {
      pyodide.mountNodeFS(folder, fs.realpathSync(folder)); // same path as on the host
      mounted.push(folder);
    }
  }
  console.log(`pyodide runner: mounted ${mounted.join(", ")}`);
}

const PYTEST_MAIN = `
import os, sys
sys.dont_write_bytecode = True

# The package under test is the installed wheel, not the mounted sources: import it with no
# repository folder on sys.path (pytest adds some later, too late to matter), and check.
sys.path[:] = [p for p in sys.path if p not in ("", ".", REPO)]
import onetool_wasm
if "site-packages" not in onetool_wasm.__file__:
    raise SystemExit(f"onetool_wasm was imported from {onetool_wasm.__file__}, not from the wheel")
print(f"pyodide runner: onetool_wasm from {onetool_wasm.__file__}; Python {sys.version.split()[0]} ({sys.platform})")
os.chdir(REPO)
sys.path.append(REPO)  # as with "python -m pytest" on CPython: tests importable, after site-packages

import pytest
named = [a for a in ARGS if not a.startswith("-") and os.path.exists(a.split("::")[0])]
# onetool_wasm was imported above, before pytest marked its pytest plugin's package for assertion
# rewriting: that warning says only that, so it is not shown.
QUIET = ["-W", "ignore:Module already imported so cannot be rewritten; onetool_wasm:pytest.PytestAssertRewriteWarning"]
exit_code = int(pytest.main([*ARGS, *QUIET, "-p", "no:cacheprovider", *([] if named else ["tests"])]))
exit_code
`;

const SCRIPT_MAIN = `
import runpy, sys
sys.dont_write_bytecode = True
sys.path[:] = [p for p in sys.path if p not in ("", ".", REPO)]
sys.argv = [SCRIPT, *ARGS]
try:
    runpy.run_path(SCRIPT, run_name="__main__")
    exit_code = 0
except SystemExit as stop:
    exit_code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
exit_code
`;

async function runScript(pyodide, script, args) {
  pyodide.globals.set("REPO", REPO);
  pyodide.globals.set("SCRIPT", path.resolve(REPO, script));
  pyodide.globals.set("ARGS", pyodide.toPy(args));
  return await pyodide.runPythonAsync(SCRIPT_MAIN);
}

async function runPytest(pyodide, args) {
  pyodide.globals.set("REPO", REPO);
  pyodide.globals.set("ARGS", pyodide.toPy(args));
  return await pyodide.runPythonAsync(PYTEST_MAIN);
}

async function main() {
  if (!hasStackSwitching()) {
    if (process.execArgv.includes(STACK_SWITCHING_FLAG)) fail(`${STACK_SWITCHING_FLAG} gives no stack switching here`);
    rerunWithStackSwitching();
  }
  checkBuildOutputs();
  const pyodide = await startPyodide();
  await loadAllPackages(pyodide);
  mountHostFolders(pyodide);
  const args = process.argv.slice(2);
  const code = args[0] === "--script" ? await runScript(pyodide, args[1], args.slice(2)) : await runPytest(pyodide, args);
  process.exit(code);
}

main().catch((error) => {
  // A Python exception carries its traceback in the message; anything else, its stack.
  console.error(error?.type ? error.message : error?.stack ?? error);
  process.exit(3);
});
