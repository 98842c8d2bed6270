"""py/tools/fetch.py: the pinned download checked against its pin, used from the cache without the network, refused
when tampered with; the unpacked package; the cache of made files."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile

import pytest

from tools import BuildError, fetch
from tools_helpers import go_offline


def test_a_tampered_cached_download_is_refused(tmp_path, monkeypatch):
    """A cached download is used as it is when it matches its pin, and refused (not re-fetched) when one byte changed."""
    name = f"pyodide-{fetch.PYODIDE_VERSION}.tgz"
    cache = tmp_path / "cache"
    cache.mkdir()
    cached = fetch.fetch_pyodide()  # the real cache (downloads at most once)
    (cache / cached.name).write_bytes(cached.read_bytes())
    go_offline(monkeypatch)
    copy = cache / name
    assert fetch.fetch_pyodide(cache) == copy

    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0x01
    copy.write_bytes(bytes(data))
    with pytest.raises(BuildError, match="does not match its pinned sha"):
        fetch.fetch_pyodide(cache)


def test_integrity_pins_take_npm_and_hex_forms(tmp_path):
    """A pin is checked in npm's base64 form and in hex; any other digest is refused."""
    f = tmp_path / "f"
    f.write_bytes(b"arbiter")
    digest = hashlib.sha512(b"arbiter").digest()
    fetch.verify_integrity(f, "sha512-" + base64.b64encode(digest).decode())
    fetch.verify_integrity(f, "sha256-" + hashlib.sha256(b"arbiter").hexdigest())
    with pytest.raises(BuildError):
        fetch.verify_integrity(f, "sha256-" + hashlib.sha256(b"arbiter!").hexdigest())


def test_unpacking_refuses_a_package_without_the_runtime(tmp_path):
    """A tarball that lacks a file of the runtime is refused by name, and leaves no unpacked folder behind."""
    tarball = tmp_path / "pyodide.tgz"
    with tarfile.open(tarball, "w:gz") as tar:
        info = tarfile.TarInfo("package/pyodide.mjs")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"x;\n"))
    cache = tmp_path / "cache"
    with pytest.raises(BuildError, match="lacks pyodide.asm.mjs, pyodide.asm.wasm"):
        fetch.unpack_pyodide(tarball, cache)
    assert not (cache / f"pyodide-{fetch.PYODIDE_VERSION}").exists()


def test_cached_makes_each_version_once_and_keeps_the_newest(tmp_path):
    """cached() makes a file once per inputs, under their hash; older versions beyond `keep` are deleted."""
    made = []

    def make(inputs):
        return fetch.cached(
            tmp_path, "thing", ".txt", inputs, lambda out: (made.append(inputs), out.write_text(repr(inputs))), keep=2
        )

    first = make(["a"])
    assert make(["a"]) == first and made == [["a"]] and first.read_text() == "['a']"
    second = make(["b"])
    assert second != first and first.exists()
    os.utime(first, (1, 1))  # the older of the two, whatever the clock's resolution
    third = make(["a", b"c"])
    assert third.exists() and second.exists() and not first.exists()
    assert made == [["a"], ["b"], ["a", b"c"]]
    assert not list(tmp_path.glob(".*.partial"))
