"""build.py: a deterministic wheel, pinned downloads, the memory snapshot, the offline app's manifest, icons and service
worker, the static server, the test runner."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
import zipfile
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

PACKAGE = ROOT / "py" / "arbiter"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- the wheel ---------------------------------------------------------------------------------------


def test_wheel_is_deterministic(tmp_path):
    """Building the wheel twice gives the same bytes."""
    first = build.build_wheel(tmp_path / "a")
    second = build.build_wheel(tmp_path / "b")
    assert first.name == "arbiter-0.1.0-py3-none-any.whl"
    assert first.read_bytes() == second.read_bytes()


def test_wheel_holds_the_package_and_a_true_record(tmp_path):
    """The wheel has every source file of py/arbiter, no bytecode, fixed dates, and a RECORD whose hashes hold."""
    wheel = build.build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        sources = {f"arbiter/{p.relative_to(PACKAGE).as_posix()}" for p in PACKAGE.rglob("*.py")
                   if "__pycache__" not in p.parts}
        assert sources and sources <= set(names)
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        assert {i.date_time for i in zf.infolist()} == {build.WHEEL_DATE}
        record = zf.read("arbiter-0.1.0.dist-info/RECORD").decode().splitlines()
        assert {line.split(",")[0] for line in record} == set(names)
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            if path.endswith("RECORD"):
                assert digest == size == ""
                continue
            data = zf.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={want}", len(data)), path
        metadata = zf.read("arbiter-0.1.0.dist-info/METADATA").decode()
        assert "Name: arbiter\n" in metadata and "Version: 0.1.0\n" in metadata
        assert "Tag: py3-none-any" in zf.read("arbiter-0.1.0.dist-info/WHEEL").decode()


def test_wheel_installs_and_imports(tmp_path):
    """pip installs the wheel offline, and the installed package imports its API and knows its version."""
    wheel = build.build_wheel(tmp_path / "wheels")
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                    "--disable-pip-version-check", "--target", str(target), str(wheel)], check=True)
    assert (target / "bin" / "arbiter").exists(), "the console script from [project.scripts]"
    probe = ("import arbiter, arbiter.api, importlib.metadata as m; "
             "print(arbiter.__file__); print(m.version('arbiter')); print(len(arbiter.api.systems()))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(target)},
                         capture_output=True, text=True, check=True).stdout.split()
    assert Path(out[0]).is_relative_to(target)
    assert out[1] == "0.1.0" and int(out[2]) >= 1


# --- the assembled site ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    return build.build(tmp_path_factory.mktemp("site") / "dist")


def test_dist_has_only_what_the_runtime_needs(dist):
    """dist/pyodide holds the runtime and the memory snapshot: no stdlib zip, packages, lock, types or maps."""
    assert sorted(p.name for p in (dist / "pyodide").iterdir()) == sorted([*build.PYODIDE_FILES, "snapshot.bin"])
    for page in ("index.html", "static/worker.js", "static/arbiter-client.js", "static/offline.js",
                 "static/snapshot.js", "sw.js", "manifest.webmanifest"):
        assert (dist / page).is_file(), page
    assert not (dist / "wheels").exists() and not list(dist.rglob("*.whl"))


def test_runtime_files_are_the_pinned_packages(dist):
    """The runtime's JavaScript is byte for byte the pinned tarball's; its wasm is the tarball's, big data emptied."""
    with tarfile.open(build.fetch_pyodide()) as tar:
        for name in ("pyodide.mjs", "pyodide.asm.mjs"):
            assert tar.extractfile(f"package/{name}").read() == (dist / "pyodide" / name).read_bytes(), name
        stock = tar.extractfile("package/pyodide.asm.wasm").read()
    assert build.strip_data_segments(stock)[0] == (dist / "pyodide" / "pyodide.asm.wasm").read_bytes()


# --- pinned downloads ------------------------------------------------------------------------------


def go_offline(monkeypatch):
    """Fail the test if build.py tries to download anything from here on."""

    def no_download(cmd, *args, **kwargs):
        pytest.fail(f"build.py tried to run {cmd}")

    monkeypatch.setattr(build, "_run", no_download)


def test_a_tampered_cached_download_is_refused(tmp_path, monkeypatch):
    """A cached download is used as it is when it matches its pin, and refused (not re-fetched) when one byte changed."""
    name, fetch = f"pyodide-{build.PYODIDE_VERSION}.tgz", build.fetch_pyodide
    cache = tmp_path / "cache"
    cache.mkdir()
    cached = build.fetch_pyodide()  # the real cache (downloads at most once)
    (cache / cached.name).write_bytes(cached.read_bytes())
    go_offline(monkeypatch)
    copy = cache / name
    assert fetch(cache) == copy

    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0x01
    copy.write_bytes(bytes(data))
    with pytest.raises(build.BuildError, match="does not match its pinned sha"):
        fetch(cache)
    with pytest.raises(build.BuildError, match="does not match its pinned sha"):
        build.build(tmp_path / "dist", cache)
    assert not (tmp_path / "dist").exists()


def test_integrity_pins_take_npm_and_hex_forms(tmp_path):
    """A pin is checked in npm's base64 form and in hex; any other digest is refused."""
    f = tmp_path / "f"
    f.write_bytes(b"arbiter")
    digest = hashlib.sha512(b"arbiter").digest()
    build.verify_integrity(f, "sha512-" + base64.b64encode(digest).decode())
    build.verify_integrity(f, "sha256-" + hashlib.sha256(b"arbiter").hexdigest())
    with pytest.raises(build.BuildError):
        build.verify_integrity(f, "sha256-" + hashlib.sha256(b"arbiter!").hexdigest())


# --- the static server -----------------------------------------------------------------------------

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
    srv = build.Server(root, port=0).start()
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


@pytest.mark.parametrize("path, mime", [
    ("pyodide/pyodide.asm.wasm", "application/wasm"),
    ("pyodide/pyodide.mjs", "text/javascript"),
    ("static/app.js", "text/javascript"),
    ("pyodide/pyodide-lock.json", "application/json"),
    ("manifest.webmanifest", "application/manifest+json"),
    ("pyodide/python_stdlib.zip", "application/zip"),
    ("index.html", "text/html"),
    ("", "text/html"),
])
def test_server_mime_types(server, path, mime):
    """Files are served with the types browsers insist on (a .wasm must be application/wasm)."""
    headers, body = get(server.url + path)
    assert headers.get_content_type() == mime
    assert body == SITE[path or "index.html"]


@pytest.mark.parametrize("path, compressed", [
    ("pyodide/pyodide.asm.wasm", True), ("static/app.js", True), ("pyodide/python_stdlib.zip", False)])
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


# --- the test runner ---------------------------------------------------------------------------------


@pytest.mark.parametrize("test_source, code", [
    (None, 1),
    ("def test_ok():\n    pass\n", 0),
    ("def test_bad():\n    assert False\n", 1),
])
def test_run_pytest_counts_no_tests_as_failure(tmp_path, test_source, code):
    """`build.py test` passes pytest's exit code on, except that 'no tests ran' (exit 5) is a failure."""
    if test_source is not None:
        (tmp_path / "test_one.py").write_text(test_source)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    args = ["-q", "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), str(tmp_path)]
    assert build.run_pytest(sys.executable, args, cwd=tmp_path) == code


# --- the memory snapshot and Pyodide's private snapshot API -----------------------------------------------------

RUNTIME_JS = ("pyodide.mjs", "pyodide.asm.mjs")
# static/snapshot.js calls these exports of pyodide.asm.wasm to decode the snapshot before Pyodide restores it.
ZSTD_EXPORTS = ("ZSTD_estimateDStreamSize_fromFrame", "ZSTD_initStaticDStream", "ZSTD_decompressStream",
                "ZSTD_isError", "__heap_base", "__stack_low", "memory")


def wasm_exports(wasm: bytes) -> set[str]:
    names, i = set(), 8
    while i < len(wasm):
        section, (size, body) = wasm[i], build._uleb(wasm, i + 1)
        if section == 7:
            count, j = build._uleb(wasm, body)
            for _ in range(count):
                length, j = build._uleb(wasm, j)
                names.add(wasm[j:j + length].decode())
                _, j = build._uleb(wasm, j + length + 1)
        i = body + size
    return names


def read_snapshot(path: Path) -> dict:
    """static/snapshot.js's parseSnapshot, in Python: the header fields, Pyodide's header and the meta JSON."""
    data = path.read_bytes()
    assert data[:8] == b"ARBSNAP1"
    header_length, memory_length, reference_end, reference_hash, zstd_length, meta_length = struct.unpack(
        "<6I", data[8:32])
    pyodide_header = data[32:32 + header_length]
    meta = json.loads(data[32 + header_length:32 + header_length + meta_length])
    assert 32 + header_length + meta_length + zstd_length == len(data)
    zstd = data[32 + header_length + meta_length:]
    return dict(memory_length=memory_length, reference_end=reference_end, reference_hash=reference_hash,
                pyodide_header=pyodide_header, meta=meta, zstd=zstd)


def test_pyodides_private_snapshot_api_is_what_the_worker_uses():
    """The pinned Pyodide still has the private snapshot API the page relies on (update the worker if this fails)."""
    runtime = build.unpack_pyodide(build.fetch_pyodide())
    loader = (runtime / "pyodide.mjs").read_text()
    core = (runtime / "pyodide.asm.mjs").read_text()
    for option in ("_loadSnapshot", "lockFileContents", "stdLibURL"):
        assert option in loader, option
    assert "API.config._makeSnapshot" in core
    assert "t.noInitialRun=!0,t.INITIAL_MEMORY=i.length" in loader  # a snapshot's length sets the memory size
    assert "makeMemorySnapshot" in core and "API.restoreSnapshot=function" in core
    assert "$r=1886286592,Ze=48" in core  # its header: this magic, then 48 bytes before the JSON of JS references
    assert "Module.HEAP8.set(t)" in core  # the restore copies the memory that follows the header
    assert "WebAssembly.instantiateStreaming(n,s):l=await WebAssembly.instantiate(await t,s)" in loader
    assert set(ZSTD_EXPORTS) <= wasm_exports((runtime / "pyodide.asm.wasm").read_bytes())


def test_snapshot_is_for_the_pinned_runtime(dist):
    """snapshot.bin holds Pyodide's snapshot of this very build (its id), the runtime's lock info and the emptied data."""
    snap = read_snapshot(dist / "pyodide" / "snapshot.bin")
    magic, header_length = struct.unpack("<2I", snap["pyodide_header"][:8])
    assert magic == 1886286592 and header_length == len(snap["pyodide_header"])
    build_id = "".join(f"{w:08x}" for w in struct.unpack("<8I", snap["pyodide_header"][16:48]))
    assert f'BUILD_ID:"{build_id}"' in (build.unpack_pyodide(build.fetch_pyodide()) / "pyodide.mjs").read_text()
    with tarfile.open(build.fetch_pyodide()) as tar:
        npm_lock = json.load(tar.extractfile("package/pyodide-lock.json"))
    assert snap["meta"]["lock"] == {"info": npm_lock["info"], "packages": {}}
    stock = (build.unpack_pyodide(build.fetch_pyodide()) / "pyodide.asm.wasm").read_bytes()
    assert [tuple(r) for r in snap["meta"]["emptied"]] == build.strip_data_segments(stock)[1]
    assert snap["memory_length"] % 65536 == 0 and 0 < snap["reference_end"] < snap["memory_length"]
    assert snap["zstd"][:4] == b"\x28\xb5\x2f\xfd"  # one zstd frame


def tiny_wasm(segments: list[tuple[int, bytes]]) -> bytes:
    """A module with a memory and active data segments at the given offsets."""
    def vec(items):
        return build._uleb_bytes(len(items)) + b"".join(items)

    def section(kind, body):
        return bytes([kind]) + build._uleb_bytes(len(body)) + body

    data = vec([b"\0\x41" + build._uleb_bytes(offset) + b"\x0b" + build._uleb_bytes(len(d)) + d
                for offset, d in segments])  # (offsets below 64 keep the sleb and uleb encodings alike)
    return b"\0asm\1\0\0\0" + section(5, b"\x01\x00\x01") + section(11, data)


def test_strip_data_segments_empties_only_the_big_ones():
    """Big data segments are emptied in place (same count and offsets) and reported; small ones stay."""
    small, big = b"s" * 10, b"B" * 5000
    stripped, emptied = build.strip_data_segments(tiny_wasm([(8, small), (32, big)]), min_size=4096)
    assert emptied == [(32, 5000)]
    assert stripped == tiny_wasm([(8, small), (32, b"")])
    assert build.strip_data_segments(tiny_wasm([(8, small)]), 4096) == (tiny_wasm([(8, small)]), [])
    with pytest.raises(build.BuildError):
        build.strip_data_segments(b"not wasm")


def test_a_rebuild_reuses_the_cached_snapshot(tmp_path, monkeypatch, dist):
    """With the cache filled, building again runs no Node and downloads nothing, and gives the same snapshot."""
    monkeypatch.setattr(build, "_node", lambda *a, **k: pytest.fail("build.py ran node again"))
    go_offline(monkeypatch)
    again = build.build(tmp_path / "dist")
    assert (again / "pyodide" / "snapshot.bin").read_bytes() == (dist / "pyodide" / "snapshot.bin").read_bytes()
    assert (again / "sw.js").read_text() == (dist / "sw.js").read_text()


# --- the installable offline app: manifest, icons, service worker ----------------------------------------------


def read_png(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGBA rows) of an 8-bit RGBA PNG with unfiltered rows, checking every chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, chunks = 8, {}
    while i < len(data):
        (length,), kind = struct.unpack(">I", data[i:i + 4]), data[i + 4:i + 8]
        body = data[i + 8:i + 8 + length]
        assert struct.unpack(">I", data[i + 8 + length:i + 12 + length])[0] == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        i += 12 + length
    width, height, depth, colour, *_ = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (8, 6) and b"IEND" in chunks
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[y * (width * 4 + 1):(y + 1) * (width * 4 + 1)] for y in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, b"".join(row[1:] for row in rows)


def pixel(png_data: bytes, x: float, y: float) -> tuple:
    width, height, rgba = read_png(png_data)
    i = (int(y * (height - 1)) * width + int(x * (width - 1))) * 4
    return tuple(rgba[i:i + 4])


def test_png_writer_makes_a_valid_png():
    """png() writes the pixels it is given, in a file any decoder reads (signature, chunks, CRCs, zlib)."""
    rgba = bytes(range(4 * 3 * 2))
    assert read_png(build.png(3, 2, rgba)) == (3, 2, rgba)


def test_manifest_makes_the_app_installable_anywhere(dist):
    """The manifest parses and has what Chromium needs to install it, with every URL relative."""
    manifest = json.loads((dist / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] and manifest["short_name"] == "Arbiter"
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("/", "http")) and icon["type"] == "image/png"
        width, height, _ = read_png((dist / icon["src"]).read_bytes())
        assert f"{width}x{height}" == icon["sizes"]


@pytest.mark.parametrize("size", [192, 512])
def test_icons_are_drawn_for_their_purpose(dist, size):
    """A maskable icon fills its square (corners opaque); the plain one is a tile with transparent corners; both
    show the die (light) in the middle, inside the maskable safe zone."""
    plain = (dist / f"icons/icon-{size}.png").read_bytes()
    maskable = (dist / f"icons/maskable-{size}.png").read_bytes()
    assert pixel(plain, 0, 0)[3] == 0 and pixel(maskable, 0, 0)[3] == 255
    for icon in (plain, maskable):
        assert min(pixel(icon, 0.5, 0.36)[:3]) > 200  # the die's face, between the pips
        assert pixel(icon, 0.5, 0.5)[:3] == (0x7A, 0x2E, 0x1D)  # the middle pip
    assert min(pixel(maskable, 0.5, 0.11)[:3]) < 200  # nothing of the die outside the safe circle (radius 40%)


def service_worker_build(dist: Path) -> dict:
    source = (dist / "sw.js").read_text(encoding="utf-8")
    return json.loads(source.split("/* BUILD */")[1])


def test_service_worker_lists_every_file_of_the_build(dist):
    """sw.js precaches every file of the site but itself, each with its true sha256, under the build's hash."""
    built = service_worker_build(dist)
    on_disk = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file() and not p.name.startswith(".")}
    assert set(built["files"]) == on_disk - {"sw.js"}
    for name, integrity in built["files"].items():
        assert integrity == "sha256-" + base64.b64encode(hashlib.sha256((dist / name).read_bytes()).digest()).decode()
    assert re.fullmatch(r"[0-9a-f]{16}", built["version"])


def test_build_version_changes_with_any_file(tmp_path, dist):
    """Changing one file of the site changes the build's version (the cache name), and nothing else changes it."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    assert build.write_service_worker(site) == service_worker_build(dist)["version"]
    (site / "static" / "main.js").write_text((site / "static" / "main.js").read_text() + "\n// changed\n")
    assert build.write_service_worker(site) != service_worker_build(dist)["version"]


def test_every_url_in_the_page_is_relative(dist):
    """No URL in the page, the manifest or the scripts starts at the server's root: the site works at /REPO/."""
    page = (dist / "index.html").read_text(encoding="utf-8")
    urls = re.findall(r'(?:href|src)="([^"#][^"]*)"', page)
    assert urls and not [u for u in urls if u.startswith(("/", "http:", "https:"))]
    for script in [*(dist / "static").glob("*.js"), dist / "sw.js"]:
        text = script.read_text(encoding="utf-8")
        assert not re.findall(r"""(?:new URL|fetch|import)\(\s*["']/""", text), script.name
        assert not re.findall(r"""from\s+["']/""", text), script.name


def test_the_pyodide_client_starts_from_the_top_of_the_page(dist):
    """The built page starts the Python worker from its first script, right after its Content-Security-Policy, which
    allows that inline script by its sha256 and nothing else inline; then the Pyodide client (which adopts the
    worker) as an async module, once, before any stylesheet or the page's own modules."""
    page = (dist / "index.html").read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    digest = base64.b64encode(hashlib.sha256(build.BOOT_SCRIPT.encode()).digest()).decode()
    script_src = next(d for d in csp.group(1).split(";") if d.strip().startswith("script-src")).split()
    assert script_src == ["script-src", "'self'", f"'sha256-{digest}'", "'wasm-unsafe-eval'"]
    assert page.count("<script>") == 1 and f"<script>{build.BOOT_SCRIPT}</script>" in page
    assert csp.end() < page.index("<script>") < page.index(build.CLIENT_FIRST) < page.index('rel="stylesheet"')
    assert page.count("static/arbiter-client.js") == 1
    assert page.index(build.CLIENT_FIRST) < page.index('src="static/main.js"')
    assert build.start_worker_first("<p>no head</p>") == "<p>no head</p>"


def test_pages_workflow_builds_with_build_py_and_deploys_dist():
    """The GitHub Pages workflow builds with `python3 build.py` and deploys dist/ with the official actions; only
    its deploy job may write to Pages."""
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert "run: python3 build.py\n" in workflow
    assert re.search(r"uses: actions/upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist\n", workflow)
    assert "uses: actions/deploy-pages@v" in workflow
    top, deploy = workflow.split("\n  deploy:\n")
    assert "pages: write" not in top and "id-token: write" not in top
    assert "pages: write" in deploy and "id-token: write" in deploy and "name: github-pages" in deploy


def test_server_mounts_folders_under_prefixes(server):
    """A folder served under /arbiter/ answers there only; /arbiter redirects to /arbiter/, as GitHub Pages does."""
    root = Path(server.mounts[0][1])
    mounted = build.Server({"/arbiter/": root}).start()
    try:
        headers, body = get(mounted.url + "arbiter/static/app.js")
        assert body == SITE["static/app.js"]
        assert get(mounted.url + "arbiter/")[1] == SITE["index.html"]
        for path in ("", "static/app.js", "arbiterx/index.html"):
            with pytest.raises(urllib.error.HTTPError) as caught:
                get(mounted.url + path)
            assert caught.value.code == 404
        request = urllib.request.Request(mounted.url + "arbiter")
        opener = urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,),
                                                  {"redirect_request": lambda *a, **k: None}))
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
    request = urllib.request.Request(server.url + "static/app.js", headers={
        "If-None-Match": etag, **({"Accept-Encoding": "gzip"} if gzip_ok else {})})
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
