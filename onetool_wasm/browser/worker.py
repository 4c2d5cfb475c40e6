"""The worker's entry point (Pyodide only): web/js/worker.js calls `start`.

    api = await start(options_json, option_buffers)
    reply = await api.request(method, params_json, buffers, instance)   # -> {json, buffers}

One worker (one Pyodide) holds the sessions of several page instances (BrowserSessions):
every request names its instance; `open` {options} starts one, `close` ends it. With the
option `pool: true`, `start` opens no session (web/js/shared-worker-pool.js opens each);
without it, it opens the session "default" from the same options (the single-instance form).

`onetool_host` is the JS module the worker registers (registerJsModule): `call(method,
json, buffers, instance)` asks the page, on behalf of that instance, and returns a promise of
{json, buffers}, which Python awaits; `cancelled(instance)` reads that instance's interrupt
flags. Values cross as wire text + buffers in both directions (onetool_wasm/browser/wire.py,
web/js/wire.js).
"""
from __future__ import annotations

import json
import signal
from typing import Any, Mapping

import js  # type: ignore[import-not-found]
import onetool_host as host  # type: ignore[import-not-found]  # registered by web/js/worker.js
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from . import wire
from .bridge import PageBridge, PageError
from .jsstore import JsStore
from .session import BrowserSession, BrowserSessions, on_interrupt_signal

DEFAULT_INSTANCE = "default"


def _buffers(values: Any) -> list[bytes]:
    return [value.to_bytes() for value in values] if values is not None else []


def _to_wire(value: Any) -> Any:
    text, buffers = wire.encode(value)
    return to_js({"json": text, "buffers": buffers}, dict_converter=js.Object.fromEntries)


def _make_session(instance: str, options: Mapping[str, Any]) -> BrowserSession:
    async def call(method: str, params: dict[str, Any]) -> Any:
        text, buffers = wire.encode(params)
        try:
            reply = await host.call(method, text, to_js(buffers), instance)
        except JsException as error:
            raise PageError(str(error.name), str(error.message)) from None
        return wire.decode(reply.json, _buffers(reply.buffers))

    return BrowserSession(options, PageBridge(call), make_store=JsStore,
                          cancelled=lambda: bool(host.cancelled(instance)))


class WorkerApi:
    """What the worker's JavaScript holds (as a PyProxy) and calls for each page request."""

    def __init__(self, sessions: BrowserSessions, info: dict[str, Any]) -> None:
        self.sessions = sessions
        self.info = json.dumps(info)

    async def request(self, method: str, text: str, buffers: Any, instance: Any = None) -> Any:
        params = wire.decode(text, _buffers(buffers)) or {}
        name = instance if isinstance(instance, str) else DEFAULT_INSTANCE
        return _to_wire(await self.sessions.request(name, method, params))


async def start(options_text: str, option_buffers: Any) -> WorkerApi:
    signal.signal(signal.SIGINT, on_interrupt_signal)
    options = wire.decode(options_text, _buffers(option_buffers)) or {}
    sessions = BrowserSessions(_make_session)
    if options.get("pool"):
        from .. import __version__
        return WorkerApi(sessions, {"onetoolVersion": __version__})
    return WorkerApi(sessions, await sessions.request(DEFAULT_INSTANCE, "open", {"options": options}))
