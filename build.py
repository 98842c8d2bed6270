#!/usr/bin/env python3
"""Build, serve and test Arbiter, with the standard library only.

    python3 build.py              assemble dist/: the page, static/, a pinned Pyodide and its memory snapshot
    python3 build.py serve        build, then serve dist/ on http://127.0.0.1:8000/ (--port N, 0 = any free;
                                  --base /arbiter/ to serve it under a sub-path, as GitHub Pages does)
    python3 build.py test [ARGS]  set up .venv and a Chromium, build, run pytest over tests/ (ARGS go to pytest)
    python3 build.py bench [ARGS] build, then time start-up in headless Chromium against stock Pyodide, and run
                                  the odds benchmarks (pytest --benchmark-only; ARGS go to pytest)

Pyodide comes from npm (`npm pack`) once, checked against the hash pinned here and kept in .cache/. Node runs that
Pyodide at build time (py/tools/pyodide_build.mjs) to precompile the stdlib and take the memory snapshot the page
restores; both are cached in .cache/ by the hashes of their inputs, so a rebuild needs no network.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import html
import inspect
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import zipfile
import zlib
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("build.py needs Python 3.11 or newer")

import tomllib  # noqa: E402  (3.11+, checked above)

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
REQUIREMENTS = ROOT / ".ci" / "requirements-test.txt"

# The pinned download: npm's `dist.integrity` for the tarball `npm pack` saves (`npm view pyodide@314.0.7 dist.integrity`).
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# What the page loads from Pyodide: the runtime (pyodide.asm.wasm without its big data segments: see
# strip_data_segments). No stdlib zip and no packages: Python, the stdlib modules the rules use and the rules
# themselves come already imported in pyodide/snapshot.bin.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
TOOLS = ROOT / "py" / "tools"  # build-time helpers: Node + Pyodide steps, the sw.js template, the start-up bench
SNAPSHOT_TOOL = TOOLS / "pyodide_build.mjs"
SNAPSHOT_SETUP = TOOLS / "snapshot_setup.py"

# Every wheel entry gets this timestamp, so the same sources always give the same bytes.
WHEEL_DATE = (1980, 1, 1, 0, 0, 0)


class BuildError(Exception):
    """A build step that cannot go on; the message says what to do."""


# --- pinned downloads -----------------------------------------------------------------------------


def _digest(path: Path, algorithm: str) -> bytes:
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.digest()


def verify_integrity(path: Path, integrity: str) -> None:
    """Refuse `path` unless it matches an SRI-style pin such as "sha512-<base64>" or "sha256-<hex>"."""
    algorithm, _, want = integrity.partition("-")
    digest = _digest(path, algorithm)
    got_b64, got_hex = base64.b64encode(digest).decode(), digest.hex()
    if want not in (got_b64, got_hex):
        raise BuildError(
            f"{path} does not match its pinned {algorithm}: got {got_b64}, want {want}.\n"
            f"Delete it to download it again; if the pin itself is wrong, fix it in build.py."
        )


def _run(cmd: list[str], cwd: Path | None = None, what: str = "") -> None:
    try:
        result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{cmd[0]} not found: {what or 'it is needed for this step'}") from None
    if result.returncode:
        raise BuildError(f"{' '.join(cmd)} failed with exit code {result.returncode}:\n{result.stdout}{result.stderr}")


def _fetch_once(cache: Path, name: str, integrity: str, download) -> Path:
    """The pinned file `name` from `cache`, downloaded by `download(folder)` only when absent."""
    target = cache / name
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as tmp:
            download(Path(tmp))
            got = Path(tmp) / name
            if not got.exists():
                raise BuildError(f"the download did not produce {name}")
            verify_integrity(got, integrity)
            os.replace(got, target)
    verify_integrity(target, integrity)
    return target


def fetch_pyodide(cache: Path = CACHE) -> Path:
    """The pinned Pyodide npm tarball, fetched once with `npm pack` and checked against its sha512."""

    def download(folder: Path) -> None:
        spec = f"pyodide@{PYODIDE_VERSION}"
        print(f"Fetching {spec} with npm pack …", flush=True)
        _run(["npm", "pack", spec, "--pack-destination", str(folder), "--ignore-scripts", "--silent"], cwd=folder,
             what="install Node.js with npm to fetch the pinned Pyodide (needed once; it is cached in .cache/)")

    return _fetch_once(cache, f"pyodide-{PYODIDE_VERSION}.tgz", PYODIDE_INTEGRITY, download)


# --- the arbiter wheel ----------------------------------------------------------------------------


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _package_files(src: Path) -> list[Path]:
    return sorted(
        p for p in src.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
        and not p.name.startswith(".") and not p.name.endswith("~")
    )


def build_wheel(out_dir: Path, src: Path = ROOT / "py" / "arbiter", pyproject: Path = ROOT / "pyproject.toml") -> Path:
    """Write the pure-Python wheel of `src` into `out_dir`: same sources, same bytes."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"

    metadata = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if "description" in project:
        metadata.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        metadata.append(f"Requires-Python: {project['requires-python']}")
    metadata += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    files: list[tuple[str, bytes]] = [
        (f"{src.name}/{p.relative_to(src).as_posix()}", p.read_bytes()) for p in _package_files(src)
    ]
    files.append((f"{dist_info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    files.append((f"{dist_info}/WHEEL", (
        "Wheel-Version: 1.0\nGenerator: arbiter build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n").encode()))
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]"] + [f"{k} = {v}" for k, v in sorted(scripts.items())]
        files.append((f"{dist_info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in files)
    files.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=WHEEL_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=9)
    return wheel


# --- Pyodide at build time: the runtime, a precompiled stdlib, the memory snapshot ------------------------------


def _file_sha256(path: Path) -> str:
    return _digest(path, "sha256").hex()


def unpack_pyodide(tarball: Path, cache: Path = CACHE) -> Path:
    """The npm package unpacked into `cache` once (Node runs it at build time); its folder."""
    folder = cache / f"pyodide-{PYODIDE_VERSION}"
    stamp = folder / ".unpacked-from"
    if not (stamp.exists() and stamp.read_text() == PYODIDE_INTEGRITY):
        shutil.rmtree(folder, ignore_errors=True)
        tmp = cache / f".pyodide-{PYODIDE_VERSION}.unpacking"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        with tarfile.open(tarball, "r:gz") as tar:
            for member in tar:
                name = Path(member.name)
                if member.isfile() and name.parts[:1] == ("package",) and ".." not in name.parts:
                    out = tmp.joinpath(*name.parts[1:])
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(tar.extractfile(member).read())
        missing = [n for n in (*PYODIDE_FILES, "python_stdlib.zip", "pyodide-lock.json") if not (tmp / n).is_file()]
        if missing:
            shutil.rmtree(tmp)
            raise BuildError(f"{tarball} lacks {', '.join(missing)}")
        (tmp / ".unpacked-from").write_text(PYODIDE_INTEGRITY)
        os.replace(tmp, folder)
    return folder


def _node(command: str, config: dict, what: str) -> str:
    """Run one step of py/tools/pyodide_build.mjs under Node; its standard output."""
    node = shutil.which("node")
    if not node:
        raise BuildError(f"node not found: Node.js 18 or newer runs Pyodide at build time to {what}")
    with tempfile.TemporaryDirectory(prefix="arbiter-node-") as tmp:
        config_path = Path(tmp) / "config.json"
        config_path.write_text(json.dumps(config), encoding="utf-8")
        result = subprocess.run([node, str(SNAPSHOT_TOOL), command, str(config_path)], capture_output=True, text=True)
    if result.returncode:
        raise BuildError(f"node {SNAPSHOT_TOOL.name} {command} failed ({what}):\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result.stdout


def _cached(cache: Path, stem: str, suffix: str, inputs: list[bytes | str], make, keep: int = 3) -> Path:
    """`cache/stem-<hash of inputs>suffix`, made by `make(path)` when absent; older versions beyond `keep` go."""
    key = hashlib.sha256()
    for part in inputs:
        data = part.encode() if isinstance(part, str) else part
        key.update(len(data).to_bytes(8, "little") + data)
    target = cache / f"{stem}-{key.hexdigest()[:16]}{suffix}"
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial_file = target.with_name(f".{target.name}.partial")
        make(partial_file)
        os.replace(partial_file, target)
        older = sorted((p for p in cache.glob(f"{stem}-*{suffix}") if p != target), key=lambda p: p.stat().st_mtime)
        for old in older[: max(0, len(older) - (keep - 1))]:
            old.unlink(missing_ok=True)
    return target


def _uleb(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def _sleb(data: bytes, i: int) -> tuple[int, int]:
    value, end = _uleb(data, i)
    bits = 7 * (end - i)  # a signed LEB128 is the unsigned one with its last byte's bit 6 as the sign
    return (value - (1 << bits) if data[end - 1] & 0x40 else value), end


def _uleb_bytes(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


# Data segments of at least this many bytes leave pyodide.asm.wasm: the snapshot restores every byte of memory
# anyway, and zstd packs those tables (CJK codecs, the Unicode database, …) tighter than gzip does in the wasm.
STRIP_DATA_MIN = 4096


def strip_data_segments(wasm: bytes, min_size: int = STRIP_DATA_MIN) -> tuple[bytes, list[tuple[int, int]]]:
    """`wasm` with every active data segment of at least `min_size` bytes emptied (same count, same offsets), and
    the (offset, length) ranges of memory those segments no longer fill."""
    if wasm[:8] != b"\0asm\1\0\0\0":
        raise BuildError("pyodide.asm.wasm is not a WebAssembly module")
    out, emptied, i = bytearray(wasm[:8]), [], 8
    while i < len(wasm):
        section_id = wasm[i]
        size, body = _uleb(wasm, i + 1)
        end = body + size
        if section_id != 11:
            out += wasm[i:end]
        else:
            count, j = _uleb(wasm, body)
            data = bytearray(_uleb_bytes(count))
            for _ in range(count):
                start = j
                flags, j = _uleb(wasm, j)
                if flags != 0:  # passive or explicit memory: kept as it is (pyodide.asm.wasm has none)
                    raise BuildError(f"pyodide.asm.wasm has a data segment of kind {flags}: cannot strip it")
                if wasm[j] != 0x41:
                    raise BuildError("pyodide.asm.wasm has a data segment whose offset is not an i32.const")
                offset, j = _sleb(wasm, j + 1)
                if wasm[j] != 0x0B:
                    raise BuildError("pyodide.asm.wasm has a data segment offset that is not a constant")
                length, k = _uleb(wasm, j + 1)
                if length >= min_size:
                    data += wasm[start:j + 1] + _uleb_bytes(0)
                    emptied.append((offset, length))
                else:
                    data += wasm[start:k + length]
                j = k + length
            if j != end:
                raise BuildError("pyodide.asm.wasm: its data section does not parse")
            out += bytes([11]) + _uleb_bytes(len(data)) + data
        i = end
    return bytes(out), emptied


def precompiled_stdlib(runtime: Path, cache: Path = CACHE) -> Path:
    """Pyodide's stdlib as .pyc (optimize=2), compiled by Pyodide's own Python 3.14 under Node, cached."""
    return _cached(cache, "stdlib-pyc", ".zip", [PYODIDE_INTEGRITY, SNAPSHOT_TOOL.read_bytes()], lambda out: _node(
        "stdlib", {"pyodide": str(runtime), "input": str(runtime / "python_stdlib.zip"), "output": str(out)},
        "precompile the stdlib"))


def stripped_runtime(runtime: Path, cache: Path = CACHE) -> tuple[Path, list[tuple[int, int]]]:
    """A folder with the runtime as the page loads it (pyodide.asm.wasm with its big data segments emptied) and the
    memory ranges those segments filled."""
    wasm, emptied = strip_data_segments((runtime / "pyodide.asm.wasm").read_bytes())
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
    inputs = [PYODIDE_INTEGRITY, _file_sha256(stdlib), _file_sha256(served / "pyodide.asm.wasm"), wheel.read_bytes(),
              SNAPSHOT_TOOL.read_bytes(), SNAPSHOT_SETUP.read_bytes(), (ROOT / "static" / "snapshot.js").read_bytes()]

    def make(out: Path) -> None:
        print("Taking the Pyodide memory snapshot with Node …", flush=True)
        _node("snapshot", {"pyodide": str(runtime), "stdlib": str(stdlib), "wheel": str(wheel), "output": str(out),
                           "emptied": emptied, "setup": SNAPSHOT_SETUP.read_text(encoding="utf-8")},
              "take the memory snapshot")
        _node("verify", {"pyodide": str(served), "snapshot": str(out)}, "check the memory snapshot restores")

    return _cached(cache, "snapshot", ".bin", inputs, make)


# ---- page generation: forms from arbiter.api.systems(), rulings from docs/rulings.md ---------------------------


# One tab per rule text; the Luck Roll sits beside the Threat Roll (same text, 002).
TABS = (("arbitration", "Arbitration", ("arbitration",)), ("two_dice", "Two dice", ("two_dice",)),
        ("threat", "Threat & Luck", ("threat", "luck")), ("ten_again", "d10 pool", ("ten_again",)),
        ("ability_test", "Ability Test", ("ability_test",)))


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def _attrs(**kw) -> str:
    out = []
    for k, v in kw.items():
        k = k.rstrip("_").replace("_", "-")
        if v is True:
            out.append(k)
        elif v is not None and v is not False:
            out.append(f'{k}="{esc(v)}"')
    return " ".join(out)


def _help(f, fid):
    return f'<small class="help" id="{fid}-help">{esc(f["help"])}</small>' if f.get("help") else ""


def _error(fid):
    return f'<output class="field-error" id="{fid}-error" for="{fid}" hidden></output>'


def _describedby(f, fid):
    return f"{fid}-help {fid}-error" if f.get("help") else f"{fid}-error"


def render_field(system: str, f: dict, path: str, value=None) -> str:
    """One field of a form as real HTML; `path` is the request path the engine names in its errors."""
    fid = f"{system}-{re.sub(r'[^a-z0-9]+', '-', path.lower()).strip('-')}"
    value = f["default"] if value is None else value
    t = f["type"]
    if t == "int":
        inp = _attrs(id=fid, type="number", inputmode="numeric", step=1, min=f["min"], max=f["max"], value=value,
                     data_path=path, aria_describedby=_describedby(f, fid))
        return (f'<div class="field int"><label for="{fid}">{esc(f["label"])}</label><input {inp}>'
                f'{_help(f, fid)}{_error(fid)}</div>')
    if t == "bool":
        inp = _attrs(id=fid, type="checkbox", checked=bool(value), data_path=path,
                     aria_describedby=_describedby(f, fid))
        return (f'<div class="field bool"><input {inp}><label for="{fid}">{esc(f["label"])}</label>'
                f'{_help(f, fid)}{_error(fid)}</div>')
    if t == "choice":
        opts = "".join(f'<option {_attrs(value=o["value"], selected=o["value"] == value)}>{esc(o["label"])}</option>'
                       for o in f["options"])
        return (f'<div class="field choice"><label for="{fid}">{esc(f["label"])}</label>'
                f'<select {_attrs(id=fid, data_path=path, aria_describedby=_describedby(f, fid))}>{opts}</select>'
                f'{_help(f, fid)}{_error(fid)}</div>')
    if t == "int_or_word":
        values = [*range(f["max"], f["min"] - 1, -1), *f["words"]]
        opts = "".join(f'<option {_attrs(value=v, selected=v == value)}>{esc(_signed(v))}</option>' for v in values)
        return (f'<div class="field choice"><label for="{fid}">{esc(f["label"])}</label>'
                f'<select {_attrs(id=fid, data_path=path, data_type="int_or_word", aria_describedby=_describedby(f, fid))}>'
                f'{opts}</select>{_help(f, fid)}{_error(fid)}</div>')
    if t == "text":
        inp = _attrs(id=fid, type="text", maxlength=f["max_len"], value=value, data_path=path,
                     aria_describedby=_describedby(f, fid), autocomplete="off")
        return (f'<div class="field text"><label for="{fid}">{esc(f["label"])}</label><input {inp}>'
                f'{_help(f, fid)}{_error(fid)}</div>')
    if t == "int_list":
        label = f["label"]

        def item(i, v):
            inp = _attrs(type="number", inputmode="numeric", step=1, min=f["min"], max=f["max"], value=v,
                         data_path=f"{path}[{i}]", aria_label=f"{label} {i + 1}")
            return f"<li><input {inp}></li>"
        items = "".join(item(i, v) for i, v in enumerate(value))
        return (f'<fieldset class="field list" {_attrs(data_path=path, data_list="int", data_min_len=f["min_len"], data_max_len=f["max_len"], data_min=f["min"], data_max=f["max"], data_label=f["label"], aria_describedby=_describedby(f, fid))}>'
                f'<legend>{esc(f["label"])}</legend><ol class="items">{items}</ol>'
                f'<div class="list-buttons"><button type="button" data-add>+ Add</button>'
                f'<button type="button" data-remove>− Remove</button></div>{_help(f, fid)}{_error(fid)}</fieldset>')
    if t == "group":
        inner = "".join(render_field(system, g, f"{path}.{g['name']}") for g in f["fields"])
        toggle = _attrs(type="checkbox", id=f"{fid}-on", data_toggle=path, aria_controls=f"{fid}-body")
        return (f'<fieldset class="field group" {_attrs(data_path=path, data_group=path)}>'
                f'<legend><input {toggle}><label for="{fid}-on">{esc(f["label"])}</label></legend>'
                f'{_help(f, fid)}<div class="group-body" id="{fid}-body" hidden>{inner}</div>{_error(fid)}</fieldset>')
    if t == "records":
        rows = "".join(_record(system, f, path, i, v) for i, v in enumerate(value))
        tmpl = _record(system, f, path, "__i__", {g["name"]: g["default"] for g in f["fields"]})
        return (f'<fieldset class="field records" {_attrs(data_path=path, data_list="records", data_min_len=f["min_len"], data_max_len=f["max_len"], data_label=f["label"])}>'
                f'<legend>{esc(f["label"])}</legend><ol class="items">{rows}</ol>'
                f'<template>{tmpl}</template>'
                f'<div class="list-buttons"><button type="button" data-add>+ Add</button>'
                f'<button type="button" data-remove>− Remove</button></div>{_help(f, fid)}{_error(fid)}</fieldset>')
    raise ValueError(f"unknown field type {t}")


def _record(system, f, path, i, value):
    inner = "".join(render_field(system, g, f"{path}[{i}].{g['name']}", value.get(g["name"])) for g in f["fields"])
    return f'<li class="record">{inner}</li>'


def _signed(v):
    return f"+{v}" if isinstance(v, int) and v > 0 else str(v)


def render_form(spec: dict) -> str:
    s = spec["id"]
    fields_html = "".join(render_field(s, f, f["name"]) for f in spec["fields"])
    examples = spec["extras"].get("examples")
    if examples:  # the text's example threats as suggestions for the names (their outcome texts show after a roll)
        fields_html = fields_html.replace('type="text"', f'type="text" list="{s}-examples"')
        fields_html += (f'<datalist id="{s}-examples">'
                        + "".join(f'<option value="{esc(name)}"></option>' for name in examples) + "</datalist>")
    return f'''<form data-system="{s}" class="procedure-form" novalidate aria-labelledby="{s}-title">
<h2 id="{s}-title">{esc(spec["title"])}</h2>
<div class="fields">{fields_html}</div>
<div class="odds" data-odds aria-live="off"><h3>Odds before you roll</h3><div class="odds-body" data-odds-body><p class="muted">Odds appear when the engine is ready.</p></div></div>
<div class="roll-row"><button type="submit" class="roll" data-roll disabled>Roll</button><span class="muted" data-wait>Loading the rules…</span></div>
<canvas class="dice" data-dice width="300" height="60" role="img" aria-label="No dice rolled yet" tabindex="0"></canvas>
<div class="result" data-result aria-live="polite"></div>
<div class="choices" data-choices></div>
</form>'''


def render_forms(systems: list[dict]) -> str:
    """The tabs and a real HTML form for every procedure, with limits taken from systems()."""
    by_id = {s["id"]: s for s in systems}
    tabs = "".join(
        f'<a class="tab" role="tab" href="#{tab}" id="tab-{tab}" aria-controls="panel-{tab}" data-tab="{tab}" '
        f'title="{esc(" & ".join(by_id[i]["title"] for i in ids))}">{esc(name)}</a>' for tab, name, ids in TABS)
    panels = "".join(
        f'<section class="panel" id="panel-{tab}" role="tabpanel" aria-labelledby="tab-{tab}" data-panel="{tab}"'
        f'{"" if tab == TABS[0][0] else " hidden"}>'
        + "".join(render_form(by_id[i]) for i in ids) + "</section>" for tab, _, ids in TABS)
    return f'<nav class="tabs" role="tablist" aria-label="Procedures">{tabs}</nav>{panels}'


def render_rulings(markdown: str) -> str:
    """docs/rulings.md as HTML: headings, quotes and paragraphs (all text escaped)."""
    out, para = [], []

    def flush():
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    for line in markdown.splitlines():
        if line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            text = line[level:].strip()
            if level == 1:
                continue
            out.append(f"<h{level + 1}>{_inline(text)}</h{level + 1}>")
        elif line.startswith(">"):
            flush()
            out.append(f"<blockquote>{_inline(line[1:].strip())}</blockquote>")
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def _inline(text: str) -> str:
    text = esc(text)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)


def render_page(template: str, systems: list[dict], rulings_md: str) -> str:
    """index.html with its generated parts: the forms, the rulings and the field declarations for the page's JS."""
    data = json.dumps({s["id"]: s for s in systems}, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    parts = {"<!-- forms -->": render_forms(systems), "<!-- rulings -->": render_rulings(rulings_md),
             "<!-- systems -->": data}
    for marker, html_ in parts.items():
        if template.count(marker) != 1:
            raise BuildError(f"index.html must hold exactly one {marker}")
        template = template.replace(marker, html_)
    return template


CLIENT_PRELOAD = '<link rel="modulepreload" href="static/arbiter-client.js">'
CLIENT_FIRST = '<script type="module" async src="static/arbiter-client.js"></script>'
# The page's first script, inline (allowed by its hash):
# - starts the Python worker while the page is still arriving, before any module has loaded; static/arbiter-client.js
#   adopts it (and the messages or error it sent meanwhile);
# - splits the first paint in two, so neither frame is a long task: the first frame lays out only the header and
#   the loading line (style.css hides the rest while <html data-first-frame>), the next one the forms.
BOOT_SCRIPT = (
    # Every uncaught error and unhandled rejection of the page, kept from its first line (the tests read it in
    # every engine: WebDriver has no event for them; a bug report can copy it).
    "self.arbiterErrors = [];\n"
    "addEventListener('error', (e) => self.arbiterErrors.push(String(e.message || e.error)));\n"
    "addEventListener('unhandledrejection', (e) => self.arbiterErrors.push(`Unhandled rejection: ${e.reason?.stack ?? e.reason}`));\n"
    "self.arbiterBoot = { worker: new Worker('static/worker.js', { type: 'module' }), early: [] };\n"
    "self.arbiterBoot.worker.onmessage = self.arbiterBoot.worker.onerror = (event) => {\n"
    "  if (event.type === 'error') event.preventDefault();\n"
    "  self.arbiterBoot.early.push(event);\n"
    "};\n"
    "document.documentElement.dataset.firstFrame = '';\n"
    "requestAnimationFrame(() => setTimeout(() => delete document.documentElement.dataset.firstFrame, 0));"
)


def start_worker_first(page: str) -> str:
    """Start the Python worker from the first line of the page: an inline script right after the
    Content-Security-Policy (which allows exactly that script, by its sha256), then the Pyodide client as an async
    module in place of its modulepreload, which adopts that worker as soon as it arrives."""
    csp = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?', page)
    if CLIENT_PRELOAD not in page or not csp or "script-src 'self'" not in csp.group(0):
        return page
    digest = base64.b64encode(hashlib.sha256(BOOT_SCRIPT.encode("utf-8")).digest()).decode()
    meta = csp.group(0).replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'", 1)
    page = page.replace(CLIENT_PRELOAD + "\n", "").replace(CLIENT_PRELOAD, "")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?', page)
    return page[:csp.start()] + meta + f"<script>{BOOT_SCRIPT}</script>\n" + CLIENT_FIRST + "\n" + page[csp.end():]


def engine_systems() -> list[dict]:
    """arbiter.api.systems() from py/ in this CPython: the one source of every field's limits."""
    sys.path.insert(0, str(ROOT / "py"))
    try:
        from arbiter import api
        return api.systems()
    finally:
        sys.path.remove(str(ROOT / "py"))


# --- an installable offline app: manifest, icons drawn here, the service worker ----------------------------------

APP_NAME, APP_SHORT_NAME = "Arbiter — exact odds, honest dice", "Arbiter"
THEME_COLOR, BACKGROUND_COLOR = "#7a2e1d", "#f6f3ee"  # style.css's --accent and --bg


def png(width: int, height: int, rgba: bytes) -> bytes:
    """A PNG file of 8-bit RGBA pixels (rows top to bottom), with zlib and struct only."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    stride = width * 4
    raw = b"".join(b"\0" + rgba[y * stride:(y + 1) * stride] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _rounded_rect(x0, y0, x1, y1, r):
    """The shape's horizontal extent at height y (or None): a rectangle with corners of radius r."""
    def extent(y):
        if not y0 <= y <= y1:
            return None
        dy = max(y0 + r - y, y - (y1 - r), 0.0)
        dx = r - math.sqrt(max(r * r - dy * dy, 0.0)) if dy else 0.0
        return x0 + dx, x1 - dx
    return extent


def _circle(cx, cy, r):
    def extent(y):
        d = r * r - (y - cy) ** 2
        return None if d <= 0 else (cx - math.sqrt(d), cx + math.sqrt(d))
    return extent


def draw_icon(size: int, maskable: bool) -> bytes:
    """The app icon as RGBA: a die showing five on the accent colour. A maskable icon fills its square and keeps
    the die inside the central safe circle (radius 40%); the plain one is a rounded tile on transparency."""
    def hex_rgb(h):
        return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))
    accent, die, pip = hex_rgb(THEME_COLOR), hex_rgb("#fffdf8"), hex_rgb(THEME_COLOR)
    s = float(size)
    tile = _rounded_rect(0, 0, s, s, 0) if maskable else _rounded_rect(0.04 * s, 0.04 * s, 0.96 * s, 0.96 * s, 0.2 * s)
    half = 0.26 * s if maskable else 0.3 * s  # the die's half-width: inside the safe zone when maskable
    c = s / 2
    shapes = [(tile, accent), (_rounded_rect(c - half, c - half, c + half, c + half, 0.22 * half), die)]
    off, pr = 0.52 * half, 0.16 * half
    shapes += [(_circle(c + dx * off, c + dy * off, pr), pip) for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))]

    pixels = bytearray(size * size * 4)
    sub = 4  # rows sampled per pixel row: vertical anti-aliasing; horizontal coverage is exact
    for y in range(size):
        row = [[0.0, 0.0, 0.0, 0.0] for _ in range(size)]  # premultiplied RGBA, 0..1
        for extent, (r, g, b) in shapes:
            cover = [0.0] * size
            for k in range(sub):
                span = extent(y + (k + 0.5) / sub)
                if span is None:
                    continue
                a, b_ = max(span[0], 0.0), min(span[1], s)
                for x in range(int(a), min(int(math.ceil(b_)), size)):
                    cover[x] += (min(b_, x + 1) - max(a, x)) / sub
            for x, alpha in enumerate(cover):
                if alpha > 0:
                    p = row[x]
                    keep = 1 - alpha
                    row[x] = [r / 255 * alpha + p[0] * keep, g / 255 * alpha + p[1] * keep,
                              b / 255 * alpha + p[2] * keep, alpha + p[3] * keep]
        for x, (r, g, b, a) in enumerate(row):
            i = (y * size + x) * 4
            pixels[i:i + 4] = (bytes((round(r / a * 255), round(g / a * 255), round(b / a * 255), round(a * 255)))
                               if a > 0 else b"\0\0\0\0")
    return bytes(pixels)


ICONS = (("icons/icon-192.png", 192, False), ("icons/icon-512.png", 512, False),
         ("icons/maskable-192.png", 192, True), ("icons/maskable-512.png", 512, True))


def write_icons(site: Path, cache: Path = CACHE) -> None:
    """The icons, drawn here (no binary asset comes from anywhere), cached by the drawing code's hash."""
    code = inspect.getsource(draw_icon) + inspect.getsource(png) + THEME_COLOR
    for name, size, maskable in ICONS:
        drawn = _cached(cache, f"icon-{'maskable' if maskable else 'any'}-{size}", ".png", [code], lambda out: out.write_bytes(
            png(size, size, draw_icon(size, maskable))), keep=1)
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(drawn, site / name)


def manifest() -> dict:
    """manifest.webmanifest: installable from Chromium, every URL relative to the manifest (any sub-path works)."""
    icons = [{"src": name, "sizes": f"{size}x{size}", "type": "image/png", "purpose": "maskable" if maskable else "any"}
             for name, size, maskable in ICONS]
    return {"name": APP_NAME, "short_name": APP_SHORT_NAME, "id": "./", "start_url": "./", "scope": "./",
            "display": "standalone", "theme_color": THEME_COLOR, "background_color": BACKGROUND_COLOR,
            "description": "Exact odds before you roll, dice that land on what the rules rolled. Works offline.",
            "lang": "en", "icons": icons}


def _integrity(path: Path) -> str:
    return "sha256-" + base64.b64encode(_digest(path, "sha256")).decode()


def write_service_worker(site: Path) -> str:
    """sw.js at the site's root, from py/tools/sw.js, listing every other file of `site` with its hash; the version."""
    files = {p.relative_to(site).as_posix(): _integrity(p) for p in sorted(site.rglob("*"))
             if p.is_file() and not any(part.startswith(".") for part in p.relative_to(site).parts)}
    files.pop("sw.js", None)
    version = hashlib.sha256("".join(f"{k}\0{v}\n" for k, v in files.items()).encode()).hexdigest()[:16]
    template = (TOOLS / "sw.js").read_text(encoding="utf-8")
    marker = re.compile(r"/\* BUILD \*/.*?/\* BUILD \*/")
    if len(marker.findall(template)) != 1:
        raise BuildError("py/tools/sw.js must hold exactly one /* BUILD */ … /* BUILD */")
    build_json = json.dumps({"version": version, "files": files}, indent=1, sort_keys=True)
    (site / "sw.js").write_text(marker.sub(lambda _: f"/* BUILD */ {build_json} /* BUILD */", template), encoding="utf-8")
    return version


def build(dist: Path = DIST, cache: Path = CACHE) -> Path:
    """Assemble `dist`: index.html, static/, pyodide/ (the runtime and its memory snapshot), the manifest and
    its icons, and sw.js, which lists all of them."""
    runtime = unpack_pyodide(fetch_pyodide(cache), cache)
    staging = dist.parent / f".{dist.name}.building"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir(parents=True)
        page = render_page((ROOT / "index.html").read_text(encoding="utf-8"), engine_systems(),
                           (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"))
        (staging / "index.html").write_text(start_worker_first(page), encoding="utf-8")
        shutil.copytree(ROOT / "static", staging / "static",
                        ignore=shutil.ignore_patterns(".*", "__pycache__", "*~", "*-demo.html"))
        (staging / ".nojekyll").touch()  # GitHub Pages: serve the files as they are
        with tempfile.TemporaryDirectory(prefix="arbiter-wheel-") as tmp:
            snapshot = memory_snapshot(runtime, build_wheel(Path(tmp)), cache)
        pyodide = staging / "pyodide"
        pyodide.mkdir()
        served, _ = stripped_runtime(runtime, cache)
        for name in PYODIDE_FILES:
            shutil.copyfile(served / name, pyodide / name)
        shutil.copyfile(snapshot, pyodide / "snapshot.bin")
        write_icons(staging, cache)
        (staging / "manifest.webmanifest").write_text(json.dumps(manifest(), indent=2, ensure_ascii=False) + "\n",
                                                      encoding="utf-8")
        write_service_worker(staging)
        shutil.rmtree(dist, ignore_errors=True)
        os.replace(staging, dist)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dist


# --- the one static server: `serve` and the browser tests ---------------------------------------

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
                self.path = "/" + url_path[len(prefix):] + sep + query
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

    def __init__(self, root: Path | dict, port: int = 0, host: str = "127.0.0.1", quiet: bool = True,
                 cache_control: str = "no-cache"):
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


def serve(port: int = 8000, rebuild: bool = True, base: str = "/") -> int:
    dist = build() if rebuild else DIST
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    with Server({base: dist}, port, quiet=False) as server:
        print(f"Serving {dist.relative_to(ROOT)}/ at {server.url}{base[1:]}  (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


# --- tests and benchmarks ------------------------------------------------------------------------


def ensure_venv(venv: Path = VENV, requirements: Path = REQUIREMENTS) -> Path:
    """The test venv's python, created if missing and reinstalled when the pinned requirements change."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"Creating {venv} …", flush=True)
        _run([sys.executable, "-m", "venv", str(venv)], what="Python's venv module is needed (Debian: apt-get install python3-venv)")
    stamp = venv / ".arbiter-requirements.sha256"
    want = hashlib.sha256(requirements.read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text().strip() != want:
        print(f"Installing {requirements.relative_to(ROOT)} into {venv.name} …", flush=True)
        _run([str(python), "-m", "pip", "install", "--quiet", "--require-hashes", "--only-binary=:all:",
              "-r", str(requirements)])
        stamp.write_text(want + "\n")
    return python


def chromium_path() -> str | None:
    """The Chromium the browser tests drive: $ARBITER_CHROMIUM, else the system's, else None (Playwright's own)."""
    for candidate in (os.environ.get("ARBITER_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


# Debian's packages for each engine the tests drive: Chromium (Playwright), WebKitGTK (WebKitWebDriver + MiniBrowser on
# a virtual screen) and Firefox ESR (Marionette).
ENGINE_PACKAGES = {"chromium": ["chromium"], "webkit": ["webkit2gtk-driver", "xvfb", "xauth"], "firefox": ["firefox-esr"]}


def _engines_missing() -> list[str]:
    """The engines this machine cannot run yet (tests/engine_drivers.py says why, in words)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import engine_drivers
        return [e for e in ("webkit", "firefox") if engine_drivers.missing(e, python_checked=False)]
    finally:
        sys.path.remove(str(ROOT / "tests"))


def ensure_browsers(python: Path) -> None:
    """Every engine the tests drive: Debian's packages with apt-get when root, else Playwright's Chromium download.
    WebKitGTK and Firefox that cannot be installed are not fatal: their tests are skipped and say what is missing."""
    want = [] if chromium_path() else ["chromium"]
    missing = _engines_missing()
    want += [pkg for engine in missing for pkg in ENGINE_PACKAGES[engine]]
    if want and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"Installing {' '.join(want)} with apt-get …", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-q"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-q", *want], env=env, check=False)
        missing = _engines_missing()
    for engine in missing:
        print(f"build.py: {engine} is not installed and cannot be installed here (needs root and apt-get: "
              f"{' '.join(ENGINE_PACKAGES[engine])}); its cross-engine tests will be skipped", flush=True)
    if chromium_path():
        return
    print("Installing Playwright's Chromium …", flush=True)
    _run([str(python), "-m", "playwright", "install", "chromium"])


def run_pytest(python: Path | str, args: list[str], cwd: Path = ROOT) -> int:
    """pytest's exit code, except that collecting no tests (exit 5) is a failure too."""
    code = subprocess.call([str(python), "-m", "pytest", *args], cwd=cwd)
    if code == 5:
        print("build.py: pytest ran no tests; counting that as a failure", file=sys.stderr)
        return 1
    return code


def _with_default_paths(pytest_args: list[str]) -> list[str]:
    """`tests` unless the arguments name test paths of their own."""
    named = any((ROOT / a.split("::")[0]).exists() for a in pytest_args if not a.startswith("-"))
    return pytest_args if named else ["tests", *pytest_args]


def test(pytest_args: list[str]) -> int:
    python = ensure_venv()
    ensure_browsers(python)
    build()
    # Benchmarks run once here, as plain tests; `build.py bench` times them.
    return run_pytest(python, ["--benchmark-disable", *_with_default_paths(pytest_args)])


def bench(args: list[str]) -> int:
    """Start-up in headless Chromium against stock Pyodide (py/tools/bench_startup.py; `--runs N`, 5 by default), then
    the odds benchmarks (pytest-benchmark; the other arguments go to pytest). `--startup-only` skips the latter."""
    runs, startup_only, pytest_args = 5, False, []
    it = iter(args)
    for arg in it:
        if arg == "--runs":
            runs = int(next(it))
        elif arg.startswith("--runs="):
            runs = int(arg.split("=", 1)[1])
        elif arg == "--startup-only":
            startup_only = True
        else:
            pytest_args.append(arg)
    python = ensure_venv()
    ensure_browsers(python)
    dist = build()
    code = subprocess.call([str(python), str(TOOLS / "bench_startup.py"), str(dist), "--runs", str(runs)], cwd=ROOT)
    if code or startup_only:
        return code
    return run_pytest(python, ["--benchmark-only", "-rfE", *_with_default_paths(pytest_args)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="assemble dist/ (the default)")
    serve_cmd = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one")
    serve_cmd.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    serve_cmd.add_argument("--base", default="/", help="URL path to serve the site under, e.g. /arbiter/ as on "
                                                       "GitHub Pages (default /)")
    commands.add_parser("test", help="set up .venv and the browsers, build, run every test; further arguments go to pytest")
    commands.add_parser("bench", help="time start-up against stock Pyodide (--runs N, --startup-only), then the odds "
                                      "benchmarks; further arguments go to pytest")
    argv = sys.argv[1:] if argv is None else list(argv)
    pytest_args = argv[1:] if argv[:1] in (["test"], ["bench"]) else []  # passed on untouched, options and all
    args = parser.parse_args(argv[:1] if argv[:1] in (["test"], ["bench"]) else argv)
    try:
        if args.command == "serve":
            return serve(args.port, rebuild=not args.no_build, base=args.base)
        if args.command == "test":
            return test(pytest_args)
        if args.command == "bench":
            return bench(pytest_args)
        dist = build()
        print(f"Built {dist.relative_to(ROOT)}/")
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
