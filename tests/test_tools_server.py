"""py/tools/server.py: the static server serves a folder (or several under prefixes) as GitHub Pages does: the
right types, gzip, ETag and 304, nothing outside its root, and counts every byte it sends."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tools.server import Server

SITE = {
    "index.html": b"<!doctype html><title>t</title>",
    "static/app.js": b"export const x = 1;\n" * 50,
    "pyodide/pyodide.mjs": b"export {};\n",
    "pyodide/pyodide.asm.wasm": b"\0asm\1\0\0\0" + bytes(2000),
    "pyodide/python_stdlib.zip": b"PK\5\6" + bytes(18),
    "pyodide/pyodide-lock.json": b'{"packages": {}}',
    "wheels/arbiter-0.1.0-py3-none-any.whl": b"PK\5\6" + bytes(18),
    "manifest.webmanifest": b'{"name": "Arbiter"}',
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("served") / "root"
    (root.parent / "secret.txt").write_text("outside the served folder")
    for name, data in SITE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    srv = Server(root, port=0).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def get(url: str, gzip_ok: bool = False):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers, response.read()


def test_server_picks_a_free_port_on_loopback(server):
    """Port 0 gives a real port on 127.0.0.1, and the URL says which."""
    assert server.port > 0
    assert server.url == f"http://127.0.0.1:{server.port}/"


@pytest.mark.parametrize(
    "path, mime",
    [
        ("pyodide/pyodide.asm.wasm", "application/wasm"),
        ("pyodide/pyodide.mjs", "text/javascript"),
        ("static/app.js", "text/javascript"),
        ("pyodide/pyodide-lock.json", "application/json"),
        ("manifest.webmanifest", "application/manifest+json"),
        ("pyodide/python_stdlib.zip", "application/zip"),
        ("index.html", "text/html"),
        ("", "text/html"),
    ],
)
def test_server_mime_types(server, path, mime):
    """Files are served with the types browsers insist on (a .wasm must be application/wasm)."""
    headers, body = get(server.url + path)
    assert headers.get_content_type() == mime
    assert body == SITE[path or "index.html"]


@pytest.mark.parametrize(
    "path, compressed",
    [("pyodide/pyodide.asm.wasm", True), ("static/app.js", True), ("pyodide/python_stdlib.zip", False)],
)
def test_server_gzips_for_clients_that_accept_it(server, path, compressed):
    """Text and wasm come gzipped when the client accepts gzip (as on GitHub Pages); zips come as they are."""
    headers, body = get(server.url + path, gzip_ok=True)
    assert (headers.get("Content-Encoding") == "gzip") is compressed
    assert (gzip.decompress(body) if compressed else body) == SITE[path]
    assert int(headers["Content-Length"]) == len(body)
    plain_headers, plain = get(server.url + path)
    assert plain_headers.get("Content-Encoding") is None and plain == SITE[path]


def test_server_serves_nothing_outside_its_root(server):
    """Missing files are 404 and paths cannot climb out of the served folder."""
    for path in ("missing.js", "../secret.txt", "%2e%2e/secret.txt", "static/..%2f..%2fsecret.txt"):
        with pytest.raises(urllib.error.HTTPError) as caught:
            get(server.url + path)
        assert caught.value.code == 404


def test_server_mounts_folders_under_prefixes(server):
    """A folder served under /arbiter/ answers there only; /arbiter redirects to /arbiter/, as GitHub Pages does."""
    root = Path(server.mounts[0][1])
    mounted = Server({"/arbiter/": root}).start()
    try:
        headers, body = get(mounted.url + "arbiter/static/app.js")
        assert body == SITE["static/app.js"]
        assert get(mounted.url + "arbiter/")[1] == SITE["index.html"]
        for path in ("", "static/app.js", "arbiterx/index.html"):
            with pytest.raises(urllib.error.HTTPError) as caught:
                get(mounted.url + path)
            assert caught.value.code == 404
        request = urllib.request.Request(mounted.url + "arbiter")
        opener = urllib.request.build_opener(
            type("NoRedirect", (urllib.request.HTTPRedirectHandler,), {"redirect_request": lambda *a, **k: None})
        )
        with pytest.raises(urllib.error.HTTPError) as caught:
            opener.open(request, timeout=10)
        assert caught.value.code == 301 and caught.value.headers["Location"] == "/arbiter/"
    finally:
        mounted.shutdown()
        mounted.server_close()


@pytest.mark.parametrize("gzip_ok", [True, False])
def test_server_answers_304_to_a_current_etag(server, gzip_ok):
    """A client that sends back the ETag it got is told 304 Not Modified, with no body (gzipped or not)."""
    headers, _ = get(server.url + "static/app.js", gzip_ok=gzip_ok)
    etag = headers["ETag"]
    assert etag and headers["Cache-Control"] == "no-cache"
    request = urllib.request.Request(
        server.url + "static/app.js",
        headers={"If-None-Match": etag, **({"Accept-Encoding": "gzip"} if gzip_ok else {})},
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 304 and caught.value.read() == b""
    other = get(server.url + "static/app.js", gzip_ok=not gzip_ok)[0]["ETag"]
    assert other != etag  # the gzipped and the plain body are two representations


def test_server_counts_the_bytes_it_sends(server):
    """bytes_sent grows by exactly what went over the socket: headers and body."""
    before = server.bytes_sent
    headers, body = get(server.url + "pyodide/python_stdlib.zip")
    sent = server.bytes_sent - before
    assert len(body) < sent < len(body) + 1000
    assert server.requests[-1] == ("GET", "/pyodide/python_stdlib.zip", 200)
