// The terminal: an input line (Enter runs, ↑/↓ history) over a log of runs.
// Command output is untrusted text: it is only ever put in the page with textContent.

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

  /** Run a line as if typed: echo it, execute, print the text the model would see. */
  async submit(line, { focus = true } = {}) {
    if (this.busy || !line.trim()) return;
    this.history.push(line);
    this.input.value = "";
    const entry = this.addEntry(line);
    this.setBusy(true);
    try {
      const { text, exitCode } = await this.execute(line);
      this.addOutput(entry, text, exitCode !== 0);
    } catch (error) {
      this.addOutput(entry, `[page] ${error?.message || error}`, true);
    } finally {
      this.setBusy(false);
      if (focus) this.input.focus();
    }
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
    if (this.button) this.button.disabled = busy;
    if (this.stopButton) this.stopButton.hidden = !busy;
  }

  scroll() {
    this.output.scrollTop = this.output.scrollHeight;
  }
}
