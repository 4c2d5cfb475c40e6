// boot-preload.js — what a boot snapshot holds, shared by the page (boot.js) and the build
// (tools/make_boot_snapshot.mjs, in Node): both must start Pyodide the same way and import
// the same modules, or a snapshot made by one would not be what the other expects.

/** Pyodide's environment variables (os.environ) on every path. LANG is set so that a snapshot
 *  made in Node and one made in a browser agree (Emscripten derives it from the browser's
 *  language otherwise); the runtime's own commands see their own environment anyway. */
export const PYODIDE_ENV = Object.freeze({
  ONETOOL_RUNTIME: "browser",
  PYTHONDONTWRITEBYTECODE: "1",
  LANG: "C.UTF-8",
});

/** What the runtime needs before worker.js registers onetool_host / onetool_idb (the rest of
 *  onetool_wasm.browser imports those two), and the built-in command table (cached, the same
 *  work start() does anyway): this is what a snapshot holds already imported. */
export const PRELOAD = [
  "import onetool_wasm.browser.session, onetool_wasm.browser.bridge, onetool_wasm.browser.wire, pyodide.ffi",
  "import onetool_wasm.commands",
  "onetool_wasm.commands.builtin_groups()",
].join("\n");

/** A name in __main__ holding the key a snapshot was made for: a restore checks it. */
export const MARKER = "__onetool_snapshot__";
