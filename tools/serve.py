"""A static server for dist/site: cross-origin isolated (COOP/COEP) with the right MIME types.

`serve()` is `python build.py serve` (`listen()` takes the port first, so a busy one is
reported before anything is built); `start_server()` runs one in a background thread for
tests and benchmarks (port 0 picks a free port; `server.url` is its address).
"""

import errno
import functools
import http.server
import socket
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


class PortUnavailable(Exception):
    """The port cannot be listened on; the message says what to try instead."""

    def __init__(self, errno_value: int | None, message: str) -> None:
        super().__init__(message)
        self.errno = errno_value


def listen(directory, port: int, host: str = "127.0.0.1", quiet: bool = False):
    """A server bound to the port (not serving yet), or PortUnavailable:
    `port 8000 is in use; try --port 8001`."""
    try:
        return make_server(directory, port, host, quiet=quiet)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise PortUnavailable(error.errno, f"port {port} is in use; try --port {free_port_after(port, host)}") \
                from None
        if error.errno == errno.EACCES:
            raise PortUnavailable(error.errno, f"port {port} needs privileges; try --port 8000") from None
        raise PortUnavailable(error.errno, f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def free_port_after(port: int, host: str = "127.0.0.1", tries: int = 20) -> int:
    """The first port after `port` nobody listens on (0, "any free port", if none is found)."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            try:
                probe.bind((host, candidate))
            except OSError:
                continue
            return candidate
    return 0


def serve(directory, port: int, host: str = "127.0.0.1", server=None) -> None:
    """Serve until Ctrl-C, on `server` (from `listen`) or a new one."""
    if server is None:
        server = listen(directory, port, host)
    with server:
        print(f"serving {directory} at {server.url}/ (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("\nstopped")
