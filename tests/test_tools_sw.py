"""py/tools/sw.py: sw.js lists every file of the build with its true hash, and the build's version changes with any
file and with nothing else."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from tools import BuildError, sw
from tools.sw import LAZY, write_service_worker


def service_worker_build(dist: Path) -> dict:
    source = (dist / "sw.js").read_text(encoding="utf-8")
    return json.loads(source.split("/* BUILD */")[1])


def test_service_worker_lists_every_file_of_the_build(dist):
    """sw.js lists every file of the site but itself, each with its true sha256, under the build's hash: those it
    precaches, and apart the lazy ones (the QR encoder and decoder, what loads them, the 512 px icons), fetched when
    first used."""
    built = service_worker_build(dist)
    on_disk = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file() and not p.name.startswith(".")}
    assert set(built["files"]) | set(built["lazy"]) == on_disk - {"sw.js"}
    assert not set(built["files"]) & set(built["lazy"])
    assert {"static/vendor/lean-qr.mjs", "static/vendor/jsQR.js", "static/share/scan-worker.js"} <= set(built["lazy"])
    assert {"static/share/qr.js", "static/share/camera.js"} <= set(built["files"])
    assert all(name.startswith(LAZY) for name in built["lazy"]) and "icons/icon-192.png" in built["files"]
    for name, integrity in {**built["files"], **built["lazy"]}.items():
        assert integrity == "sha256-" + base64.b64encode(hashlib.sha256((dist / name).read_bytes()).digest()).decode()
    assert re.fullmatch(r"[0-9a-f]{16}", built["version"])


def test_build_version_changes_with_any_file(tmp_path, dist):
    """Changing one file of the site changes the build's version (the cache name), and nothing else changes it."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    assert write_service_worker(site) == service_worker_build(dist)["version"]
    (site / "static" / "main.js").write_text((site / "static" / "main.js").read_text() + "\n// changed\n")
    assert write_service_worker(site) != service_worker_build(dist)["version"]


def test_what_is_saved_after_ready_is_lazy_files_of_the_build(tmp_path, dist, monkeypatch):
    """sw.js names the lazy files the page asks it to save once ready (the encoder; the decoder and its worker), each a
    lazy file of the build; naming one that is not stops the build, saying which."""
    built = service_worker_build(dist)
    assert built["afterReady"] == {
        "encoder": ["static/vendor/lean-qr.mjs"],
        "decoder": ["static/vendor/jsQR.js", "static/share/scan-worker.js"],
    }
    assert all(key in built["lazy"] for keys in built["afterReady"].values() for key in keys)
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    monkeypatch.setitem(sw.AFTER_READY, "decoder", ("static/share/camera.js",))
    with pytest.raises(BuildError, match="static/share/camera.js"):
        write_service_worker(site)
