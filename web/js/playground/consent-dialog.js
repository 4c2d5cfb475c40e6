// The consent dialog: shows a request from the policy gate, lets the human edit its scalar
// input fields, and answers "approved", "declined" or {approved: true, input} (edited).

/** Scalar leaves of an input as [path, value] pairs; path is an array of keys/indexes. */
export function scalarFields(value, path = [], depth = 0) {
  if (value === null || typeof value !== "object") return path.length ? [[path, value]] : [];
  if (depth > 3) return [];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  return entries.flatMap(([key, item]) => scalarFields(item, [...path, key], depth + 1));
}

export function fieldLabel(path) {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : index ? `.${key}` : key)).join("");
}

/** A copy of `input` with the values at `path` replaced (paths from scalarFields). */
export function withEdits(input, edits) {
  const copy = structuredClone(input);
  for (const [path, value] of edits) {
    let node = copy;
    path.slice(0, -1).forEach((key) => { node = node[key]; });
    node[path[path.length - 1]] = value;
  }
  return copy;
}

/** Read an edited field back with the type of its original value. */
function readField(control, original) {
  if (typeof original === "boolean") return control.checked;
  if (typeof original === "number") {
    const number = Number(control.value);
    return control.value.trim() !== "" && Number.isFinite(number) ? number : control.value;
  }
  if (original === null && control.value === "") return null;
  return control.value;
}

export class ConsentDialog {
  /** @param {HTMLDialogElement} dialog  the <dialog> of index.html / agent.html */
  constructor(dialog) {
    this.dialog = dialog;
    this.queue = Promise.resolve();
    this.parts = {
      title: dialog.querySelector("#consent-title"),
      summary: dialog.querySelector("#consent-summary"),
      reason: dialog.querySelector("#consent-reason"),
      command: dialog.querySelector("#consent-command"),
      fields: dialog.querySelector("#consent-fields"),
    };
    this.confirm = (request) => this.ask(request); // the function createOneTool wants
  }

  /** One request at a time; each waits for the previous dialog to close. */
  ask(request) {
    const answer = this.queue.then(() => this.show(request));
    this.queue = answer.catch(() => {});
    return answer;
  }

  show(request) {
    const controls = this.render(request || {});
    this.dialog.returnValue = "";
    this.dialog.showModal();
    return new Promise((resolve) => {
      this.dialog.addEventListener("close", () => resolve(this.answer(request, controls)), { once: true });
    });
  }

  answer(request, controls) {
    if (this.dialog.returnValue !== "approve") return "declined";
    const edits = controls
      .map(({ path, original, control }) => [path, readField(control, original), original])
      .filter(([, value, original]) => value !== original);
    if (!edits.length) return "approved";
    return { approved: true, input: withEdits(request.input, edits) };
  }

  render(request) {
    const { title, summary, reason, command, fields } = this.parts;
    title.textContent = `Allow ${request.ref || "this action"}${request.kind ? ` (${request.kind})` : ""}?`;
    summary.textContent = request.summary || "";
    reason.textContent = request.reason || "";
    const line = request.commandLine;
    command.textContent = line || "";
    command.closest("dd").previousElementSibling.hidden = !line;
    command.closest("dd").hidden = !line;
    const legend = fields.querySelector("legend");
    fields.replaceChildren(legend);
    const controls = scalarFields(request.input ?? null).map(([path, original], index) => {
      const control = this.field(fields, path, original, index);
      return { path, original, control };
    });
    fields.hidden = controls.length === 0;
    return controls;
  }

  field(fieldset, path, original, index) {
    const row = document.createElement("div");
    row.className = "field";
    const label = document.createElement("label");
    const control = document.createElement("input");
    control.id = `consent-field-${index}`;
    control.name = fieldLabel(path);
    label.htmlFor = control.id;
    label.textContent = fieldLabel(path);
    if (typeof original === "boolean") {
      control.type = "checkbox";
      control.checked = original;
    } else {
      control.type = typeof original === "number" ? "number" : "text";
      if (typeof original === "number") control.step = "any";
      control.value = original === null ? "" : String(original);
      control.spellcheck = false;
    }
    // Enter in a field would submit with the first button (Decline): a choice must be a click.
    control.addEventListener("keydown", (event) => { if (event.key === "Enter") event.preventDefault(); });
    row.append(label, control);
    fieldset.append(row);
    return control;
  }
}
