// boot.js — start Pyodide from the site's own files and install the site's wheels.
//
// The build (build.py) writes onetool-manifest.json at the site's root:
//   {pyodideVersion, indexURL, lockFileURL, packages: [names], wheel, version}
// Pyodide comes from indexURL, the wheels from the lock file beside it (URLs relative to the
// lock file, each checked by the browser against the lock's sha256). Nothing is fetched from
// another origin. loadPackage does not throw when a wheel fails, so what loaded is compared
// with what was asked, and the errors it reported are part of the failure.

export async function bootPyodide({ manifestURL, onProgress = () => {} }) {
  const manifest = await fetchJSON(manifestURL);
  const indexURL = new URL(manifest.indexURL, manifestURL).href;
  const lockFileURL = new URL(manifest.lockFileURL, manifestURL).href;

  onProgress({ phase: "pyodide", loaded: 0, total: 1, message: `loading Pyodide ${manifest.pyodideVersion}` });
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({
    indexURL,
    lockFileURL,
    env: { ONETOOL_RUNTIME: "browser", PYTHONDONTWRITEBYTECODE: "1" },
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  });
  onProgress({ phase: "pyodide", loaded: 1, total: 1, message: `Pyodide ${pyodide.version} loaded` });

  await loadPackages(pyodide, manifest.packages, onProgress);
  return { pyodide, manifest };
}

async function loadPackages(pyodide, wanted, onProgress) {
  const total = wanted.length;
  const errors = [];
  let loaded = 0;
  onProgress({ phase: "packages", loaded, total, message: `installing ${total} packages` });
  await pyodide.loadPackage(wanted, {
    messageCallback: (message) => {
      const done = /^Loaded (.*)$/.exec(message);
      if (done) loaded = Math.min(total, loaded + done[1].split(",").length);
      onProgress({ phase: "packages", loaded, total, message });
    },
    errorCallback: (message) => errors.push(message),
  });
  const have = new Set(Object.keys(pyodide.loadedPackages));
  const missing = wanted.filter((name) => !have.has(name));
  if (errors.length || missing.length) {
    throw new Error(`packages failed to load: ${missing.join(", ") || "(none missing)"}${errors.length ? "\n" + errors.join("\n") : ""}`);
  }
  onProgress({ phase: "packages", loaded: total, total, message: `installed ${total} packages` });
}

async function fetchJSON(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} (run \`python build.py build\`)`);
  return response.json();
}
