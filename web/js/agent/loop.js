// The agent loop: the model calls the `run` tool until it answers without a tool call.

export const SYSTEM_PROMPT = [
  "You are an agent working in a sandbox through one tool, `run`, which executes shell-like",
  "command lines over a virtual file system (and any search, fetch or API commands it lists).",
  "Explore with `ls`, `cat`, `grep`, `help` before you answer. Keep tool calls small and",
  "answer briefly, citing the files you used.",
].join(" ");

/** The command of a tool call, or an error message for the model. */
export function readToolCall(call, toolName = "run") {
  const name = call?.function?.name;
  if (name !== toolName) return { error: `unknown tool: ${name}. The only tool is ${toolName}.` };
  let args;
  try {
    args = JSON.parse(call.function.arguments || "{}");
  } catch {
    return { error: "the arguments are not valid JSON; send {\"command\": \"...\"}" };
  }
  if (typeof args?.command !== "string" || !args.command.trim()) {
    return { error: "missing \"command\": send {\"command\": \"ls /\"}" };
  }
  return { command: args.command };
}

/**
 * Run one task to its end.
 * @param {{complete: Function, tool: object, task: string, system?: string, maxTurns?: number,
 *          onEvent?: (event: {type: string, text: string, command?: string}) => void,
 *          signal?: AbortSignal}} options
 * @returns {Promise<{answer: string|null, turns: number, messages: object[]}>}
 */
export async function runAgent({ complete, tool, task, system = SYSTEM_PROMPT, maxTurns = 12, onEvent = () => {}, signal }) {
  const tools = [await tool.toolDefinition("openai")];
  const messages = [{ role: "system", content: system }, { role: "user", content: task }];
  onEvent({ type: "user", text: task });
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    signal?.throwIfAborted();
    const message = await complete({ messages, tools, signal });
    messages.push(message);
    if (message.content) onEvent({ type: "assistant", text: message.content });
    if (!message.tool_calls?.length) return { answer: message.content ?? "", turns: turn, messages };
    for (const call of message.tool_calls) {
      signal?.throwIfAborted();
      const { command, error } = readToolCall(call);
      if (command) onEvent({ type: "call", text: command, command });
      const output = error ? `[error] ${error}` : await tool.run(command);
      onEvent({ type: "result", text: output });
      messages.push({ role: "tool", tool_call_id: call.id, content: output });
    }
  }
  onEvent({ type: "stopped", text: `stopped: no answer after ${maxTurns} turns` });
  return { answer: null, turns: maxTurns, messages };
}
