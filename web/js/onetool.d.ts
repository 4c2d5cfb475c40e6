// TypeScript declarations of the public page API: web/js/onetool.js (createOneTool, OneTool)
// and the <onetool-sandbox> element of web/js/sandbox-element.js.
// tests/test_typescript_declarations.py checks that every option, method and export named
// here exists in onetool.js and the other way round, and type-checks this file with tsc.

/** Exit code of a command stopped by interrupt(). */
export declare const INTERRUPTED_EXIT_CODE: 130;
/** The event dispatched on the page's global object each time an instance has booted. */
export declare const READY_EVENT: "onetool-ready";

export type StorageOptions =
  | { kind: "indexeddb"; name?: string }
  | { kind: "memory" };

/** File contents: text (written as UTF-8) or bytes. */
export type FileData = string | Uint8Array | ArrayBuffer | ArrayBufferView;

export type MaybePromise<T> = T | Promise<T>;

export interface SearchHit {
  title: string;
  snippet: string;
  source: string;
}

export interface FetchResult {
  contentType?: string | null;
  payload: unknown;
}

export interface Adapters {
  search?(query: string, limit: number): MaybePromise<Iterable<Partial<SearchHit>> | null | undefined>;
  fetch?(resource: string): MaybePromise<FetchResult | null | undefined>;
}

/** What `confirm` is asked: one operation the policy wants a human to approve (redacted). */
export interface ConsentRequest {
  ref: string;
  namespace: string | null;
  operation: string | null;
  kind: string;
  reason: string;
  summary: string;
  input: unknown;
  inputSchema: Record<string, unknown> | null;
  commandLine: string | null;
}

/** {approved: true, input} approves an edited input (validated against `inputSchema`). */
export type ConsentAnswer = "approved" | "declined" | "unavailable" | { approved: boolean; input?: unknown };

export type PolicyMode = "guided" | "strict";

export interface PolicyOptions {
  mode?: PolicyMode;
  allow?: string[];
  confirm?: string[];
  deny?: string[];
  sensitive?: string[];
  /** What "confirm" becomes when nobody can be asked (default "deny"). */
  onNoConfirm?: "deny" | "allow";
  confirmTimeoutSeconds?: number;
}

export type JSONSchema = Record<string, unknown>;

export interface OperationSpec {
  name: string;
  summary?: string;
  description?: string;
  kind?: string | null;
  inputSchema?: JSONSchema | null;
  outputSchema?: JSONSchema | null;
  handler(input: any): unknown;
}

/** Operations implemented by page functions. */
export interface JsProvider {
  namespace: string;
  summary?: string;
  /** Values redacted wherever they would reach the model. */
  secrets?: string[];
  operations: OperationSpec[];
}

/** Operations of an OpenAPI document; HTTP goes through the page's fetch (or `fetch`). */
export interface OpenApiProvider {
  namespace?: string | null;
  openapi: string | Record<string, unknown>;
  baseUrl?: string | null;
  headers?: Record<string, string> | null;
  query?: Record<string, string> | null;
  summary?: string | null;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** The tools of an MCP server over streamable HTTP, as operations; HTTP goes through the
 *  page's fetch (or `fetch`), so the server must allow CORS and expose `Mcp-Session-Id`. */
export interface McpProvider {
  namespace: string;
  /** The server's MCP endpoint, e.g. "https://host/mcp". */
  mcp: string | URL;
  /** Sent with every request (e.g. authorization); their values are redacted. */
  headers?: Record<string, string> | null;
  summary?: string | null;
  /** Values redacted wherever they would reach the model. */
  secrets?: string[];
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export type Provider = JsProvider | OpenApiProvider | McpProvider;

export interface OutputLimits {
  maxLines?: number;
  maxBytes?: number;
}

/** The limits of one run (defaults in docs/ARCHITECTURE.md). */
export interface ExecutionPolicy {
  deadlineMs?: number;
  maxCommands?: number;
  maxLoopIterations?: number;
  maxFunctionDepth?: number;
  maxExpansionBytes?: number;
  maxHeredocBytes?: number;
  maxOutputBytes?: number;
  maxSourceDepth?: number;
  maxMaterializedBytes?: number;
}

export interface BuiltinCommandsOptions {
  preset?: string;
  includeGroups?: string[];
  excludeCommands?: string[];
}

export interface ResourcePolicy {
  maxFileBytes?: number;
  maxTotalBytes?: number;
  maxDirectoryDepth?: number;
  maxEntriesPerDirectory?: number;
  maxOutputArtifactBytes?: number;
}

export type ProgressPhase = "worker" | "snapshot" | "pyodide" | "packages" | "runtime" | "ready";

/** A boot step; `phase` "ready" comes again after a worker is replaced. */
export interface ProgressEvent {
  phase: ProgressPhase;
  loaded: number;
  total: number;
  message: string;
  /** On the event that starts a boot path: how Python starts, from a boot snapshot or cold
   *  (a restore that fails is followed by the next path's event, with its reason). */
  boot?: "snapshot" | "cold";
  /** Why the stored snapshot was not used (a changed site, a corrupted record, ...), or why
   *  a boot is cold; null when nothing failed (a first visit restoring the site's snapshot). */
  bootReason?: string | null;
}

/** Every option of createOneTool() is optional. */
export interface OneToolOptions {
  /** Default: {kind: "indexeddb", name: "one-tool-vfs"}. */
  storage?: StorageOptions;
  /** Seeds the world when the store holds no files. */
  files?: Record<string, FileData>;
  adapters?: Adapters;
  confirm?: (request: ConsentRequest) => MaybePromise<ConsentAnswer>;
  policy?: PolicyOptions;
  providers?: Provider[];
  outputLimits?: OutputLimits;
  /** "bash" (default): the bash-compatible shell; "strict": the upstream grammar. */
  grammar?: "bash" | "strict";
  /** Variables, functions and the cwd carry over between runs (default false). */
  shellSession?: boolean;
  executionPolicy?: ExecutionPolicy;
  builtinCommands?: BuiltinCommandsOptions | false;
  resourcePolicy?: ResourcePolicy;
  onProgress?: (event: ProgressEvent) => void;
  /** Default: worker.js beside onetool.js. On another origin than the page, it is started
   *  through a same-origin blob: module worker that imports it (docs/EMBEDDING.md). */
  workerURL?: string | URL;
  /** How long interrupt() waits for Python before replacing the worker (default 3000). */
  interruptGraceMs?: number;
  /** Use the SharedArrayBuffer interrupt when cross-origin isolated (default true). */
  sharedInterrupt?: boolean;
  /** Share the page's one worker and Pyodide with the other shared instances and every
   *  <onetool-sandbox>, keeping its own runtime, files and policy (default false). */
  shared?: boolean;
}

export interface CommandTrace {
  argv: string[];
  stdinBytes: number;
  stdoutBytes: number;
  stderr: string;
  exitCode: number;
  contentType: string;
  durationMs: number;
}

export interface PipelineTrace {
  relationFromPrevious: ";" | "&&" | "||" | null;
  executed: boolean;
  exitCode: number | null;
  skippedReason: "previous_succeeded" | "previous_failed" | null;
  commands: CommandTrace[];
}

export interface Presentation {
  /** The text block for the model (what run() returns). */
  text: string;
  body: string;
  stdoutMode: "plain" | "truncated" | "binary-guard";
  savedPath: string | null;
  totalBytes: number | null;
  totalLines: number | null;
}

/** One command line's run, from runDetailed(). */
export interface RunExecution {
  commandLine: string;
  exitCode: number;
  durationMs: number;
  stdout: Uint8Array;
  stderr: string;
  contentType: string;
  trace: PipelineTrace[];
  presentation: Presentation;
}

export interface FileEntry {
  path: string;
  isDir: boolean;
  size: number;
  mtimeMs: number;
}

export type ToolDefinitionFormat = "openai" | "openai-responses" | "anthropic" | "mcp";

export interface ToolDefinitionOptions {
  toolName?: string;
  descriptionVariant?: string;
}

export interface InterruptOutcome {
  outcome: "idle" | "interrupted" | "restarted";
}

export interface OneToolInfo {
  pyodideVersion: string | null;
  storage: StorageOptions;
  crossOriginIsolated: boolean;
  sharedInterrupt: boolean;
  bootMs: number | null;
  restarts: number;
  /** Runs in the page's shared worker (option `shared`). */
  shared: boolean;
  /** The onetool-wasm version of the worker's runtime. */
  onetoolVersion: string | null;
  /** How the worker's Pyodide started: from the boot snapshot, or cold. */
  boot: "snapshot" | "cold" | null;
  /** Where a "snapshot" boot's snapshot came from: this browser's IndexedDB (an earlier
   *  visit) or the site's boot/snapshot.bin (made at build time); null on a cold boot. */
  snapshotSource: "stored" | "site" | null;
  /** Why no snapshot or not the stored one was used ("the snapshot was made for another
   *  version of the site", "no snapshot yet" on a site without one, ...); null otherwise. */
  bootReason: string | null;
  snapshotRestoreMs: number | null;
  snapshotBytes: number | null;
  /** Milliseconds per boot phase, in order (manifest, loadPyodide, packagesInstall, import...). */
  bootPhases: Record<string, number> | null;
}

/** The detail of a OneTool "restarted" event: its worker was replaced and its session
 *  opened again from its storage (a memory file system from its seed files). */
export interface RestartedDetail {
  storage: StorageOptions;
  lostState: boolean;
  interruptedBy: "self" | "sibling";
  error: string | null;
}

export interface OneToolEventMap {
  restarted: CustomEvent<RestartedDetail>;
}

export declare class OneTool extends EventTarget {
  constructor(options?: OneToolOptions);
  readonly info: OneToolInfo;
  /** The boot's info (which boot path ran: docs/BROWSER.md). */
  readonly booting: Promise<Record<string, unknown>>;
  addEventListener<K extends keyof OneToolEventMap>(type: K, listener: (event: OneToolEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions): void;
  /** The text block for the model. Commands run one at a time, in call order. */
  run(line: string): Promise<string>;
  runDetailed(line: string): Promise<RunExecution>;
  toolDefinition(format?: ToolDefinitionFormat, options?: ToolDefinitionOptions): Promise<Record<string, any>>;
  /** Stop the running command: shared-memory interrupt, cancel flag, then a new worker. */
  interrupt(): Promise<InterruptOutcome>;
  /** Empties the file system and memory, seeds `files` again. */
  reset(): Promise<void>;
  close(): Promise<void>;
  /** The whole tree, sorted by path. */
  listFiles(): Promise<FileEntry[]>;
  readFile(path: string): Promise<Uint8Array>;
  /** Resolves to the path written. */
  writeFile(path: string, data: FileData): Promise<string>;
}

export declare function createOneTool(options?: OneToolOptions): Promise<OneTool>;

// --- <onetool-sandbox> (web/js/sandbox-element.js) -------------------------------------
// Types only: the element's class is exported by sandbox-element.js, not by onetool.js.
//   <script type="module" src="js/sandbox-element.js"></script>
//   <onetool-sandbox label="Pipes" files='{"/notes.txt": "b\na\nb\n"}' autorun="sort /notes.txt">

/** The element's attributes (all optional). */
export interface OneToolSandboxAttributes {
  /** Its title (default "sandbox"). */
  label?: string;
  /** JSON {path: text}: the seed files; else a child <script type="application/json">. */
  files?: string;
  /** A command line run once ready. */
  autorun?: string;
  /** A builtinCommands preset, e.g. "readOnly". */
  preset?: string;
  /** Present: a worker of its own instead of the page's shared one. */
  "own-worker"?: "";
  /** Set by the element (to "") when it starts booting. */
  started?: "";
  /** Set by the element (to "") once it takes commands. */
  ready?: "";
}

export interface OneToolSandboxElement extends HTMLElement {
  /** Its own in-memory instance, once booted. */
  tool: OneTool | null;
  /** Resolves to `tool` when it can take commands; rejects when it failed to start. */
  readonly ready: Promise<OneTool>;
  /** Boot it now (it boots by itself when first shown); resolves like `ready`. */
  start(): Promise<OneTool>;
  /** Type and run a line, as a reader would (resolves when its output is shown). */
  run(line: string): Promise<unknown>;
}

/** The detail of the "onetool-ready" event (it bubbles). */
export interface OneToolReadyEventDetail {
  tool: OneTool;
}

declare global {
  interface HTMLElementTagNameMap {
    "onetool-sandbox": OneToolSandboxElement;
  }
  interface HTMLElementEventMap {
    "onetool-ready": CustomEvent<OneToolReadyEventDetail>;
    /** The shared worker was replaced: its files are back to their seed files. */
    "onetool-restarted": CustomEvent<RestartedDetail>;
  }
}
