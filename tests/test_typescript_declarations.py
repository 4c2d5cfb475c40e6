"""web/js/onetool.d.ts says what web/js/onetool.js (and the Python behind it) does.

Every export, createOneTool option, OneTool method and `info` key named in the declarations
exists in onetool.js and the other way round; the shapes of RunExecution and ConsentRequest
are those Python produces; the progress phases are those the page and worker send; the
<onetool-sandbox> attributes are those sandbox-element.js reads or sets. On CPython the file
is also type-checked with tsc (TypeScript from npm, pinned, installed once into
.cache/typescript): a usage sample compiles, a wrong option does not.
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.consent import make_request

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "web" / "js"
DTS = (JS / "onetool.d.ts").read_text()
ONETOOL_JS = (JS / "onetool.js").read_text()
IN_PYODIDE = os.environ.get("ONETOOL_RUNTIME") == "pyodide"
TYPESCRIPT_VERSION = "5.9.3"
TYPESCRIPT_DIR = ROOT / ".cache" / "typescript"
# Every file that sends progress events to the page.
PROGRESS_SENDERS = (JS / "onetool.js", JS / "shared-worker-pool.js", JS / "worker.js", JS / "boot.js")


def without_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def block(text: str, opening: str) -> str:
    """The text between the braces of the declaration that starts with `opening`."""
    text = without_comments(text)
    match = re.search(re.escape(opening) + r"[^{]*\{", text)
    assert match, f"no {opening!r}"
    depth, start = 1, match.end()
    for index in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[start:index]
    raise AssertionError(f"unbalanced braces after {opening!r}")


def members(body: str) -> set[str]:
    """Names of the members at the top level of an interface or class body."""
    names, depth = set(), 0
    for line in body.splitlines():
        if depth == 0:
            match = re.match(r"\s*(?:readonly\s+)?(?:([A-Za-z_]\w*)|\"([\w-]+)\")\??\s*[:(<]", line)
            if match:
                names.add(match.group(1) or match.group(2))
        depth += line.count("{") - line.count("}") + line.count("(") - line.count(")")
    return names


def dts_members(opening: str) -> set[str]:
    return members(block(DTS, opening))


# -- onetool.js -----------------------------------------------------------------------------------

def test_value_exports_are_the_same():
    declared = set(re.findall(r"^export declare (?:const|function|class) (\w+)", DTS, re.M))
    exported = set(re.findall(r"^export (?:async )?(?:const|function|class) (\w+)", ONETOOL_JS, re.M))
    assert declared == exported == {"INTERRUPTED_EXIT_CODE", "READY_EVENT", "createOneTool", "OneTool"}
    assert re.search(r"^export const INTERRUPTED_EXIT_CODE = 130;$", ONETOOL_JS, re.M)
    assert "export declare const INTERRUPTED_EXIT_CODE: 130;" in DTS


def js_options() -> set[str]:
    """The createOneTool options onetool.js reads: options.X, o.X (workerOptions), and the
    names destructured from tool.options."""
    code = without_comments(ONETOOL_JS)
    names = set(re.findall(r"\boptions\.(\w+)", code))
    names |= set(re.findall(r"\bo\.(\w+)", block(ONETOOL_JS, "workerOptions()")))
    for destructured in re.findall(r"const \{([^}]*)\} = tool\.options", code):
        names |= {part.split("=")[0].strip() for part in destructured.split(",")}
    return names


def test_options_are_the_same():
    assert dts_members("export interface OneToolOptions") == js_options() == {
        "storage", "files", "adapters", "confirm", "policy", "providers", "outputLimits", "grammar",
        "shellSession", "executionPolicy", "builtinCommands", "resourcePolicy", "onProgress", "workerURL",
        "interruptGraceMs", "sharedInterrupt", "shared"}


def test_methods_are_the_same():
    api = ONETOOL_JS.split("// --- the API", 1)[1].split("// --- the worker", 1)[0]
    js_methods = set(re.findall(r"^  (?:async )?(\w+)\(", api, re.M))
    assert dts_members("export declare class OneTool") - {"constructor", "info", "booting", "addEventListener"} == js_methods == {
        "run", "runDetailed", "toolDefinition", "interrupt", "reset", "close", "listFiles", "readFile",
        "writeFile"}


def test_info_keys_are_the_same():
    js_info = set(re.findall(r"^\s{6}(\w+):", block(ONETOOL_JS, "this.info ="), re.M))
    assert dts_members("export interface OneToolInfo") == js_info == {
        "pyodideVersion", "storage", "crossOriginIsolated", "sharedInterrupt", "bootMs", "restarts", "shared",
        "onetoolVersion", "boot", "snapshotSource", "bootReason", "snapshotRestoreMs", "snapshotBytes", "bootPhases"}


def test_progress_phases_are_those_sent():
    sent = set()
    for path in PROGRESS_SENDERS:
        sent |= set(re.findall(r'phase: "(\w+)"', path.read_text()))
    declared = set(re.findall(r'"(\w+)"', re.search(r"export type ProgressPhase = ([^;]+);", DTS).group(1)))
    assert declared == sent == {"worker", "snapshot", "pyodide", "packages", "runtime", "ready"}
    keys = set()
    for path in PROGRESS_SENDERS:
        for event in re.findall(r"(?:onProgress|progress)\(\{([^}]*)\}", path.read_text()):
            keys |= set(re.findall(r"(\w+):", event))
    assert dts_members("export interface ProgressEvent") == keys == {
        "phase", "loaded", "total", "message", "boot", "bootReason"}


def test_sandbox_attributes_are_those_the_element_uses():
    element = (JS / "sandbox-element.js").read_text()
    used = set(re.findall(r'this\.(?:get|set|has)Attribute\("([\w-]+)"', element))
    assert dts_members("export interface OneToolSandboxAttributes") == used == {
        "label", "files", "autorun", "preset", "own-worker", "started", "ready"}
    assert re.search(r'customElements\.define\("onetool-sandbox"', element)
    assert '"onetool-sandbox": OneToolSandboxElement;' in DTS
    events = set(re.findall(r'new CustomEvent\("([\w-]+)"', element))
    declared = set(re.findall(r'^    "([\w-]+)": CustomEvent<', block(DTS, "interface HTMLElementEventMap"), re.M))
    assert events == declared == {"onetool-ready", "onetool-restarted"}
    assert dts_members("export interface OneToolSandboxElement") == {"tool", "ready", "start", "run"}


def test_onetool_events_are_those_dispatched():
    dispatched = set(re.findall(r'new CustomEvent\("(\w+)"', ONETOOL_JS))
    assert dts_members("export interface OneToolEventMap") == dispatched == {"restarted"}
    pool = (JS / "shared-worker-pool.js").read_text()
    detail = block(pool, "member.restarted(")
    assert dts_members("export interface RestartedDetail") == set(re.findall(r"^\s+(\w+)[:,]", detail, re.M)) == {
        "storage", "lostState", "interruptedBy", "error"}


# -- the shapes Python produces -----------------------------------------------------------------

def test_run_execution_shape_is_pythons():
    async def run():
        cli = await create_agent_cli()
        return (await cli.run_detailed("echo hi | wc -c")).to_dict()

    execution = asyncio.run(run())
    assert dts_members("export interface RunExecution") == set(execution)
    assert dts_members("export interface Presentation") == set(execution["presentation"])
    (pipeline,) = execution["trace"]
    assert dts_members("export interface PipelineTrace") == set(pipeline)
    assert dts_members("export interface CommandTrace") == set(pipeline["commands"][0])


def test_consent_request_shape_is_pythons():
    request = make_request("pets:delete", "write", "the policy asks", summary="delete a pet", input={"id": 1},
                           command_line="api pets:delete id=1")
    assert dts_members("export interface ConsentRequest") == set(request.to_dict())


# -- tsc ------------------------------------------------------------------------------------------

USAGE = """\
import { createOneTool, INTERRUPTED_EXIT_CODE, type RunExecution } from "./onetool.js";
const tool = await createOneTool({
  storage: { kind: "memory" }, files: { "/a.txt": "x", "/b.bin": new Uint8Array([1]) }, grammar: "bash",
  confirm: (request) => (request.kind === "write" ? "approved" : { approved: false }),
  onProgress: ({ phase, loaded, total }) => console.log(phase, loaded / total),
  executionPolicy: { deadlineMs: 1000 }, builtinCommands: false,
  providers: [{ namespace: "notes", mcp: "https://example.test/mcp", headers: { authorization: "Bearer x" } }],
});
const execution: RunExecution = await tool.runDetailed("ls");
const code: number = execution.exitCode === INTERRUPTED_EXIT_CODE ? 1 : 0;
const text: string = execution.presentation.text + (await tool.run("ls")) + tool.info.storage.kind;
const { outcome } = await tool.interrupt();
tool.addEventListener("restarted", (event) => console.log(event.detail.lostState, event.detail.interruptedBy));
const box = document.querySelector("onetool-sandbox");
box?.ready.then((sandboxTool) => sandboxTool.listFiles());
export { code, text, outcome };
"""
WRONG = """\
import { createOneTool } from "./onetool.js";
await createOneTool({ storage: { kind: "disk" } });
"""


def typescript_compiler() -> Path:
    tsc = TYPESCRIPT_DIR / "node_modules" / "typescript" / "bin" / "tsc"
    if not tsc.exists():
        npm = shutil.which("npm")
        assert npm, "the type-check needs npm (Node.js) on PATH"
        subprocess.run([npm, "install", "--prefix", str(TYPESCRIPT_DIR), "--no-save", "--no-fund", "--no-audit",
                        "--loglevel=error", f"typescript@{TYPESCRIPT_VERSION}"], check=True, timeout=300)
    return tsc


@pytest.mark.skipif(IN_PYODIDE, reason="Pyodide cannot start processes; the CPython run type-checks")
def test_tsc_accepts_the_declarations_and_a_usage_and_refuses_a_wrong_option(tmp_path):
    tsc = typescript_compiler()
    shutil.copy(JS / "onetool.d.ts", tmp_path / "onetool.d.ts")
    (tmp_path / "usage.ts").write_text(USAGE)
    (tmp_path / "wrong.ts").write_text(WRONG)
    completed = subprocess.run(
        ["node", str(tsc), "--strict", "--noEmit", "--target", "es2022", "--module", "es2022",
         "--moduleResolution", "bundler", "--lib", "es2022,dom", "onetool.d.ts", "usage.ts", "wrong.ts"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert completed.stdout.splitlines() == [
        "wrong.ts(2,34): error TS2322: Type '\"disk\"' is not assignable to type '\"memory\" | \"indexeddb\"'."]
    assert completed.returncode == 2
