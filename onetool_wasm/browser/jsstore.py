"""The IndexedDB store of web/js/idb-store.js, seen from Python (Pyodide only).

web/js/worker.js registers the JS module `onetool_idb` ({open(name) -> IdbStore}); this
class adapts it to BrowserVFS's Store protocol. Operations cross as wire text + buffers;
a refused transaction (QuotaExceededError, ...) arrives as a StoreError with the
DOMException's name. The listener for other tabs' messages is a Python callable handed to
JavaScript for good, so it is a `create_proxy` (destroyed on close).
"""
from __future__ import annotations

import json
from typing import Any, Callable

import onetool_idb  # type: ignore[import-not-found]  # registered by web/js/worker.js
from pyodide.ffi import JsException, create_proxy, to_js  # type: ignore[import-not-found]

from . import wire
from .vfs import StoreError


class JsStore:
    def __init__(self, db_name: str) -> None:
        self.db_name = db_name
        self._js: Any = None
        self._callback: Callable[[dict[str, Any]], None] | None = None
        self._proxy: Any = None

    async def _open(self) -> Any:
        if self._js is None:
            self._js = await onetool_idb.open(self.db_name)
            if self._callback is not None:
                self._attach()
        return self._js

    def _attach(self) -> None:
        callback = self._callback

        def on_message(text: str) -> None:
            callback(json.loads(text))

        self._proxy = create_proxy(on_message)
        self._js.listen(self._proxy)

    async def load(self) -> tuple[list[tuple[str, int, int]], list[tuple[str, int]]]:
        store = await self._open()
        index = json.loads(await store.loadIndex())
        return [tuple(entry) for entry in index["files"]], [tuple(entry) for entry in index["dirs"]]

    async def read(self, path: str) -> bytes | None:
        store = await self._open()
        value = await store.read(path)  # undefined (None) when there is no such file
        return None if value is None else value.to_bytes()

    async def commit(self, ops: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        store = await self._open()
        text, buffers = wire.encode({"ops": ops, "changes": changes})
        try:
            await store.commit(text, to_js(buffers))
        except JsException as error:
            raise StoreError(str(error.name), str(error.message)) from None

    async def clear(self, root_mtime_ms: int) -> None:
        store = await self._open()
        try:
            await store.clear(root_mtime_ms)
        except JsException as error:
            raise StoreError(str(error.name), str(error.message)) from None

    def listen(self, callback: Callable[[dict[str, Any]], None]) -> None:
        self._callback = callback
        if self._js is not None and self._proxy is None:
            self._attach()

    def close(self) -> None:
        if self._js is not None:
            self._js.close()
        if self._proxy is not None:
            self._proxy.destroy()
            self._proxy = None
