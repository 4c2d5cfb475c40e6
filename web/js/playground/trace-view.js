// The trace view: how the last command line ran, pipeline by pipeline, command by command.

import { shellQuote } from "./shell-quote.js";

export function formatBytes(count) {
  if (count == null) return "?";
  if (count < 1024) return `${count} B`;
  return `${(count / 1024).toFixed(1)} KB`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function exitBadge(code) {
  return element("span", `exit ${code === 0 ? "ok" : "bad"}`, `exit ${code ?? "-"}`);
}

export class TraceView {
  constructor(container) {
    this.container = container;
  }

  /** Show one execution (the result of runDetailed). */
  show(execution) {
    const stdout = execution.stdout;
    const summary = element("dl", "summary");
    const rows = [
      ["command", execution.commandLine ?? ""],
      ["exit", String(execution.exitCode)],
      ["time", `${execution.durationMs} ms`],
      ["stdout", formatBytes(stdout?.byteLength ?? stdout?.length)],
      ["type", execution.contentType ?? ""],
      ["mode", execution.presentation?.stdoutMode ?? ""],
    ];
    const saved = execution.presentation?.savedPath;
    if (saved) rows.push(["saved", saved]);
    for (const [name, value] of rows) summary.append(element("dt", "", name), element("dd", "", value));
    const pipelines = (execution.trace || []).map((pipeline, index) => this.pipeline(pipeline, index));
    this.container.replaceChildren(summary, ...pipelines);
  }

  pipeline(pipeline, index) {
    const executed = pipeline.executed !== false;
    const box = element("section", executed ? "pipeline" : "pipeline skipped");
    box.setAttribute("aria-label", `pipeline ${index + 1}`);
    const head = element("div", "pipeline-head");
    const relation = pipeline.relationFromPrevious ? `${pipeline.relationFromPrevious} ` : "";
    const skipped = executed ? "" : ` · skipped (${pipeline.skippedReason})`;
    head.append(element("span", "", `${relation}pipeline ${index + 1}${skipped}`));
    if (executed) head.append(exitBadge(pipeline.exitCode));
    box.append(head);
    const list = element("ol");
    for (const command of pipeline.commands || []) list.append(this.command(command));
    if (list.children.length) box.append(list);
    return box;
  }

  command(command) {
    const item = element("li", "command");
    const argv = (command.argv || []).map(shellQuote).join(" ");
    item.append(element("span", "argv", argv), " ", exitBadge(command.exitCode));
    item.append(element("div", "bytes", `stdin ${formatBytes(command.stdinBytes)} → stdout ${formatBytes(command.stdoutBytes)}`));
    if (command.stderr) item.append(element("div", "stderr", command.stderr));
    return item;
  }
}
