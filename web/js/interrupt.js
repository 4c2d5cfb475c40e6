// interrupt.js — the shared interrupt flags of a page and its worker.
//
// One SharedArrayBuffer, two Int32 slots:
//   [0] Pyodide's interrupt buffer (pyodide.setInterruptBuffer): 2 = SIGINT, so Python
//       raises KeyboardInterrupt at its next check, even inside a busy loop;
//   [1] the cancel flag that long commands poll (CommandContext.cancelled).
// Shared memory exists only in a cross-origin isolated page (COOP/COEP headers); elsewhere
// there are no flags and a runaway command ends when its worker is replaced.

const SIGINT = 2;

/** A new flag buffer, or null where shared memory is unavailable or not wanted. */
export function createInterruptFlags(wanted = true) {
  if (!wanted || !globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== "function") return null;
  return new SharedArrayBuffer(8);
}

export function signalSlot(buffer) {
  return new Int32Array(buffer, 0, 1);
}

export function cancelSlot(buffer) {
  return new Int32Array(buffer, 4, 1);
}

/** Ask the running Python code to stop (both slots). */
export function raiseInterrupt(buffer) {
  if (!buffer) return;
  Atomics.store(cancelSlot(buffer), 0, 1);
  Atomics.store(signalSlot(buffer), 0, SIGINT);
}

/** Before each request: a stale signal must not hit the next command. */
export function clearInterrupt(buffer) {
  if (!buffer) return;
  Atomics.store(cancelSlot(buffer), 0, 0);
  Atomics.store(signalSlot(buffer), 0, 0);
}

export function isCancelled(buffer) {
  return Boolean(buffer) && Atomics.load(cancelSlot(buffer), 0) !== 0;
}
