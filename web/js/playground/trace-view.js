// The trace view: how the last command line ran, pipeline by pipeline, command by command.

/** Read a field in camelCase (the JS API) or snake_case (raw Python data). */
function field(object, camel, snake) {
  return object?.[camel] ?? object?.[snake];
}

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
      ["command", field(execution, "commandLine", "command_line") ?? ""],
      ["exit", String(field(execution, "exitCode", "exit_code"))],
      ["time", `${field(execution, "durationMs", "duration_ms")} ms`],
      ["stdout", formatBytes(stdout?.byteLength ?? stdout?.length)],
      ["type", field(execution, "contentType", "content_type") ?? ""],
      ["mode", field(execution.presentation, "stdoutMode", "stdout_mode") ?? ""],
    ];
    const saved = field(execution.presentation, "savedPath", "saved_path");
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
    const relation = pipeline.relation ? `${pipeline.relation} ` : "";
    const skipped = field(pipeline, "skippedReason", "skipped_reason");
    head.append(element("span", "", `${relation}pipeline ${index + 1}${executed ? "" : ` · skipped (${skipped})`}`));
    if (executed) head.append(exitBadge(field(pipeline, "exitCode", "exit_code")));
    box.append(head);
    const list = element("ol");
    for (const command of pipeline.commands || []) list.append(this.command(command));
    if (list.children.length) box.append(list);
    return box;
  }

  command(command) {
    const item = element("li", "command");
    const argv = (command.argv || []).map(quoteArg).join(" ");
    item.append(element("span", "argv", argv), " ", exitBadge(field(command, "exitCode", "exit_code")));
    const stdin = field(command, "stdinBytes", "stdin_bytes");
    const stdout = field(command, "stdoutBytes", "stdout_bytes");
    item.append(element("div", "bytes", `stdin ${formatBytes(stdin)} → stdout ${formatBytes(stdout)}`));
    if (command.stderr) item.append(element("div", "stderr", command.stderr));
    return item;
  }
}

function quoteArg(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
