// <onetool-sandbox>: a small terminal for documentation pages, bound to its own in-memory
// onetool instance. All sandboxes of a page share one worker and one Pyodide
// (createOneTool({shared: true}), shared-worker-pool.js), each with its own runtime, files,
// memory and history; their commands take turns. A sandbox starts when it first comes into
// view (IntersectionObserver) or gets the focus, so a long page does not boot them all at once.
//
//   <script type="module" src="js/sandbox-element.js"></script>
//   <onetool-sandbox label="Pipes" files='{"/notes.txt": "b\na\nb\n"}' autorun="sort /notes.txt | uniq">
//   </onetool-sandbox>
//
// Files come from the `files` attribute (JSON {path: text}) or a child
// <script type="application/json"> holding the same object. Attributes: `label` (its title),
// `autorun` (a command line run once ready, so when first shown), `preset` (builtinCommands
// preset, e.g. readOnly), `own-worker` (a worker of its own instead of the page's shared one).
// When it starts booting it sets the attribute `started`; when it can take commands, `ready`,
// and fires "onetool-ready". If the shared worker had to be replaced (another sandbox's
// command did not stop), its files start again from its seed files: it says so in its output
// and fires "onetool-restarted". `element.tool` is its instance, `element.ready` a promise of
// it, `element.start()` boots it now, `element.run(line)` types a line (booting it if needed).

import { createOneTool } from "./onetool.js";
import { Terminal } from "./playground/terminal.js";

const STYLESHEET = new URL("../css/sandbox.css", import.meta.url);
const VISIBLE_MARGIN = "200px 0px"; // start a little before it scrolls into view

export class OneToolSandbox extends HTMLElement {
  constructor() {
    super();
    this.tool = null;
    this.terminal = null;
    this.started = false;
    this.gone = false; // removed from the page: never boots
    this.observer = null;
    this.onFocus = () => this.start();
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {}); // reported in the element itself
  }

  build() {
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
    this.watch();
  }

  connectedCallback() {
    if (!this.shadowRoot) this.build();
    else this.watch(); // moved before it started
  }

  disconnectedCallback() {
    this.unwatch();
    // A move (removed and inserted again in one task) keeps the instance; a removal ends it.
    queueMicrotask(() => {
      if (this.isConnected) return;
      if (this.started) return this.tool?.close();
      this.gone = true;
      this.rejectReady(new Error("removed from the page before it was ready"));
    });
  }

  /** Boot when first visible or focused. */
  watch() {
    if (this.started || this.gone) return;
    this.addEventListener("focusin", this.onFocus);
    this.observer ??= new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) this.start();
    }, { rootMargin: VISIBLE_MARGIN });
    this.observer.observe(this);
  }

  unwatch() {
    this.removeEventListener("focusin", this.onFocus);
    this.observer?.disconnect();
  }

  /** Boot now (it does when first shown or focused); resolves with its instance. */
  start() {
    if (!this.started && !this.gone && this.isConnected) {
      this.started = true;
      this.unwatch();
      this.observer = null;
      this.setAttribute("started", "");
      this.boot();
    }
    return this.ready;
  }

  /** Type and run a line, as a reader would (resolves when its output is shown). */
  async run(line) {
    await this.start();
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
      <div class="bar"><span class="title"></span><span class="status" role="status">starts when shown</span></div>
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
      status.textContent = "starting…";
      this.tool = await createOneTool({
        shared: !this.hasAttribute("own-worker"),
        storage: { kind: "memory" },
        files: this.files(),
        builtinCommands: preset ? { preset } : undefined,
        onProgress: ({ message } = {}) => { if (message) status.textContent = message; },
      });
      this.tool.addEventListener("restarted", (event) => this.onRestarted(event.detail));
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

  onRestarted(detail) {
    const why = detail.interruptedBy === "self" ? "its command did not stop" : "another sandbox's command did not stop";
    this.terminal.note(detail.error
      ? `the runtime was restarted (${why}) and failed to start again: ${detail.error}`
      : `the runtime was restarted (${why}): the files are back to their starting state`);
    this.dispatchEvent(new CustomEvent("onetool-restarted", { bubbles: true, detail }));
  }
}

if (!customElements.get("onetool-sandbox")) customElements.define("onetool-sandbox", OneToolSandbox);
