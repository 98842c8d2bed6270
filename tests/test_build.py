"""build.py: the assembled site (the runtime and nothing more, every URL relative), a build that refuses a tampered
download, a rebuild from the cache alone, and the GitHub Pages workflow that runs it."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path

import pytest

import build
from tools import BuildError, fetch, snapshot
from tools_helpers import go_offline

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory, build_site) -> Path:
    """The site built for these tests alone, just before them (a rebuild is compared with it)."""
    return build_site(tmp_path_factory.mktemp("site") / "dist")


def test_dist_has_only_what_the_runtime_needs(dist):
    """dist/pyodide holds the runtime and the memory snapshot: no stdlib zip, packages, lock, types or maps."""
    assert sorted(p.name for p in (dist / "pyodide").iterdir()) == sorted([*fetch.PYODIDE_FILES, "snapshot.bin"])
    for page in (
        "index.html",
        "static/engine/worker.js",
        "static/engine/client.js",
        "static/offline/offline.js",
        "static/engine/snapshot.js",
        "sw.js",
        "manifest.webmanifest",
    ):
        assert (dist / page).is_file(), page
    assert not (dist / "wheels").exists() and not list(dist.rglob("*.whl"))


def test_runtime_files_are_the_pinned_packages(dist):
    """The runtime's JavaScript is byte for byte the pinned tarball's; its wasm is the tarball's, big data and the
    unreachable tables emptied."""
    with tarfile.open(fetch.fetch_pyodide()) as tar:
        for name in ("pyodide.mjs", "pyodide.asm.mjs"):
            assert tar.extractfile(f"package/{name}").read() == (dist / "pyodide" / name).read_bytes(), name
        stock = tar.extractfile("package/pyodide.asm.wasm").read()
    served = snapshot.strip_data_segments(stock, unreachable=snapshot.unreachable_ranges(stock))[0]
    assert served == (dist / "pyodide" / "pyodide.asm.wasm").read_bytes()


def test_the_built_worker_knows_each_downloads_size(dist):
    """The worker's loading bar counts the wasm's and the snapshot's bytes against their sizes as built (Content-Length
    gives the gzipped size, or none)."""
    worker = (dist / "static" / "engine" / "worker.js").read_text(encoding="utf-8")
    written = re.findall(r"const SIZES = /\* BUILD \*/ (.*?) /\* BUILD \*/;", worker)
    assert len(written) == 1, "static/engine/worker.js's SIZES, filled in once"
    sizes = {name: (dist / "pyodide" / name).stat().st_size for name in snapshot.DOWNLOADS}
    assert json.loads(written[0]) == sizes and set(sizes) == {"pyodide.asm.wasm", "snapshot.bin"}


def test_a_tampered_download_stops_the_build(tmp_path, monkeypatch):
    """A cached download changed by one byte is refused (not re-fetched) by the build, which leaves no dist behind."""
    cache = tmp_path / "cache"
    cache.mkdir()
    data = bytearray(fetch.fetch_pyodide().read_bytes())  # the real cache (downloads at most once)
    data[len(data) // 2] ^= 0x01
    (cache / f"pyodide-{fetch.PYODIDE_VERSION}.tgz").write_bytes(bytes(data))
    go_offline(monkeypatch)
    with pytest.raises(BuildError, match="does not match its pinned sha"):
        build.build(tmp_path / "dist", cache)
    assert not (tmp_path / "dist").exists()


def test_a_rebuild_reuses_the_cached_snapshot(tmp_path, monkeypatch, dist, build_site):
    """With the cache filled, building again runs no Node and downloads nothing, and gives the same snapshot."""
    monkeypatch.setattr(snapshot, "node", lambda *a, **k: pytest.fail("build.py ran node again"))
    go_offline(monkeypatch)
    again = build_site(tmp_path / "dist")
    assert (again / "pyodide" / "snapshot.bin").read_bytes() == (dist / "pyodide" / "snapshot.bin").read_bytes()
    assert (again / "sw.js").read_text() == (dist / "sw.js").read_text()


def test_every_url_in_the_page_is_relative(dist):
    """No URL in the page, the manifest or the scripts starts at the server's root: the site works at /REPO/."""
    page = (dist / "index.html").read_text(encoding="utf-8")
    urls = re.findall(r'(?:href|src)="([^"#][^"]*)"', page)
    assert urls and not [u for u in urls if u.startswith(("/", "http:", "https:"))]
    for script in [*(dist / "static").rglob("*.js"), dist / "sw.js"]:
        text = script.read_text(encoding="utf-8")
        assert not re.findall(r"""(?:new URL|fetch|import)\(\s*["']/""", text), script.name
        assert not re.findall(r"""from\s+["']/""", text), script.name


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
