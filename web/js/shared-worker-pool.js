// shared-worker-pool.js — one Web Worker (one Pyodide) for one or more onetool instances.
//
// Every OneTool (onetool.js) is a member of a pool. `createOneTool({shared: true})` and every
// <onetool-sandbox> join the page's shared pool (one per worker URL); any other instance has
// a private pool of its own (the one-worker-each path). In the worker each member has its own
// Python session (onetool_wasm/browser/worker.py: runtime, file system, memory, policy,
// consent, providers), named by the member's id on every call (rpc.js `instance`).
//
// * Commands (run, runDetailed, reset, writeFile) of all members run one at a time, in the
//   order they were asked for; other requests (listFiles, readFile, toolDefinition) go at once.
// * interrupt(member): a command of the member still waiting its turn is dropped (it resolves
//   as interrupted). A running one gets the member's soft cancel flag (and its waiting page
//   calls fail); the shared-memory interrupt (KeyboardInterrupt in whatever Python runs) is
//   raised only here, when the running command is the caller's. If it has not ended after
//   the grace time, the worker is replaced: every member's session is opened again in a new
//   worker, from its own storage (IndexedDB files survive, a memory file system starts again
//   from its seed files), and each member is told (member.restarted).
// * The worker ends when its last member leaves.
//
// A member provides: id, workerOptions(), pageCall(method, params), progress(update),
// wantsSharedInterrupt, restarted(detail).

import { Channel } from "./rpc.js";
import { createInterruptFlags, raiseInterrupt } from "./interrupt.js";

// What Python asks of the page, answered by the member that made the call.
const PAGE_CALLS = ["search", "fetch", "confirm", "operation", "http"];
const CLOSE_WAIT_MS = 1000;
const shared = new Map(); // worker URL -> the page's shared pool
const counts = { started: 0, alive: 0 };

/** The page's shared pool for this worker URL (a new one once the last one ended). */
export function sharedPool(workerURL) {
  const key = String(workerURL);
  let pool = shared.get(key);
  if (!pool || pool.ended) {
    pool = new WorkerPool(workerURL, { shared: true });
    shared.set(key, pool);
  }
  return pool;
}

/** Workers this page started and has running, and the members of its shared pools. */
export function workerCounts() {
  const members = [...shared.values()].reduce((sum, pool) => sum + (pool.ended ? 0 : pool.members.size), 0);
  return { started: counts.started, alive: counts.alive, sharedPools: shared.size, sharedMembers: members };
}

export class WorkerPool {
  constructor(workerURL, { shared = false, sharedInterrupt = true } = {}) {
    this.workerURL = workerURL;
    this.shared = shared;
    this.flags = createInterruptFlags(sharedInterrupt);
    this.members = new Map(); // id -> member
    this.sessions = new Map(); // id -> promise of the member's session in the current worker
    this.starting = new Set(); // members waiting for a boot: they get its progress
    this.queue = []; // commands waiting their turn: {member, method, params, resolve, reject}
    this.running = null; // the command in the worker: {member, done}
    this.replacing = null;
    this.worker = null;
    this.channel = null;
    this.booting = null;
    this.ended = false;
  }

  /** Add a member and open its session; resolves with the boot info and the session's info. */
  async join(member) {
    if (this.ended) throw new Error("onetool: this worker has ended");
    if (this.members.has(member.id)) throw new Error(`onetool: ${member.id} already joined`);
    this.members.set(member.id, member);
    const session = this.openSession(member);
    this.sessions.set(member.id, session);
    try {
      return await session;
    } catch (error) {
      this.leave(member);
      throw error;
    }
  }

  /** The member's session is ended and its waiting commands fail; the last one ends the worker. */
  async leave(member) {
    if (!this.members.delete(member.id)) return;
    const session = this.sessions.get(member.id);
    this.sessions.delete(member.id);
    this.starting.delete(member);
    for (const task of this.queue.filter((t) => t.member === member)) {
      this.queue.splice(this.queue.indexOf(task), 1);
      task.reject(new Error("onetool: closed"));
    }
    try {
      const closing = session.then(() => this.channel.call("close", {}, member.id));
      await Promise.race([closing, sleep(CLOSE_WAIT_MS)]);
    } catch {
      // never opened, or the worker is going away anyway
    }
    if (this.members.size === 0) this.end(new Error("onetool: closed"));
  }

  /** A request of one member, at once (not queued). */
  async request(member, method, params) {
    for (let attempt = 0; ; attempt++) {
      await this.sessionOf(member);
      try {
        return await this.channel.call(method, params, member.id);
      } catch (error) {
        // A sibling's runaway replaced the worker under this request: ask the new one.
        if (error.name !== "WorkerReplaced" || attempt > 0) throw error;
      }
    }
  }

  /** A command: it runs when the commands asked for before it (of any member) have ended. */
  command(member, method, params) {
    return new Promise((resolve, reject) => {
      this.queue.push({ member, method, params, resolve, reject });
      this.pump();
    });
  }

  async interrupt(member, graceMs) {
    const task = this.running;
    if (task?.member !== member) {
      const waiting = this.queue.find((t) => t.member === member);
      if (!waiting) return { outcome: "idle" };
      this.queue.splice(this.queue.indexOf(waiting), 1);
      waiting.reject(interruptedError());
      return { outcome: "interrupted" };
    }
    // The running command is this member's: only now may the shared flags be raised.
    if (member.wantsSharedInterrupt) raiseInterrupt(this.flags);
    this.channel.notify("interrupt", { instance: member.id });
    if (await settlesWithin(task.done, graceMs)) return { outcome: "interrupted" };
    // Two interrupt() calls for one command replace its worker once.
    if (this.running === task) this.replacing ??= this.replace(member).finally(() => { this.replacing = null; });
    await this.replacing;
    return { outcome: "restarted" };
  }

  // --- the worker ------------------------------------------------------------------------------

  async openSession(member, message = null) {
    this.starting.add(member);
    message ??= this.booting && this.shared ? "joining the page's shared worker" : "starting the worker";
    member.progress({ phase: "worker", loaded: 0, total: 1, message });
    this.booting ??= this.boot();
    let boot;
    try {
      boot = await this.booting;
    } finally {
      this.starting.delete(member);
    }
    const options = member.workerOptions();
    member.progress({ phase: "runtime", loaded: 0, total: 1, message: `opening the ${options.storage.kind} file system` });
    const info = await this.channel.call("open", { options }, member.id);
    member.progress({ phase: "ready", loaded: 1, total: 1, message: "ready" });
    return { ...boot, ...info };
  }

  sessionOf(member) {
    const session = this.sessions.get(member.id);
    if (!session) return Promise.reject(new Error("onetool: closed"));
    return session;
  }

  /** Start a worker and boot Pyodide in it, with no session yet (worker.py `pool`). */
  boot() {
    const worker = startModuleWorker(this.workerURL);
    counts.started += 1;
    counts.alive += 1;
    this.worker = worker;
    this.channel = new Channel(worker, this.pageHandlers(), { progress: (update) => this.bootProgress(update) });
    let booted = false;
    const failed = new Promise((_, reject) => {
      worker.addEventListener("error", (event) => {
        if (booted) return console.error("onetool: worker error", event.message);
        event.preventDefault?.();
        reject(new Error(`onetool: the worker failed to start: ${event.message || "module error"}`));
      });
    });
    return Promise.race([this.channel.call("init", { interruptBuffer: this.flags, pool: true }), failed])
      .then((info) => { booted = true; return info; });
  }

  /** Boot progress goes to the members waiting for it; each reports its own runtime and ready. */
  bootProgress(update) {
    if (update?.phase === "runtime" || update?.phase === "ready") return;
    for (const member of this.starting) member.progress(update);
  }

  pageHandlers() {
    return Object.fromEntries(PAGE_CALLS.map((method) => [method, (params, instance) => {
      const member = this.members.get(instance);
      if (!member) throw new Error(`onetool: no instance ${instance} on this page`);
      return member.pageCall(method, params);
    }]));
  }

  async pump() {
    if (this.running || this.queue.length === 0) return;
    const task = this.queue.shift();
    const result = this.sessionOf(task.member).then(() => this.channel.call(task.method, task.params, task.member.id));
    this.running = { member: task.member, done: result.then(() => undefined, () => undefined) };
    try {
      task.resolve(await result);
    } catch (error) {
      task.reject(error);
    } finally {
      this.running = null;
      this.pump();
    }
  }

  /** The running command did not stop: a new worker, every member's session opened again. */
  async replace(culprit) {
    // All in one task: what the closed channel fails (the stuck command, as interrupted; a
    // sibling's request, retried) already finds the new worker and sessions.
    this.channel.close(new WorkerReplaced());
    this.worker.terminate();
    counts.alive -= 1;
    this.booting = this.boot();
    for (const member of this.members.values()) this.sessions.set(member.id, this.openSession(member, "restarting the worker"));
    const members = [...this.members.values()];
    const reopened = await Promise.allSettled(members.map((member) => this.sessions.get(member.id)));
    members.forEach((member, i) => {
      const storage = member.workerOptions().storage;
      member.restarted({
        storage,
        lostState: storage.kind === "memory", // a memory file system starts again from its seed files
        interruptedBy: culprit === member ? "self" : "sibling",
        error: reopened[i].status === "rejected" ? String(reopened[i].reason?.message ?? reopened[i].reason) : null,
      });
    });
  }

  end(reason) {
    if (this.ended) return;
    this.ended = true;
    if (shared.get(String(this.workerURL)) === this) shared.delete(String(this.workerURL));
    this.channel?.close(reason);
    if (this.worker) {
      this.worker.terminate();
      counts.alive -= 1;
    }
  }
}

export class WorkerReplaced extends Error {
  constructor() {
    super("interrupted: the command did not stop, so its worker was replaced");
    this.name = "WorkerReplaced";
  }
}

function interruptedError() {
  const error = new Error("interrupted: the command was stopped before it finished");
  error.name = "Interrupted";
  return error;
}

// A module worker can only be created from the page's own origin (`new Worker(url)` with
// another origin's URL throws a SecurityError). When the runtime is served from another origin
// (a page on A importing https://B/onetool/js/onetool.js, docs/EMBEDDING.md), the worker is a
// same-origin blob: module that imports B's worker.js: there import.meta.url is still B's, so
// the manifest, Pyodide and the wheels load from B (which must send CORS headers, and CORP when
// the page is cross-origin isolated). The blob URL is kept: the worker is replaced with it too.
const blobWorkerURLs = new Map(); // worker URL -> blob: URL of its same-origin wrapper
function startModuleWorker(workerURL) {
  const url = new URL(workerURL, globalThis.location?.href);
  const options = { type: "module", name: "onetool" };
  if (!globalThis.location || url.origin === globalThis.location.origin || url.protocol === "blob:") {
    return new Worker(url, options);
  }
  let wrapper = blobWorkerURLs.get(url.href);
  if (!wrapper) {
    const source = `import ${JSON.stringify(url.href)};\n`;
    wrapper = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    blobWorkerURLs.set(url.href, wrapper);
  }
  return new Worker(wrapper, options);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function settlesWithin(promise, ms) {
  return Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
}
