"""The browser glue: what runs in the Web Worker next to Pyodide.

Pure Python, testable on CPython with fakes: `wire` (values across the JS boundary),
`index` (the in-memory path index), `vfs` (BrowserVFS over a store), `bridge` (adapters,
consent, providers and HTTP served by the page), `session` (one runtime for one page).
Pyodide only, imported by nothing else: `jsstore` (the IndexedDB store of
web/js/idb-store.js seen from Python) and `worker` (the entry point web/js/worker.js calls).
Importing this package imports no `js` module.
"""
from .vfs import BrowserVFS, StoreError

__all__ = ["BrowserVFS", "StoreError"]
