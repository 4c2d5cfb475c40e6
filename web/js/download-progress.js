// download-progress.js — count the bytes of the files Pyodide fetches during boot.
//
// Pyodide fetches pyodide.asm.wasm, python_stdlib.zip and the wheels with the worker's global
// fetch. While boot runs, that fetch is wrapped: a response for one of the watched URLs is
// passed on with its body counted as it streams (status and headers unchanged, so
// WebAssembly.instantiateStreaming still sees application/wasm). `stop()` puts fetch back.

const REPORT_EVERY_MS = 100;

/**
 * watchDownloads({url: size}, onBytes) -> {stop(), loaded(), total}
 * onBytes({loaded, total, url}) is called at most every 100 ms, and when a file is done.
 */
export function watchDownloads(sizes, onBytes) {
  const original = globalThis.fetch;
  const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
  let loaded = 0;
  let lastReport = 0;
  const report = (url, force) => {
    const now = performance.now();
    if (!force && now - lastReport < REPORT_EVERY_MS) return;
    lastReport = now;
    onBytes({ loaded: Math.min(loaded, total), total, url });
  };
  globalThis.fetch = async function countingFetch(input, init) {
    const response = await original.call(this ?? globalThis, input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
    if (!(url in sizes) || !response.body) return response;
    const counter = new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        report(url, false);
        controller.enqueue(chunk);
      },
      flush() {
        report(url, true);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return {
    total,
    loaded: () => Math.min(loaded, total),
    stop() {
      if (globalThis.fetch.name === "countingFetch") globalThis.fetch = original;
    },
  };
}
