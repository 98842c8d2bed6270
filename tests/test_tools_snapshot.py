"""py/tools/snapshot.py: LEB128, the wasm's big data segments emptied, Pyodide's private snapshot API as the worker
uses it, and a snapshot that belongs to the pinned runtime."""

from __future__ import annotations

import hashlib
import json
import struct
import tarfile
from pathlib import Path

import pytest

from tools import BuildError
from tools.fetch import fetch_pyodide, unpack_pyodide
from tools.snapshot import (
    data_segments,
    sleb,
    strip_data_segments,
    uleb,
    uleb_bytes,
    unreachable_ranges,
    write_download_sizes,
)

# static/engine/snapshot.js calls these exports of pyodide.asm.wasm to decode the snapshot before Pyodide restores it.
ZSTD_EXPORTS = (
    "ZSTD_estimateDStreamSize_fromFrame",
    "ZSTD_initStaticDStream",
    "ZSTD_decompressStream",
    "ZSTD_isError",
    "__heap_base",
    "__stack_low",
    "memory",
)


def wasm_exports(wasm: bytes) -> set[str]:
    names, i = set(), 8
    while i < len(wasm):
        section, (size, body) = wasm[i], uleb(wasm, i + 1)
        if section == 7:
            count, j = uleb(wasm, body)
            for _ in range(count):
                length, j = uleb(wasm, j)
                names.add(wasm[j : j + length].decode())
                _, j = uleb(wasm, j + length + 1)
        i = body + size
    return names


def read_snapshot(path: Path) -> dict:
    """static/engine/snapshot.js's parseSnapshot, in Python: the header fields, Pyodide's header and the meta JSON."""
    data = path.read_bytes()
    assert data[:8] == b"ARBSNAP1"
    header_length, memory_length, reference_end, reference_hash, zstd_length, meta_length = struct.unpack(
        "<6I", data[8:32]
    )
    pyodide_header = data[32 : 32 + header_length]
    meta = json.loads(data[32 + header_length : 32 + header_length + meta_length])
    assert 32 + header_length + meta_length + zstd_length == len(data)
    zstd = data[32 + header_length + meta_length :]
    return dict(
        memory_length=memory_length,
        reference_end=reference_end,
        reference_hash=reference_hash,
        pyodide_header=pyodide_header,
        meta=meta,
        zstd=zstd,
    )


def test_pyodides_private_snapshot_api_is_what_the_worker_uses():
    """The pinned Pyodide still has the private snapshot API the page relies on (update the worker if this fails)."""
    runtime = unpack_pyodide(fetch_pyodide())
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
    assert f'BUILD_ID:"{build_id}"' in (unpack_pyodide(fetch_pyodide()) / "pyodide.mjs").read_text()
    with tarfile.open(fetch_pyodide()) as tar:
        npm_lock = json.load(tar.extractfile("package/pyodide-lock.json"))
    assert snap["meta"]["lock"] == {"info": npm_lock["info"], "packages": {}}
    stock = (unpack_pyodide(fetch_pyodide()) / "pyodide.asm.wasm").read_bytes()
    assert [tuple(r) for r in snap["meta"]["emptied"]] == strip_data_segments(
        stock, unreachable=unreachable_ranges(stock)
    )[1]
    assert snap["memory_length"] % 65536 == 0 and 0 < snap["reference_end"] < snap["memory_length"]
    assert snap["zstd"][:4] == b"\x28\xb5\x2f\xfd"  # one zstd frame


def tiny_wasm(segments: list[tuple[int, bytes]]) -> bytes:
    """A module with a memory and active data segments at the given offsets."""

    def vec(items):
        return uleb_bytes(len(items)) + b"".join(items)

    def section(kind, body):
        return bytes([kind]) + uleb_bytes(len(body)) + body

    data = vec(
        [b"\0\x41" + uleb_bytes(offset) + b"\x0b" + uleb_bytes(len(d)) + d for offset, d in segments]
    )  # (offsets below 64 keep the sleb and uleb encodings alike)
    return b"\0asm\1\0\0\0" + section(5, b"\x01\x00\x01") + section(11, data)


def test_strip_data_segments_empties_only_the_big_ones():
    """Big data segments are emptied in place (same count and offsets) and reported; small ones stay."""
    small, big = b"s" * 10, b"B" * 5000
    stripped, emptied = strip_data_segments(tiny_wasm([(8, small), (32, big)]), min_size=4096)
    assert emptied == [(32, 5000)]
    assert stripped == tiny_wasm([(8, small), (32, b"")])
    assert strip_data_segments(tiny_wasm([(8, small)]), 4096) == (tiny_wasm([(8, small)]), [])
    with pytest.raises(BuildError):
        strip_data_segments(b"not wasm")


def test_strip_data_segments_empties_every_segment_wholly_in_unreachable_memory():
    """A small segment wholly inside an unreachable range is emptied too; one that only overlaps it is kept."""
    inside, across, outside = b"i" * 10, b"a" * 10, b"o" * 10
    wasm = tiny_wasm([(8, outside), (24, inside), (40, across)])
    stripped, emptied = strip_data_segments(wasm, min_size=4096, unreachable=[(20, 25)])
    assert emptied == [(24, 10)]
    assert stripped == tiny_wasm([(8, outside), (24, b""), (40, across)])
    assert data_segments(stripped) == [(8, outside), (24, b""), (40, across)]


def test_unreachable_ranges_are_checked_against_the_wasms_memory():
    """A range is zeroed only if the wasm puts there the very bytes it was found as (its sha256): another Pyodide
    (or the wrong range) stops the build."""
    wasm = tiny_wasm([(8, b"abcd"), (16, b"efgh")])
    digest = hashlib.sha256(b"cd\0\0\0\0efgh").hexdigest()  # memory 10..20, the gap between segments is zero
    assert unreachable_ranges(wasm, [(10, 10, digest)]) == [(10, 10)]
    with pytest.raises(BuildError, match="UNREACHABLE"):
        unreachable_ranges(wasm, [(10, 11, digest)])
    with pytest.raises(BuildError, match="UNREACHABLE"):
        unreachable_ranges(tiny_wasm([(8, b"abcd"), (16, b"efgX")]), [(10, 10, digest)])


def test_the_cjk_tables_are_where_unreachable_says_and_the_served_wasm_drops_them(dist):
    """The pinned Pyodide's memory holds the CJK codecs' tables at UNREACHABLE (its sha256 holds), and the wasm the
    page loads puts nothing there (the snapshot holds zeros there: pyodide_build.mjs's verify checks that importing
    those codecs is refused after a restore)."""
    stock = (unpack_pyodide(fetch_pyodide()) / "pyodide.asm.wasm").read_bytes()
    ranges = unreachable_ranges(stock)
    assert sum(n for _, n in ranges) > 500_000
    jisx0208 = "\u3000\u3001\u3002\uff0c\uff0e\u30fb".encode("utf-16-le")  # the first row of JIS X 0208
    memory = bytearray(max(offset + len(data) for offset, data in data_segments(stock)))
    for offset, data in data_segments(stock):
        memory[offset : offset + len(data)] = data
    assert jisx0208 in memory[ranges[0][0] : ranges[0][0] + ranges[0][1]]
    served = data_segments((dist / "pyodide" / "pyodide.asm.wasm").read_bytes())
    for start, length in ranges:
        assert not any(start < offset + len(data) and offset < start + length for offset, data in served if data)


@pytest.mark.parametrize("n", [0, 1, 63, 64, 127, 128, 300, 65535, 2**32 - 1, 2**40 + 5])
def test_uleb_reads_what_uleb_bytes_writes(n):
    """An unsigned LEB128 reads back as the number written, and ends where its bytes end."""
    data = b"\xff" + uleb_bytes(n) + b"\x00"
    assert uleb(data, 1) == (n, len(data) - 1)
    assert len(uleb_bytes(n)) == max(1, -(-n.bit_length() // 7))


@pytest.mark.parametrize(
    "data, value",
    [
        (b"\x00", 0),
        (b"\x3f", 63),
        (b"\x40", -64),
        (b"\x7f", -1),
        (b"\x80\x7f", -128),
        (b"\xc0\xbb\x78", -123456),
        (b"\xe5\x8e\x26", 624485),
    ],
)
def test_sleb_reads_signed_numbers(data, value):
    """A signed LEB128 takes its sign from the last byte's bit 6 (the wasm spec's examples and edges)."""
    assert sleb(data, 0) == (value, len(data))


def test_download_sizes_need_the_workers_build_marker(tmp_path):
    """write_download_sizes fills static/engine/worker.js's one /* BUILD */ pair with the downloads' sizes, or refuses."""
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "static" / "engine").mkdir(parents=True)
    (tmp_path / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(96))
    (tmp_path / "pyodide" / "snapshot.bin").write_bytes(bytes(7))
    worker = tmp_path / "static" / "engine" / "worker.js"
    worker.write_text("const SIZES = /* BUILD */ {} /* BUILD */;\n")
    assert write_download_sizes(tmp_path) == {"pyodide.asm.wasm": 100, "snapshot.bin": 7}
    assert worker.read_text() == (
        'const SIZES = /* BUILD */ {"pyodide.asm.wasm": 100, "snapshot.bin": 7} /* BUILD */;\n'
    )
    worker.write_text("const SIZES = {};\n")
    with pytest.raises(BuildError, match="exactly one"):
        write_download_sizes(tmp_path)
