"""The one static server, for `build.py serve`, the browser tests and the bench: files served as GitHub Pages
serves them (gzip, ETag, 304), one folder or several under URL prefixes, every byte sent counted."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
# Served gzipped to clients that accept it, as GitHub Pages does; zips and images are compressed already.
GZIP_TYPES = ("text/", "application/json", "application/manifest+json", "application/wasm", "image/svg+xml")


def _accepts_gzip(header: str) -> bool:
    for part in header.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


class _Counting:
    """A response stream that adds what it writes to its server's `bytes_sent` (the bytes over the wire)."""

    def __init__(self, stream, server):
        self._stream, self._server = stream, server

    def write(self, data):
        with self._server.count_lock:
            self._server.bytes_sent += len(data)
        return self._stream.write(data)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page load is some twenty requests
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    _encoded: dict = {}  # (path, mtime_ns, size, gzip?) -> (etag, body), shared by all requests
    _encoded_lock = threading.Lock()

    def setup(self):
        super().setup()
        self.wfile = _Counting(self.wfile, self.server)

    def log_request(self, code="-", size="-"):
        self.server.requests.append((self.command, getattr(self, "requested_path", self.path), code))
        if isinstance(code, int) and code >= 400 and not self.server.quiet:
            super().log_request(code, size)

    def log_message(self, format, *args):
        if not self.server.quiet:
            super().log_message(format, *args)

    def end_headers(self):
        self.send_header("Cache-Control", self.server.cache_control)
        super().end_headers()

    def _mount(self) -> bool:
        """Point `directory` and `path` at the mount serving this URL; False (after a 404 or redirect) if none does."""
        self.requested_path = self.path
        url_path, sep, query = self.path.partition("?")
        for prefix, directory in self.server.mounts:
            if url_path.startswith(prefix):
                self.directory = directory
                self.path = "/" + url_path[len(prefix) :] + sep + query
                return True
            if url_path + "/" == prefix:  # /arbiter -> /arbiter/, as GitHub Pages does
                self.send_response(301)
                self.send_header("Location", prefix + sep + query)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return False
        self.send_error(404, "File not found")
        return False

    def do_GET(self):
        if self._mount():
            super().do_GET()

    def do_HEAD(self):
        if self._mount():
            super().do_HEAD()

    def send_head(self):
        """Files as GitHub Pages serves them: gzipped when the client accepts it (text and wasm), with an ETag and
        Last-Modified, and 304 Not Modified for a client whose copy is current."""
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.partition("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()  # directories (redirect or listing) and 404s
        ctype = self.guess_type(path)
        gzipped = ctype.startswith(GZIP_TYPES) and _accepts_gzip(self.headers.get("Accept-Encoding", ""))
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size, gzipped)
        with self._encoded_lock:
            cached = self._encoded.get(key)
        if cached is None:
            with open(path, "rb") as f:
                data = f.read()
            body = gzip.compress(data, compresslevel=6, mtime=0) if gzipped else data
            cached = (f'"{hashlib.sha256(data).hexdigest()[:20]}{"-gz" if gzipped else ""}"', body)
            with self._encoded_lock:
                self._encoded[key] = cached
        etag, body = cached
        if etag in [t.strip() for t in self.headers.get("If-None-Match", "").split(",")]:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)


class Server(ThreadingHTTPServer):
    """A static server on 127.0.0.1 for `root`, or for several folders under URL prefixes ({"/arbiter/": dist});
    port 0 picks a free port (see `.port` and `.url`). `bytes_sent` counts every byte of every response, headers
    included; `requests` lists (method, path, status). `cache_control` is sent with every response: "no-cache"
    (revalidate each time; the default, right while developing) or GitHub Pages' own "max-age=600"."""

    daemon_threads = True

    def __init__(
        self,
        root: Path | dict,
        port: int = 0,
        host: str = "127.0.0.1",
        quiet: bool = True,
        cache_control: str = "no-cache",
    ):
        self.quiet, self.cache_control = quiet, cache_control
        mounts = root if isinstance(root, dict) else {"/": root}
        if not all(prefix.startswith("/") and prefix.endswith("/") for prefix in mounts):
            raise ValueError("mount prefixes start and end with /")
        self.mounts = sorted(((prefix, str(folder)) for prefix, folder in mounts.items()), key=lambda m: -len(m[0]))
        self.bytes_sent, self.count_lock, self.requests = 0, threading.Lock(), []
        super().__init__((host, port), _Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{self.server_address[0]}:{self.port}/"

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):  # a closed tab is no error
            super().handle_error(request, client_address)

    def start(self) -> "Server":
        """Serve in a daemon thread; stop with `shutdown()` then `server_close()`."""
        threading.Thread(target=self.serve_forever, name="arbiter-server", daemon=True).start()
        return self
