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
    let response;
    try {
      response = await fetchImpl(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ model, messages, tools, tool_choice: "auto" }),
        signal,
      });
    } catch (error) {
      // fetch rejects with a bare TypeError ("Failed to fetch") for a refused connection, a
      // CORS refusal, a DNS failure: the page cannot tell which, so say what to check.
      if (error instanceof TypeError) throw new Error(unreachableMessage(url, pageOrigin()));
      throw error; // AbortError: stopped by the user
    }
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 400);
      throw new Error(`the endpoint answered ${response.status} ${response.statusText}: ${detail}`);
    }
    const data = parseAnswer(url, response, await response.text());
    const message = data?.choices?.[0]?.message;
    if (!message) throw new Error("the endpoint's answer has no choices[0].message");
    return assistantMessage(message);
  };
}

/** The error shown when fetch() itself failed (no HTTP answer reached the page). */
export function unreachableMessage(url, origin) {
  return `could not reach the model endpoint ${url}: the connection was refused, or the endpoint ` +
    `does not allow requests from ${origin} (CORS). Check that it runs and sends Access-Control-Allow-Origin`;
}

/** The endpoint's answer as JSON, or an error that says it is not JSON and shows its start. */
export function parseAnswer(url, response, text) {
  try {
    return JSON.parse(text);
  } catch {
    const contentType = response.headers.get("content-type") || "none";
    throw new Error(`the model endpoint ${url} answered with something that is not JSON ` +
      `(status ${response.status}, content-type ${contentType}): ${text.slice(0, 200)}`);
  }
}

function pageOrigin() {
  return globalThis.location?.origin ?? "this page";
}
