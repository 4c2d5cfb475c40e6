// The terminal: an input line (Enter runs, ↑/↓ history) over a log of runs.
// Command output is untrusted text: it is only ever put in the page with textContent.
// A line entered while a command runs waits its turn (type-ahead, as in a terminal): it is
// shown and run once the running one has ended, in the order entered.

import { CommandHistory } from "./history.js";

export class Terminal {
  /**
   * @param {{form: HTMLFormElement, input: HTMLInputElement, output: HTMLElement,
   *          button?: HTMLButtonElement, history?: CommandHistory,
   *          execute: (line: string) => Promise<{text: string, exitCode: number}>}} options
   */
  constructor({ form, input, output, button = null, stopButton = null, history = new CommandHistory(), execute }) {
    this.form = form;
    this.input = input;
    this.output = output;
    this.button = button;
    this.stopButton = stopButton;
    this.history = history;
    this.execute = execute;
    this.busy = false;
    this.waiting = []; // lines entered while busy: [{line, focus, resolve}]
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit(this.input.value);
    });
    input.addEventListener("keydown", (event) => this.onKey(event));
  }

  onKey(event) {
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    const line = event.key === "ArrowUp" ? this.history.previous(this.input.value) : this.history.next();
    if (line === null) return;
    event.preventDefault();
    this.input.value = line;
    this.input.setSelectionRange(line.length, line.length);
  }

  /** Run a line as if typed: echo it, execute, print the text the model would see. Resolves
   *  once its output is shown (or it was dropped), also when it had to wait its turn. */
  submit(line, { focus = true } = {}) {
    if (!line.trim()) return Promise.resolve();
    this.history.push(line);
    if (this.input.value === line) this.input.value = "";
    const shown = new Promise((resolve) => this.waiting.push({ line, focus, resolve }));
    if (!this.busy) this.runWaiting();
    return shown;
  }

  async runWaiting() {
    this.setBusy(true);
    let focus = false;
    for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
      await this.runOne(next.line);
      focus = next.focus;
      next.resolve();
    }
    this.setBusy(false);
    if (focus) this.input.focus();
  }

  async runOne(line) {
    const entry = this.addEntry(line);
    try {
      const { text, exitCode } = await this.execute(line);
      this.addOutput(entry, text, exitCode !== 0);
    } catch (error) {
      this.addOutput(entry, `[page] ${error?.message || error}`, true);
    }
  }

  /** Forget the lines waiting their turn (Stop, or another world); -> how many there were. */
  dropWaiting() {
    const dropped = this.waiting;
    this.waiting = [];
    for (const { resolve } of dropped) resolve();
    return dropped.length;
  }

  addEntry(line) {
    const entry = document.createElement("div");
    entry.className = "entry";
    const shown = document.createElement("div");
    shown.className = "line";
    shown.textContent = line;
    entry.append(shown);
    this.output.append(entry);
    this.scroll();
    return entry;
  }

  addOutput(entry, text, failed) {
    const out = document.createElement("pre");
    out.className = failed ? "out failed" : "out";
    out.textContent = text;
    entry.append(out);
    this.scroll();
  }

  /** A line from the page itself (world loaded, errors), not from a command. */
  note(text) {
    const note = document.createElement("div");
    note.className = "entry note";
    note.textContent = text;
    this.output.append(note);
    this.scroll();
  }

  clear() {
    this.output.replaceChildren();
  }

  setEnabled(enabled, placeholder = "") {
    this.input.disabled = !enabled;
    if (this.button) this.button.disabled = !enabled;
    this.input.placeholder = placeholder;
  }

  setBusy(busy) {
    this.busy = busy;
    this.form.setAttribute("aria-busy", String(busy));
    // The Run button stays enabled: a form whose default button is disabled ignores Enter, and
    // a line entered now waits its turn.
    if (this.stopButton) this.stopButton.hidden = !busy;
  }

  scroll() {
    this.output.scrollTop = this.output.scrollHeight;
  }
}
