"""A static server for dist/site: cross-origin isolated (COOP/COEP) with the right MIME types.

`serve()` is `python build.py serve`; `start_server()` runs one in a background thread for
tests and benchmarks (port 0 picks a free port; `server.url` is its address).
"""

import functools
import http.server
import threading

MIME_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class QuietSiteHandler(SiteHandler):
    def log_message(self, format, *args):
        pass


class PlainSiteHandler(QuietSiteHandler):
    """Like a plain static host: right MIME types, no COOP/COEP (so no SharedArrayBuffer)."""

    def end_headers(self):
        http.server.SimpleHTTPRequestHandler.end_headers(self)


def make_server(directory, port: int = 0, host: str = "127.0.0.1", quiet: bool = False, isolated: bool = True):
    handler_class = (QuietSiteHandler if quiet else SiteHandler) if isolated else PlainSiteHandler
    handler = functools.partial(handler_class, directory=str(directory))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.url = f"http://{host}:{server.server_address[1]}"
    return server


def start_server(directory, port: int = 0, host: str = "127.0.0.1", isolated: bool = True):
    """Serve `directory` from a daemon thread; call `server.shutdown()` to stop.
    `isolated=False` serves it like a plain static host, without COOP/COEP."""
    server = make_server(directory, port, host, quiet=True, isolated=isolated)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server


def serve(directory, port: int, host: str = "127.0.0.1") -> None:
    with make_server(directory, port, host) as server:
        print(f"serving {directory} at {server.url}/ (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nstopped")
