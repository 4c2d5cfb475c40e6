// rpc.js — request/response over postMessage, used on both sides of the worker boundary.
//
// Messages:
//   {kind: "call", id, method, params, instance}  ask the other side to run `method`
//   {kind: "reply", id, ok: true, value}          its answer
//   {kind: "reply", id, ok: false, error}         its failure: {name, message}
//   {kind: "notify", topic, payload}              one-way (progress, interrupt)
// Each side numbers its own calls; a reply is matched against the calls of the side that
// receives it, so the two counters never meet. `instance` (optional) says which page
// instance a call belongs to when several share one worker (shared-worker-pool.js): the
// handler gets it as its second argument, and rejectPending can fail only that instance's calls.

export class Channel {
  /**
   * @param {Worker|DedicatedWorkerGlobalScope} port  where to post and listen
   * @param {object} handlers  method name -> async function(params) for incoming calls
   * @param {object} [topics]  topic -> function(payload) for incoming notifications
   */
  constructor(port, handlers = {}, topics = {}) {
    this.port = port;
    this.handlers = handlers;
    this.topics = topics;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, method}
    this.listener = (event) => this.receive(event.data);
    port.addEventListener("message", this.listener);
    if (typeof port.start === "function") port.start();
  }

  /** Call `method` on the other side; resolves with its value, rejects with its error. */
  call(method, params, instance = undefined) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method, instance });
      this.port.postMessage(instance === undefined ? { kind: "call", id, method, params }
        : { kind: "call", id, method, params, instance });
    });
  }

  notify(topic, payload) {
    this.port.postMessage({ kind: "notify", topic, payload });
  }

  /** Fail every call still waiting for an answer (the other side is gone or interrupted);
   *  with `instance`, only the calls made for that instance. */
  rejectPending(error, instance = undefined) {
    const calls = [];
    for (const [id, call] of this.pending) {
      if (instance !== undefined && call.instance !== instance) continue;
      this.pending.delete(id);
      calls.push(call);
    }
    for (const call of calls) call.reject(error);
    return calls.length;
  }

  close(error = new Error("channel closed")) {
    this.port.removeEventListener("message", this.listener);
    this.rejectPending(error);
  }

  async receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.kind === "reply") return this.settle(message);
    if (message.kind === "notify") return this.topics[message.topic]?.(message.payload);
    if (message.kind === "call") return this.answer(message);
  }

  settle({ id, ok, value, error }) {
    const call = this.pending.get(id);
    if (!call) return; // already rejected by rejectPending
    this.pending.delete(id);
    if (ok) call.resolve(value);
    else call.reject(toError(error));
  }

  async answer({ id, method, params, instance }) {
    const handler = Object.hasOwn(this.handlers, method) ? this.handlers[method] : null;
    try {
      if (!handler) throw new Error(`unknown method: ${method}`);
      const value = await handler(params, instance);
      this.port.postMessage({ kind: "reply", id, ok: true, value });
    } catch (error) {
      this.port.postMessage({ kind: "reply", id, ok: false, error: serializeError(error) });
    }
  }
}

/** What crosses postMessage for an error: its name and message (stack stays behind). */
export function serializeError(error) {
  if (error && typeof error === "object") {
    return { name: String(error.name || "Error"), message: String(error.message ?? error) };
  }
  return { name: "Error", message: String(error) };
}

export function toError({ name, message } = {}) {
  const error = new Error(message ?? "unknown error");
  error.name = name || "Error";
  return error;
}
