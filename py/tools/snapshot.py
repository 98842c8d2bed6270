"""Pyodide at build time, under Node (pyodide_build.mjs): the stdlib precompiled to .pyc, the runtime as the page
loads it (pyodide.asm.wasm with its big data segments emptied), the memory snapshot the page restores, and the sizes
of those two downloads written into the built worker (its loading bar counts their bytes)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import CACHE, ROOT, BuildError
from .fetch import PYODIDE_FILES, PYODIDE_INTEGRITY, PYODIDE_VERSION, cached, file_digest

TOOLS = Path(__file__).resolve().parent
SNAPSHOT_TOOL = TOOLS / "pyodide_build.mjs"
SNAPSHOT_SETUP = TOOLS / "snapshot_setup.py"


def node(command: str, config: dict, what: str) -> str:
    """Run one step of py/tools/pyodide_build.mjs under Node; its standard output."""
    program = shutil.which("node")
    if not program:
        raise BuildError(f"node not found: Node.js 18 or newer runs Pyodide at build time to {what}")
    with tempfile.TemporaryDirectory(prefix="arbiter-node-") as tmp:
        config_path = Path(tmp) / "config.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        result = subprocess.run(
            [program, str(SNAPSHOT_TOOL), command, str(config_path)], capture_output=True, text=True
        )
    if result.returncode:
        raise BuildError(
            f"node {SNAPSHOT_TOOL.name} {command} failed ({what}):\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        )
    return result.stdout


# --- LEB128, the integers of the wasm binary format -----------------------------------------------------------


def uleb(data: bytes, i: int) -> tuple[int, int]:
    """The unsigned LEB128 at `data[i]`, and the index just after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def sleb(data: bytes, i: int) -> tuple[int, int]:
    """The signed LEB128 at `data[i]`, and the index just after it."""
    value, end = uleb(data, i)
    bits = 7 * (end - i)  # a signed LEB128 is the unsigned one with its last byte's bit 6 as the sign
    return (value - (1 << bits) if data[end - 1] & 0x40 else value), end


def uleb_bytes(n: int) -> bytes:
    """`n` (0 or more) as an unsigned LEB128."""
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


# Data segments of at least this many bytes leave pyodide.asm.wasm: the snapshot restores every byte of memory
# anyway, and zstd packs those tables (CJK codecs, the Unicode database, …) tighter than gzip does in the wasm.
STRIP_DATA_MIN = 4096

# Memory that nothing in the page reads, zeroed in the snapshot (and its data segments emptied from the served wasm,
# whatever their size): (offset, length, sha256 of those bytes as the pinned pyodide.asm.wasm instantiates them).
# The CJK codecs' mapping tables, 589 kB: CPython's Modules/cjkcodecs/mappings_*.h (`__gb2312_decmap` …
# `__cp950ext_decmap`, 47 arrays of code points, unchanged for years), found byte for byte in that memory, one after
# the other (matched against the same arrays in CPython 3.11's lib-dynload/_codecs_*.so, found by their symbols).
# Only the builtin modules _codecs_cn, _codecs_hk, _codecs_iso2022, _codecs_jp, _codecs_kr and _codecs_tw read them;
# none is imported when the snapshot is taken, and snapshot_setup.py makes importing them an ImportError (LEFT_OUT).
UNREACHABLE = ((800544, 589328, "c6a08c949a9d6a0a5d13f7a41fe79579ee648e9bb640b4217953aed2afe48c94"),)


def unreachable_ranges(wasm: bytes, unreachable=UNREACHABLE) -> list[tuple[int, int]]:
    """The (offset, length) ranges of `unreachable`, each checked against the memory `wasm` instantiates: another
    Pyodide lays its memory out otherwise, and zeroing the wrong bytes would break it."""
    memory = {}
    for offset, data in data_segments(wasm):
        memory[offset] = data
    for start, length, digest in unreachable:
        image = bytearray(length)
        for offset, data in memory.items():
            lo, hi = max(offset, start), min(offset + len(data), start + length)
            if lo < hi:
                image[lo - start : hi - start] = data[lo - offset : hi - offset]
        if hashlib.sha256(image).hexdigest() != digest:
            raise BuildError(
                f"pyodide.asm.wasm's memory at {start}..{start + length} is not what snapshot.py's UNREACHABLE says"
                " (another Pyodide?): find the CJK codecs' tables again (docs/performance.md) or drop that range"
            )
    return [(start, length) for start, length, _ in unreachable]


def data_segments(wasm: bytes) -> list[tuple[int, bytes]]:
    """The (offset, bytes) of each active data segment of `wasm`."""
    segments, i = [], 8
    while i < len(wasm):
        size, body = uleb(wasm, i + 1)
        if wasm[i] == 11:
            count, j = uleb(wasm, body)
            for _ in range(count):
                _, j = uleb(wasm, j)
                offset, j = sleb(wasm, j + 1)
                length, k = uleb(wasm, j + 1)
                segments.append((offset, wasm[k : k + length]))
                j = k + length
        i = body + size
    return segments


def strip_data_segments(
    wasm: bytes, min_size: int = STRIP_DATA_MIN, unreachable: list[tuple[int, int]] = ()
) -> tuple[bytes, list[tuple[int, int]]]:
    """`wasm` with every active data segment of at least `min_size` bytes, or lying wholly in one of the
    `unreachable` (offset, length) ranges, emptied (same count, same offsets), and the (offset, length) ranges of
    memory those segments no longer fill."""
    if wasm[:8] != b"\0asm\1\0\0\0":
        raise BuildError("pyodide.asm.wasm is not a WebAssembly module")
    out, emptied, i = bytearray(wasm[:8]), [], 8
    while i < len(wasm):
        section_id = wasm[i]
        size, body = uleb(wasm, i + 1)
        end = body + size
        if section_id != 11:
            out += wasm[i:end]
        else:
            count, j = uleb(wasm, body)
            data = bytearray(uleb_bytes(count))
            for _ in range(count):
                start = j
                flags, j = uleb(wasm, j)
                if flags != 0:  # passive or explicit memory: kept as it is (pyodide.asm.wasm has none)
                    raise BuildError(f"pyodide.asm.wasm has a data segment of kind {flags}: cannot strip it")
                if wasm[j] != 0x41:
                    raise BuildError("pyodide.asm.wasm has a data segment whose offset is not an i32.const")
                offset, j = sleb(wasm, j + 1)
                if wasm[j] != 0x0B:
                    raise BuildError("pyodide.asm.wasm has a data segment offset that is not a constant")
                length, k = uleb(wasm, j + 1)
                inside = any(lo <= offset and offset + length <= lo + n for lo, n in unreachable)
                if length >= min_size or (inside and length):
                    data += wasm[start : j + 1] + uleb_bytes(0)
                    emptied.append((offset, length))
                else:
                    data += wasm[start : k + length]
                j = k + length
            if j != end:
                raise BuildError("pyodide.asm.wasm: its data section does not parse")
            out += bytes([11]) + uleb_bytes(len(data)) + data
        i = end
    return bytes(out), emptied


# --- the steps under Node, each cached by its inputs ------------------------------------------------------------


def precompiled_stdlib(runtime: Path, cache: Path = CACHE) -> Path:
    """Pyodide's stdlib as .pyc (optimize=2), compiled by Pyodide's own Python 3.14 under Node, cached."""
    return cached(
        cache,
        "stdlib-pyc",
        ".zip",
        [PYODIDE_INTEGRITY, SNAPSHOT_TOOL.read_bytes()],
        lambda out: node(
            "stdlib",
            {"pyodide": str(runtime), "input": str(runtime / "python_stdlib.zip"), "output": str(out)},
            "precompile the stdlib",
        ),
    )


def stripped_runtime(runtime: Path, cache: Path = CACHE) -> tuple[Path, list[tuple[int, int]]]:
    """A folder with the runtime as the page loads it (pyodide.asm.wasm with its big data segments emptied) and the
    memory ranges those segments filled."""
    stock = (runtime / "pyodide.asm.wasm").read_bytes()
    wasm, emptied = strip_data_segments(stock, unreachable=unreachable_ranges(stock))
    folder = cache / f"pyodide-{PYODIDE_VERSION}-stripped-{STRIP_DATA_MIN}"
    if not ((folder / "pyodide.asm.wasm").is_file() and (folder / "pyodide.asm.wasm").read_bytes() == wasm):
        folder.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            if name != "pyodide.asm.wasm":
                shutil.copyfile(runtime / name, folder / name)
        (folder / "pyodide.asm.wasm").write_bytes(wasm)
    return folder, emptied


def memory_snapshot(runtime: Path, wheel: Path, cache: Path = CACHE) -> Path:
    """pyodide/snapshot.bin: Python booted with the precompiled stdlib, the wheel installed and imported; checked
    by restoring it under Node with the runtime the page loads (stripped_runtime); cached."""
    stdlib = precompiled_stdlib(runtime, cache)
    served, emptied = stripped_runtime(runtime, cache)
    inputs = [
        PYODIDE_INTEGRITY,
        file_digest(stdlib, "sha256").hex(),
        file_digest(served / "pyodide.asm.wasm", "sha256").hex(),
        wheel.read_bytes(),
        SNAPSHOT_TOOL.read_bytes(),
        SNAPSHOT_SETUP.read_bytes(),
        json.dumps(UNREACHABLE),
        (ROOT / "static" / "engine" / "snapshot.js").read_bytes(),
    ]

    def make(out: Path) -> None:
        print("Taking the Pyodide memory snapshot with Node …", flush=True)
        node(
            "snapshot",
            {
                "pyodide": str(runtime),
                "stdlib": str(stdlib),
                "wheel": str(wheel),
                "output": str(out),
                "emptied": emptied,
                "unreachable": unreachable_ranges((runtime / "pyodide.asm.wasm").read_bytes()),
                "setup": SNAPSHOT_SETUP.read_text(encoding="utf-8"),
            },
            "take the memory snapshot",
        )
        node("verify", {"pyodide": str(served), "snapshot": str(out)}, "check the memory snapshot restores")

    return cached(cache, "snapshot", ".bin", inputs, make)


# The worker's loading bar counts these files' bytes as they arrive: static/engine/worker.js's SIZES.
DOWNLOADS = ("pyodide.asm.wasm", "snapshot.bin")


def write_download_sizes(site: Path) -> dict[str, int]:
    """Write the size of each of `site`'s DOWNLOADS (in pyodide/) into its static/engine/worker.js, between the
    /* BUILD */ markers: the bytes the worker reads, which Content-Length does not give for a gzipped response."""
    sizes = {name: (site / "pyodide" / name).stat().st_size for name in DOWNLOADS}
    worker = site / "static" / "engine" / "worker.js"
    text = worker.read_text(encoding="utf-8")
    marker = re.compile(r"/\* BUILD \*/.*?/\* BUILD \*/")
    if len(marker.findall(text)) != 1:
        raise BuildError("static/engine/worker.js must hold exactly one /* BUILD */ … /* BUILD */")
    written = f"/* BUILD */ {json.dumps(sizes)} /* BUILD */"
    worker.write_text(marker.sub(lambda _: written, text), encoding="utf-8")
    return sizes
