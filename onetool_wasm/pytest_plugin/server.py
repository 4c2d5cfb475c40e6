"""A static server for a built site: cross-origin isolated (COOP/COEP), with CORS and the
right MIME types. `build.py serve` serves with it (tools/serve.py); the pytest plugin and the
benches start one in a background thread (`start_server`, port 0 picks a free port,
`server.url` is its address)."""

import functools
import http.server
import sys
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
        # Another origin may load the runtime (a JupyterLite micropip-installing the wheels, a
        # page embedding the sandbox): the files are public, and no cookie is ever read.
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    # Files held in memory (server.memory_files, path -> bytes): the pytest plugin hands a
    # page the boot snapshot this way, and takes one from a page by a POST to a path it
    # opened for that (server.upload_paths). Nothing is written to the served folder.

    def do_GET(self):
        data = self.server.memory_files.get(self.path.split("?", 1)[0])
        if data is None:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        if path not in self.server.upload_paths:
            return self.send_error(405, "this server takes no uploads here")
        self.server.memory_files[path] = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(204)
        self.end_headers()


class QuietSiteHandler(SiteHandler):
    def log_message(self, format, *args):
        pass


class PlainSiteHandler(QuietSiteHandler):
    """Like a plain static host: right MIME types, no COOP/COEP (so no SharedArrayBuffer)."""

    def end_headers(self):
        http.server.SimpleHTTPRequestHandler.end_headers(self)


class SiteServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that stops reading (a navigation, a closed page) is not the server's error.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def make_server(directory, port: int = 0, host: str = "127.0.0.1", quiet: bool = False, isolated: bool = True):
    handler_class = (QuietSiteHandler if quiet else SiteHandler) if isolated else PlainSiteHandler
    handler = functools.partial(handler_class, directory=str(directory))
    server = SiteServer((host, port), handler)
    server.daemon_threads = True
    server.memory_files, server.upload_paths = {}, set()
    server.url = f"http://{host}:{server.server_address[1]}"
    return server


def start_server(directory, port: int = 0, host: str = "127.0.0.1", isolated: bool = True):
    """Serve `directory` from a daemon thread; call `server.shutdown()` to stop.
    `isolated=False` serves it like a plain static host, without COOP/COEP."""
    server = make_server(directory, port, host, quiet=True, isolated=isolated)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    return server
