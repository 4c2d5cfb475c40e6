"""OneToolPage: a Python handle on one runtime living in a browser page.

The runtime is a JavaScript `OneTool` (web/js/onetool.js) kept in the page's
`window.__onetool` map under an id; every method is one `page.evaluate` that calls it.
Bytes cross the page boundary as base64 (Playwright passes JSON only).
"""
from __future__ import annotations

import base64
from typing import Any

# Installed once per page: the map of handles and the base64 helpers every call uses.
PAGE_SUPPORT_JS = """() => {
  if (window.__onetool) return;
  window.__onetool = new Map();
  window.__onetoolBytes = {
    encode(bytes) {
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    },
    decode(b64) { return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)); },
  };
}"""

RUN_DETAILED_JS = """async ([id, line]) => {
  const result = await window.__onetool.get(id).runDetailed(line);
  return {...result, stdout: window.__onetoolBytes.encode(result.stdout)};
}"""


class OneToolPage:
    """One runtime in a page. `page` is the Playwright page, `id` the runtime's key in
    `window.__onetool`; `info` is the runtime's `tool.info` when the handle was made."""

    def __init__(self, page, handle_id: str, info: dict[str, Any]) -> None:
        self.page = page
        self.id = handle_id
        self.info = info

    def run(self, line: str) -> str:
        """The text block the model would see: output, [error] lines, the [exit:N | Xms] footer."""
        return self._call("(tool, line) => tool.run(line)", line)

    def run_detailed(self, line: str) -> dict[str, Any]:
        """The whole execution: commandLine, exitCode, durationMs, stdout (bytes), stderr,
        contentType, trace, presentation."""
        result = self.page.evaluate(RUN_DETAILED_JS, [self.id, line])
        result["stdout"] = base64.b64decode(result["stdout"])
        return result

    def write_file(self, path: str, data: str | bytes) -> str:
        """Write a file into the runtime's file system (parents created); returns the tool's message."""
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        return self._call("(tool, [path, b64]) => tool.writeFile(path, window.__onetoolBytes.decode(b64))",
                          [path, base64.b64encode(raw).decode("ascii")])

    def read_file(self, path: str) -> bytes:
        encoded = self._call("async (tool, path) => window.__onetoolBytes.encode(await tool.readFile(path))", path)
        return base64.b64decode(encoded)

    def read_text(self, path: str) -> str:
        return self.read_file(path).decode("utf-8")

    def list_files(self) -> list[dict[str, Any]]:
        """[{path, isDir, size, mtimeMs}] of the whole tree, sorted by path."""
        return self._call("(tool) => tool.listFiles()")

    def reset(self) -> None:
        """Empty the file system and memory, seed the tool's `files` again."""
        self._call("(tool) => tool.reset()")

    def interrupt(self) -> dict[str, Any]:
        return self._call("(tool) => tool.interrupt()")

    def tool_definition(self, format: str = "openai") -> dict[str, Any]:
        return self._call("(tool, format) => tool.toolDefinition(format)", format)

    def evaluate(self, function_js: str, arg: Any = None) -> Any:
        """`function_js` is `(tool, arg) => ...` (may be async), called with the JS OneTool."""
        return self._call(function_js, arg)

    def close(self) -> None:
        self.page.evaluate("async (id) => { const tool = window.__onetool.get(id); window.__onetool.delete(id);"
                           " if (tool) await tool.close(); }", self.id)

    def _call(self, function_js: str, arg: Any = None) -> Any:
        return self.page.evaluate(f"async ([id, arg]) => ({function_js})(window.__onetool.get(id), arg)",
                                  [self.id, arg])

    def __repr__(self) -> str:
        return f"<OneToolPage {self.id} on {self.page.url}>"


def adopt(page, expression: str, handle_id: str, timeout_ms: float) -> OneToolPage:
    """Wait until `expression` (JavaScript, e.g. `window.onetool`) is a runtime in `page`, then
    keep it under `handle_id` and return its handle."""
    page.evaluate(PAGE_SUPPORT_JS)
    page.wait_for_function(f"() => {{ const t = ({expression}); return t && typeof t.run === 'function'; }}",
                           timeout=timeout_ms)
    info = page.evaluate(f"(id) => {{ const tool = ({expression}); window.__onetool.set(id, tool); return tool.info; }}",
                         handle_id)
    return OneToolPage(page, handle_id, info)


def create(page, options_js: str, handle_id: str) -> OneToolPage:
    """`createOneTool(<options_js>)` in a page that exposes `window.OneTool` (the module
    web/js/onetool.js); `options_js` is JavaScript, so it can define adapters and handlers."""
    page.evaluate(PAGE_SUPPORT_JS)
    info = page.evaluate(f"async (id) => {{ const tool = await window.OneTool.createOneTool({options_js});"
                         " window.__onetool.set(id, tool); return tool.info; }", handle_id)
    return OneToolPage(page, handle_id, info)
