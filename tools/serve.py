"""`python build.py serve`: dist/site on a port, cross-origin isolated (COOP/COEP).

`serve()` serves until Ctrl-C; `listen()` takes the port first, so a busy one is reported
before anything is built. The server itself (headers, MIME types, `start_server()` in a
thread for tests and benches) is onetool_wasm/pytest_plugin/server.py, shipped in the wheel
for the pytest plugin.
"""

import errno
import socket
import sys
from pathlib import Path

# build.py runs from a checkout with the standard library only: the package is its folder.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from onetool_wasm.pytest_plugin.server import MIME_TYPES, make_server, start_server  # noqa: E402

__all__ = ["MIME_TYPES", "PortUnavailable", "listen", "make_server", "serve", "start_server"]


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
