// <onetool-sandbox>: a small terminal for documentation pages, bound to its own in-memory
// onetool instance (its own worker), so every sandbox on a page is independent.
//
//   <script type="module" src="js/sandbox-element.js"></script>
//   <onetool-sandbox label="Pipes" files='{"/notes.txt": "b\na\nb\n"}' autorun="sort /notes.txt | uniq">
//   </onetool-sandbox>
//
// Files come from the `files` attribute (JSON {path: text}) or a child
// <script type="application/json"> holding the same object. Attributes: `label` (its title),
// `autorun` (a command line run once ready), `preset` (builtinCommands preset, e.g. readOnly).
// When it can take commands it sets the attribute `ready` and fires "onetool-ready";
// `element.tool` is its instance, `element.ready` a promise of it, `element.run(line)` types a line.

import { createOneTool } from "./onetool.js";
import { Terminal } from "./playground/terminal.js";

const STYLESHEET = new URL("../css/sandbox.css", import.meta.url);

export class OneToolSandbox extends HTMLElement {
  constructor() {
    super();
    this.tool = null;
    this.terminal = null;
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {}); // reported in the element itself
  }

  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: "open" });
    root.append(this.render());
    this.terminal = new Terminal({
      form: root.querySelector("form"),
      input: root.querySelector("input"),
      output: root.querySelector(".output"),
      button: root.querySelector("button"),
      execute: async (line) => {
        const execution = await this.tool.runDetailed(line);
        return { text: execution.presentation.text, exitCode: execution.exitCode };
      },
    });
    this.boot();
  }

  disconnectedCallback() {
    // A move (removed and inserted again in one task) keeps the instance; a removal ends it.
    queueMicrotask(() => { if (!this.isConnected) this.tool?.close(); });
  }

  /** Type and run a line, as a reader would (resolves when its output is shown). */
  async run(line) {
    await this.ready;
    return this.terminal.submit(line);
  }

  render() {
    const fragment = document.createDocumentFragment();
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLESHEET.href;
    const box = document.createElement("div");
    box.className = "box";
    const label = this.getAttribute("label") || "sandbox";
    box.innerHTML = `
      <div class="bar"><span class="title"></span><span class="status" role="status">starting…</span></div>
      <div class="output" role="log" aria-live="polite" tabindex="0"></div>
      <form autocomplete="off">
        <label class="prompt" for="line">$</label>
        <input id="line" type="text" spellcheck="false" autocapitalize="off" disabled>
        <button type="submit" disabled>Run</button>
      </form>`; // static markup only: no attribute or output text goes through innerHTML
    box.querySelector(".title").textContent = label;
    box.querySelector("input").setAttribute("aria-label", `Command line of the ${label} sandbox`);
    fragment.append(link, box);
    return fragment;
  }

  /** The seed files: the `files` attribute, else a child JSON script. */
  files() {
    const script = this.querySelector('script[type="application/json"]');
    const text = this.getAttribute("files") ?? script?.textContent ?? "{}";
    const files = JSON.parse(text);
    if (!files || typeof files !== "object" || Array.isArray(files)) throw new Error("files must be a JSON object");
    return files;
  }

  async boot() {
    const status = this.shadowRoot.querySelector(".status");
    try {
      const preset = this.getAttribute("preset");
      this.tool = await createOneTool({
        storage: { kind: "memory" },
        files: this.files(),
        builtinCommands: preset ? { preset } : undefined,
        onProgress: ({ message } = {}) => { if (message) status.textContent = message; },
      });
      // Removed while it booted: nothing will close it later, so end its worker now.
      if (!this.isConnected) {
        await this.tool.close();
        throw new Error("removed from the page before it was ready");
      }
      status.textContent = "ready";
      this.terminal.setEnabled(true, "type a command, Enter runs");
      this.setAttribute("ready", "");
      this.resolveReady(this.tool);
      this.dispatchEvent(new CustomEvent("onetool-ready", { bubbles: true, detail: { tool: this.tool } }));
      const autorun = this.getAttribute("autorun");
      if (autorun) await this.terminal.submit(autorun, { focus: false });
    } catch (error) {
      status.textContent = `failed: ${error?.message || error}`;
      this.rejectReady(error);
    }
  }
}

if (!customElements.get("onetool-sandbox")) customElements.define("onetool-sandbox", OneToolSandbox);
