// The playground's wiring: one onetool instance per world, and the panels around it.
//
// Public surface for scripts and Playwright: when the page can take its first command it sets
// `document.body.dataset.ready = "true"` and `window.onetool` is the live instance
// (run, runDetailed, toolDefinition, interrupt, reset, close). Loading another world sets
// `ready` to "false" and `window.onetool` to null, then both again once the new one is up.

import { createOneTool } from "../onetool.js";
import { ConsentDialog } from "./consent-dialog.js";
import { FileTree } from "./file-tree.js";
import { CommandHistory } from "./history.js";
import { DEFAULT_POLICY } from "./policy.js";
import { BootProgress } from "./progress.js";
import { shellQuote } from "./shell-quote.js";
import { setupTabs } from "./tabs.js";
import { Terminal } from "./terminal.js";
import { ToolDefinitionPanel } from "./tool-definition.js";
import { TraceView } from "./trace-view.js";
import { fetchWorld, WORLDS, worldOptions } from "./worlds.js";
import { renderExamples, renderWorldPicker } from "./world-picker.js";

const $ = (selector) => document.querySelector(selector);
const WORLD_KEY = "onetool-playground.world";
const storeName = (worldId) => `onetool-playground-${worldId}`;

const consent = new ConsentDialog($("#consent"));
const progress = new BootProgress({ container: $("#boot"), bar: $("#boot-progress"), label: $("#boot-label") });
const trace = new TraceView($("#trace-view"));
const toolDefinition = new ToolDefinitionPanel({
  select: $("#tooldef-format"), output: $("#tooldef-output"), copyButton: $("#tooldef-copy"),
});
const tree = new FileTree({ list: $("#file-tree"), onOpenFile: (path) => terminal.submit(`cat ${shellQuote(path)}`) });
const terminal = new Terminal({
  form: $("#term-form"),
  input: $("#term-input"),
  output: $("#term-output"),
  button: $("#term-run"),
  stopButton: $("#term-stop"),
  history: new CommandHistory({ storageKey: "onetool-playground.history" }),
  execute: runLine,
});

let tool = null;

/** Run one line for the terminal; the trace and the file tree follow it. */
async function runLine(line) {
  const execution = await tool.runDetailed(line);
  trace.show(execution);
  refreshTree();
  return { text: execution.presentation.text, exitCode: execution.exitCode };
}

async function refreshTree() {
  const current = tool;
  try {
    await tree.refresh(current);
  } catch (error) {
    if (current === tool) terminal.note(`file tree: ${error?.message || error}`); // else: world switched
  }
}

/** Boot a runtime over the world's own IndexedDB store (`files` seed it only while it is empty). */
async function openWorld(worldId) {
  document.body.dataset.ready = "false";
  terminal.setEnabled(false, "Booting…");
  terminal.dropWaiting(); // lines typed ahead were meant for the world that is closing
  $("#world-load").disabled = true;
  $("#world-reset").disabled = true;
  progress.start();
  const previous = tool;
  tool = null;
  window.onetool = null; // no script should drive an instance that is closing
  if (previous) await previous.close();
  try {
    const world = await fetchWorld(worldId);
    const { files, adapters, providers } = worldOptions(world);
    tool = await createOneTool({
      storage: { kind: "indexeddb", name: storeName(worldId) },
      files,
      adapters,
      providers,
      policy: DEFAULT_POLICY,
      confirm: consent.confirm,
      onProgress: (event) => progress.update(event),
    });
    localStorage.setItem(WORLD_KEY, worldId);
    await ready(world);
  } catch (error) {
    progress.fail(`Could not start: ${error?.message || error}`);
    terminal.note(`boot failed: ${error?.stack || error}`);
    $("#world-load").disabled = false;
  }
}

async function ready(world) {
  window.onetool = tool;
  $("#world-description").textContent = world.description || "";
  renderExamples($("#examples"), world.examples || [], (line) => terminal.submit(line));
  terminal.note(`${world.title}: ready. Files persist in IndexedDB (${storeName(world.id)}).`);
  await Promise.all([refreshTree(), toolDefinition.attach(tool)]);
  progress.done();
  terminal.setEnabled(true, "Type a command, e.g. ls /");
  $("#files-refresh").disabled = false;
  $("#world-load").disabled = false;
  $("#world-reset").disabled = false;
  document.body.dataset.ready = "true";
  window.dispatchEvent(new CustomEvent("onetool-ready", { detail: { tool, world: world.id } }));
  terminal.input.focus();
}

/** Stop a runaway command (the file system survives, even when the worker is replaced). */
async function stop() {
  const dropped = terminal.dropWaiting(); // Stop ends what was typed ahead too
  const { outcome } = await tool.interrupt();
  terminal.note(`interrupt: ${outcome}${dropped ? `; ${dropped} waiting line${dropped > 1 ? "s" : ""} dropped` : ""}`);
}

async function resetWorld() {
  $("#world-reset").disabled = true;
  try {
    await tool.reset();
    terminal.note("world reset: its files were seeded again");
    await refreshTree();
  } finally {
    $("#world-reset").disabled = false;
  }
}

function start() {
  setupTabs($(".tabs"));
  // ?world=logs picks the world (links, tests); else the last one loaded here; else the demo.
  const known = (id) => WORLDS.some((world) => world.id === id);
  const asked = new URLSearchParams(location.search).get("world");
  const initial = [asked, localStorage.getItem(WORLD_KEY), "demo"].find(known);
  renderWorldPicker($("#world-select"), WORLDS, initial);
  $("#world-load").addEventListener("click", () => openWorld($("#world-select").value));
  $("#files-refresh").addEventListener("click", refreshTree);
  $("#term-stop").addEventListener("click", stop);
  $("#world-reset").addEventListener("click", resetWorld);
  openWorld(initial);
}

start();
