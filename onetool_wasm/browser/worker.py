"""The worker's entry point (Pyodide only): web/js/worker.js calls `start`.

    api = await start(options_json, option_buffers)
    reply = await api.request(method, params_json, buffers)   # -> {json, buffers}

`onetool_host` is the JS module the worker registers (registerJsModule): `call(method,
json, buffers)` asks the page and returns a promise of {json, buffers}, which Python awaits;
`cancelled()` reads the interrupt flags. Values cross as wire text + buffers in both
directions (onetool_wasm/browser/wire.py, web/js/wire.js).
"""
from __future__ import annotations

import json
import signal
from typing import Any

import js  # type: ignore[import-not-found]
import onetool_host as host  # type: ignore[import-not-found]  # registered by web/js/worker.js
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from . import wire
from .bridge import PageBridge, PageError
from .jsstore import JsStore
from .session import BrowserSession, on_interrupt_signal


def _buffers(values: Any) -> list[bytes]:
    return [value.to_bytes() for value in values] if values is not None else []


def _to_wire(value: Any) -> Any:
    text, buffers = wire.encode(value)
    return to_js({"json": text, "buffers": buffers}, dict_converter=js.Object.fromEntries)


class WorkerApi:
    """What the worker's JavaScript holds (as a PyProxy) and calls for each page request."""

    def __init__(self, session: BrowserSession, info: dict[str, Any]) -> None:
        self.session = session
        self.info = json.dumps(info)

    async def request(self, method: str, text: str, buffers: Any) -> Any:
        params = wire.decode(text, _buffers(buffers)) or {}
        return _to_wire(await self.session.handle(method, params))


async def start(options_text: str, option_buffers: Any) -> WorkerApi:
    async def call(method: str, params: dict[str, Any]) -> Any:
        text, buffers = wire.encode(params)
        try:
            reply = await host.call(method, text, to_js(buffers))
        except JsException as error:
            raise PageError(str(error.name), str(error.message)) from None
        return wire.decode(reply.json, _buffers(reply.buffers))

    signal.signal(signal.SIGINT, on_interrupt_signal)
    options = wire.decode(options_text, _buffers(option_buffers))
    session = BrowserSession(options, PageBridge(call), make_store=JsStore,
                             cancelled=lambda: bool(host.cancelled()))
    return WorkerApi(session, await session.start())
