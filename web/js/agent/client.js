// A minimal OpenAI-compatible chat completions client: POST {endpoint}/chat/completions.

/** `https://host/v1` -> `https://host/v1/chat/completions`; a full .../chat/completions URL is kept. */
export function chatCompletionsUrl(endpoint) {
  const base = String(endpoint).trim().replace(/\/+$/, "");
  if (!base) throw new Error("set the endpoint first (e.g. https://api.openai.com/v1)");
  return /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
}

/** The assistant message as it goes back into the conversation: role, content, tool_calls only. */
export function assistantMessage(message) {
  const out = { role: "assistant", content: message.content ?? null };
  if (Array.isArray(message.tool_calls) && message.tool_calls.length) out.tool_calls = message.tool_calls;
  return out;
}

/** A `complete({messages, tools, signal}) -> assistant message` function for one endpoint and model. */
export function createChatClient({ endpoint, model, apiKey = "", fetchImpl = globalThis.fetch.bind(globalThis) }) {
  const url = chatCompletionsUrl(endpoint);
  if (!model) throw new Error("set the model first");
  return async function complete({ messages, tools, signal }) {
    const headers = { "Content-Type": "application/json" };
    if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
    const response = await fetchImpl(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model, messages, tools, tool_choice: "auto" }),
      signal,
    });
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 400);
      throw new Error(`the endpoint answered ${response.status} ${response.statusText}: ${detail}`);
    }
    const data = await response.json();
    const message = data?.choices?.[0]?.message;
    if (!message) throw new Error("the endpoint's answer has no choices[0].message");
    return assistantMessage(message);
  };
}
