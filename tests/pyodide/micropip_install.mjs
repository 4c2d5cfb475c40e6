// Installs onetool-wasm with micropip into a fresh Pyodide under Node, from the built site
// served over HTTP, exactly as docs/BROWSER.md tells JupyterLite users to, and runs a command.
//
//   python build.py build
//   node --experimental-wasm-stack-switching tests/pyodide/micropip_install.mjs
//
// * "Fresh" Pyodide: the npm package's own runtime and its own pyodide-lock.json (the 357
//   packages of the Pyodide distribution, whose wheels are not here: they live on Pyodide's
//   CDN, which this machine does not reach). That is the case the site's wheels must cover:
//   installing the onetool wheel alone "succeeds" while jsonschema, attrs, referencing and
//   rpds-py fail to load from the CDN; installing the site's wheels in one call does not.
// * The Python snippet run is the first ```python block of the section
//   "Installing with micropip (JupyterLite, any Pyodide)" of docs/BROWSER.md, with its
//   example site URL replaced by the local server's: the documented snippet is the tested one.
// * micropip itself is a pinned pure wheel from PyPI (sha256 checked), fetched once into
//   .cache/wheels with the venv's pip, as build.py fetches the site's wheels.
// * Exit 0 and "micropip install: ok" when everything checked holds; 1 with the reason if not.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const STACK_SWITCHING_FLAG = "--experimental-wasm-stack-switching";
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SITE = path.join(REPO, "dist", "site");
const PYODIDE = path.join(REPO, ".cache", "npm", "node_modules", "pyodide");
const WHEEL_CACHE = path.join(REPO, ".cache", "wheels");
const VENV_PYTHON = path.join(REPO, ".cache", "venv", process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
// Pyodide 314.0.7 ships micropip 0.11.1 (its lock file says so); the same version from PyPI.
const MICROPIP = {
  file: "micropip-0.11.1-py3-none-any.whl",
  sha256: "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
};
const DOC = path.join(REPO, "docs", "BROWSER.md");
const DOC_SECTION = "## Installing with micropip (JupyterLite, any Pyodide)";
const DOC_SITE_URL = "https://example.org/onetool/";

function fail(message) {
  console.error(`micropip install: FAILED: ${message}`);
  process.exit(1);
}

function sha256(file) {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

function micropipWheel(pythonVersion) {
  const wheel = path.join(WHEEL_CACHE, MICROPIP.file);
  if (!fs.existsSync(wheel) || sha256(wheel) !== MICROPIP.sha256) {
    const spec = MICROPIP.file.split("-").slice(0, 2).join("==");
    const pip = spawnSync(VENV_PYTHON, ["-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
      "--platform", "any", "--implementation", "py", "--abi", "none", "--python-version", pythonVersion,
      "--dest", WHEEL_CACHE, spec], { stdio: "inherit" });
    if (pip.status !== 0) fail(`pip download ${spec} failed (is ${VENV_PYTHON} there? run \`python build.py build\`)`);
  }
  if (sha256(wheel) !== MICROPIP.sha256) fail(`${wheel} does not match its pinned sha256`);
  return wheel;
}

/** The documented snippet: the first ```python block of DOC_SECTION. */
function documentedSnippet() {
  const text = fs.readFileSync(DOC, "utf8");
  const start = text.indexOf(`${DOC_SECTION}\n`);
  if (start < 0) fail(`${DOC} has no section "${DOC_SECTION}"`);
  const block = /```python\n([\s\S]*?)```/.exec(text.slice(start));
  if (!block) fail(`the section "${DOC_SECTION}" of ${DOC} has no python block`);
  if (!block[1].includes(`"${DOC_SITE_URL}"`)) fail(`the documented snippet does not use "${DOC_SITE_URL}"`);
  return block[1];
}

/** dist/site over HTTP, as a static host serves it. */
async function serveSite() {
  const types = { ".json": "application/json", ".whl": "application/zip" };
  const server = http.createServer((request, response) => {
    const file = path.join(SITE, decodeURIComponent(new URL(request.url, "http://localhost").pathname));
    if (!file.startsWith(SITE + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": types[path.extname(file)] ?? "application/octet-stream" });
    response.end(fs.readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

const CHECKS = `
import json, re, sys
import micropip
installed = {p.name: (p.version, p.source) for p in micropip.list().values()}
expected = {name.split("-")[0].replace("_", "-").lower(): SITE_URL + "wheels/" + name for name in MANIFEST_WHEELS}
problems = [f"{name}: {installed.get(name)} is not from {url}" for name, url in expected.items()
            if installed.get(name, (None, None))[1] != url]
problems += [f"installed but not a site wheel: {name}" for name in installed if name not in expected and name != "micropip"]

import jsonschema, rpds, onetool_wasm
if rpds.is_pure_pyrsistent_as_rpds is not True:
    problems.append("rpds is not the site's shim")
if "site-packages" not in onetool_wasm.__file__:
    problems.append(f"onetool_wasm from {onetool_wasm.__file__}")
errors = [e.validator for e in jsonschema.Draft202012Validator({"type": "integer"}).iter_errors("x")]
if errors != ["type"]:
    problems.append(f"jsonschema: {errors}")
if not re.fullmatch(r"6\\n\\n\\[exit:0 \\| \\d+ms\\]\\n", PRINTED):
    problems.append(f"the snippet printed {PRINTED!r}")
json.dumps({"problems": problems, "count": len(expected)})
`;

async function main() {
  if (typeof WebAssembly.Suspending !== "function" && typeof WebAssembly.Suspender !== "function") {
    if (process.execArgv.includes(STACK_SWITCHING_FLAG)) fail(`${STACK_SWITCHING_FLAG} gives no stack switching here`);
    const child = spawnSync(process.execPath, [STACK_SWITCHING_FLAG, ...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit" });
    process.exit(child.status ?? 1);
  }
  for (const file of [path.join(SITE, "onetool-manifest.json"), path.join(PYODIDE, "pyodide.mjs")]) {
    if (!fs.existsSync(file)) fail(`${file} is missing: run \`python build.py build\` first`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(SITE, "onetool-manifest.json"), "utf8"));
  const wheel = micropipWheel(manifest.python);
  const snippet = documentedSnippet();
  const { server, url } = await serveSite();
  try {
    const started = Date.now();
    const { loadPyodide } = await import(pathToFileURL(path.join(PYODIDE, "pyodide.mjs")).href);
    const pyodide = await loadPyodide({ indexURL: PYODIDE + path.sep }); // its own lock: a fresh Pyodide
    let printed = "";
    pyodide.setStdout({ batched: (line) => { printed += `${line}\n`; } });
    const loadErrors = [];
    await pyodide.loadPackage(wheel, { messageCallback: () => {}, errorCallback: (m) => loadErrors.push(m) });
    if (loadErrors.length || !pyodide.loadedPackages.micropip) fail(`micropip did not load: ${loadErrors.join("; ")}`);
    const installErrors = [];
    pyodide.setStderr({ batched: (line) => installErrors.push(line) });
    await pyodide.runPythonAsync(snippet.replace(`"${DOC_SITE_URL}"`, JSON.stringify(url)));
    // micropip reports success even when a package from the lock failed: anything on stderr fails.
    if (installErrors.length) fail(`errors while installing:\n${installErrors.join("\n")}`);
    pyodide.globals.set("SITE_URL", url);
    pyodide.globals.set("MANIFEST_WHEELS", pyodide.toPy(Object.keys(manifest.wheels)));
    pyodide.globals.set("PRINTED", printed);
    const { problems, count } = JSON.parse(await pyodide.runPythonAsync(CHECKS));
    if (problems.length) fail(problems.join("\n"));
    console.log(`micropip install: ok: ${count} site wheels into Pyodide ${pyodide.version} (fresh, its own lock) ` +
      `from ${url}, the documented snippet printed ${JSON.stringify(printed)} (${Date.now() - started} ms)`);
  } finally {
    server.close();
  }
}

main().then(() => process.exit(0), (error) => fail(error?.type ? error.message : error?.stack ?? error));
