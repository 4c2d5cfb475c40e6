// The boot progress bar, fed by createOneTool's onProgress events.

// Where each boot phase of onetool.js sits on the whole bar: [start, end].
const PHASES = {
  worker: [0, 0.05],
  snapshot: [0.05, 0.6], // a repeat visit: the boot snapshot is read and restored
  pyodide: [0.05, 0.6],
  packages: [0.6, 0.85],
  runtime: [0.85, 0.98],
  ready: [1, 1],
};

/** A progress event of onetool.js ({phase, loaded, total, message}) as {fraction of the whole boot, label}. */
export function readProgress({ phase, loaded, total, message } = {}) {
  const span = PHASES[phase];
  const fraction = span ? span[0] + (span[1] - span[0]) * (total ? loaded / total : 0) : null;
  return { fraction: fraction == null ? null : clamp(fraction), label: String(message ?? phase ?? "") };
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
