"""build.py: a deterministic wheel, our own Pyodide lock, pinned downloads, the static server, the test runner."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
import zipfile
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


# --- the assembled site and its lock file -----------------------------------------------------------


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    return build.build(tmp_path_factory.mktemp("site") / "dist")


def test_dist_has_only_what_the_runtime_needs(dist):
    """dist/pyodide holds the runtime, micropip and our lock: no type declarations, maps or node-only files."""
    assert sorted(p.name for p in (dist / "pyodide").iterdir()) == sorted(
        [*build.PYODIDE_FILES, build.MICROPIP_WHEEL, "pyodide-lock.json"])
    for page in ("index.html", "static/worker.js", "static/arbiter-client.js", "wheels/arbiter-0.1.0-py3-none-any.whl"):
        assert (dist / page).is_file(), page


def test_lock_file_hashes_match_the_files(dist):
    """Each package in our lock names a file (relative to the lock) whose sha256 is the one recorded."""
    lock_path = dist / "pyodide" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    assert set(lock["packages"]) == {"micropip", "arbiter"}
    for name, entry in lock["packages"].items():
        assert entry["name"] == name and entry["imports"] == [name] and entry["depends"] == []
        assert entry["install_dir"] == "site" and entry["package_type"] == "package"
        assert "://" not in entry["file_name"] and not entry["file_name"].startswith("/")
        assert sha256(lock_path.parent / entry["file_name"]) == entry["sha256"], name
    assert lock["packages"]["micropip"]["sha256"] == build.MICROPIP_SHA256
    assert lock["packages"]["arbiter"]["version"] == "0.1.0"


def test_lock_info_is_pyodides(dist):
    """Our lock's `info` (Python version, ABI, platform) is the one the pinned Pyodide ships."""
    with tarfile.open(build.fetch_pyodide()) as tar:
        npm_lock = json.load(tar.extractfile("package/pyodide-lock.json"))
    ours = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    assert ours["info"] == npm_lock["info"]
    assert ours["info"]["python"].startswith("3.")


def test_runtime_files_are_the_pinned_packages(dist):
    """The runtime files in dist are byte for byte those of the pinned tarball."""
    with tarfile.open(build.fetch_pyodide()) as tar:
        for name in build.PYODIDE_FILES:
            assert tar.extractfile(f"package/{name}").read() == (dist / "pyodide" / name).read_bytes(), name


# --- pinned downloads ------------------------------------------------------------------------------


def go_offline(monkeypatch):
    """Fail the test if build.py tries to download anything from here on."""

    def no_download(cmd, *args, **kwargs):
        pytest.fail(f"build.py tried to run {cmd}")

    monkeypatch.setattr(build, "_run", no_download)


@pytest.mark.parametrize("name", [f"pyodide-{build.PYODIDE_VERSION}.tgz", build.MICROPIP_WHEEL])
def test_a_tampered_cached_download_is_refused(tmp_path, monkeypatch, name):
    """A cached download is used as it is when it matches its pin, and refused (not re-fetched) when one byte changed."""
    fetch = build.fetch_pyodide if name.endswith(".tgz") else build.fetch_micropip
    cache = tmp_path / "cache"
    cache.mkdir()
    for cached in (build.fetch_pyodide(), build.fetch_micropip()):  # the real cache (downloads at most once)
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
