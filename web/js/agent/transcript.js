// The transcript: what the user asked, what the model said, each `run` call and its output.
// Everything here is model or command output: text nodes only.

const LABELS = { user: "You", assistant: "Model", call: "run", result: "output", stopped: "stopped", error: "error" };

export class Transcript {
  constructor(list) {
    this.list = list;
  }

  clear() {
    this.list.replaceChildren();
  }

  add({ type, text }) {
    const item = document.createElement("li");
    item.className = `turn ${type}`;
    item.dataset.type = type;
    const label = document.createElement("span");
    label.className = "who";
    label.textContent = LABELS[type] || type;
    const body = document.createElement("pre");
    body.className = "text";
    body.textContent = type === "call" ? `$ ${text}` : text;
    item.append(label, body);
    this.list.append(item);
    item.scrollIntoView({ block: "nearest" });
  }
}
