// The agent page's wiring: settings, a runtime over an example world (in memory), the loop.
// Like the playground it sets `document.body.dataset.ready = "true"` and `window.onetool`.

import { createOneTool } from "../onetool.js";
import { ConsentDialog } from "../playground/consent-dialog.js";
import { DEFAULT_POLICY } from "../playground/policy.js";
import { renderWorldPicker } from "../playground/world-picker.js";
import { fetchWorld, WORLDS, worldOptions } from "../playground/worlds.js";
import { createChatClient } from "./client.js";
import { runAgent } from "./loop.js";
import { bindSettingsForm, clearSettings } from "./settings.js";
import { Transcript } from "./transcript.js";

const $ = (selector) => document.querySelector(selector);
const consent = new ConsentDialog($("#consent"));
const transcript = new Transcript($("#transcript"));
const readSettings = bindSettingsForm($("#settings"));
const status = $("#agent-status");
let tool = null;
let running = null; // AbortController of the task in progress

// The world picker is disabled while a world boots or a task runs: a second boot would leak
// the first instance's worker, and a task would lose its tool halfway.
async function openWorld(worldId) {
  document.body.dataset.ready = "false";
  $("#task-run").disabled = true;
  $("#agent-world").disabled = true;
  status.textContent = "Starting Python…";
  const previous = tool;
  tool = null;
  await previous?.close();
  try {
    const world = await fetchWorld(worldId);
    tool = await createOneTool({
      storage: { kind: "memory" },
      ...worldOptions(world),
      policy: DEFAULT_POLICY,
      confirm: consent.confirm,
      onProgress: ({ message } = {}) => { if (message) status.textContent = message; },
    });
    window.onetool = tool;
    status.textContent = `Ready: ${world.title} (in memory; a reload starts it again).`;
    $("#task-run").disabled = false;
    document.body.dataset.ready = "true";
  } catch (error) {
    status.textContent = `Could not start: ${error?.message || error}`;
  } finally {
    $("#agent-world").disabled = false;
  }
}

async function runTask(event) {
  event.preventDefault();
  const task = $("#task").value.trim();
  if (!task || running) return;
  let complete;
  try {
    complete = createChatClient(readSettings());
  } catch (error) {
    transcript.add({ type: "error", text: error.message });
    return;
  }
  running = new AbortController();
  setRunning(true);
  try {
    const { turns } = await runAgent({
      complete, tool, task,
      maxTurns: Number($("#max-turns").value) || 12,
      onEvent: (entry) => transcript.add(entry),
      signal: running.signal,
    });
    status.textContent = `Done in ${turns} turn${turns === 1 ? "" : "s"}.`;
  } catch (error) {
    transcript.add({ type: "error", text: error?.name === "AbortError" ? "stopped by you" : String(error?.message || error) });
    status.textContent = "Stopped.";
  } finally {
    running = null;
    setRunning(false);
  }
}

function setRunning(busy) {
  $("#task-run").disabled = busy;
  $("#agent-world").disabled = busy;
  $("#task-stop").hidden = !busy;
  document.body.dataset.agent = busy ? "running" : "idle";
  if (busy) status.textContent = "Working…";
}

function start() {
  renderWorldPicker($("#agent-world"), WORLDS, "demo");
  $("#agent-world").addEventListener("change", (event) => openWorld(event.target.value));
  $("#task-form").addEventListener("submit", runTask);
  $("#task-stop").addEventListener("click", () => {
    running?.abort();
    tool?.interrupt();
  });
  $("#transcript-clear").addEventListener("click", () => transcript.clear());
  $("#settings-forget").addEventListener("click", () => {
    clearSettings();
    for (const name of ["endpoint", "model", "apiKey"]) $("#settings").elements[name].value = "";
  });
  document.body.dataset.agent = "idle";
  openWorld("demo");
}

start();
