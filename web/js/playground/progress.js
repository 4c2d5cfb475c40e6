// The boot progress bar, fed by createOneTool's onProgress events.

// Where each boot phase of onetool.js sits on the whole bar: [start, end].
const PHASES = {
  worker: [0, 0.05],
  pyodide: [0.05, 0.6],
  packages: [0.6, 0.85],
  runtime: [0.85, 0.98],
  ready: [1, 1],
};

/**
 * Normalise a progress event to {fraction of the whole boot, label}. onetool.js sends
 * {phase, loaded, total, message}; a bare number in [0, 1] or {progress|fraction|percent} works too.
 */
export function readProgress(event) {
  if (typeof event === "number") return { fraction: clamp(event), label: "" };
  const data = event || {};
  const label = String(data.message ?? data.label ?? data.phase ?? "");
  let fraction = data.progress ?? data.fraction ?? (data.percent != null ? data.percent / 100 : null);
  if (fraction == null && data.total) fraction = data.loaded / data.total;
  const span = PHASES[data.phase];
  if (span) fraction = span[0] + (span[1] - span[0]) * (fraction ?? 0);
  return { fraction: fraction == null ? null : clamp(fraction), label };
}

function clamp(value) {
  return Math.max(0, Math.min(1, Number(value) || 0));
}

export class BootProgress {
  constructor({ container, bar, label }) {
    this.container = container;
    this.bar = bar;
    this.label = label;
  }

  start(text = "Starting Python…") {
    this.container.hidden = false;
    this.container.classList.remove("failed");
    this.bar.value = 0;
    this.label.textContent = text;
  }

  /** The onProgress callback. */
  update(event) {
    // A replaced worker (after interrupt) boots again from phase "worker": show the bar again.
    if (event?.phase === "worker" && !event.loaded && this.container.hidden) this.start("Restarting Python…");
    const { fraction, label } = readProgress(event);
    if (fraction != null) this.bar.value = Math.max(this.bar.value, fraction);
    if (label) this.label.textContent = label;
    if (event?.phase === "ready") this.done();
  }

  done() {
    this.bar.value = 1;
    this.container.hidden = true;
  }

  fail(message) {
    this.container.hidden = false;
    this.container.classList.add("failed");
    this.label.textContent = message;
  }
}
