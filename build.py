#!/usr/bin/env python3
"""Build, serve and test Arbiter, with the standard library only.

    python3 build.py              assemble dist/: the page, static/, the arbiter wheel and a pinned Pyodide
    python3 build.py serve        build, then serve dist/ on http://127.0.0.1:8000/ (--port N, 0 = any free)
    python3 build.py test [ARGS]  set up .venv and a Chromium, build, run pytest over tests/ (ARGS go to pytest)
    python3 build.py bench [ARGS] set up .venv and run the benchmarks (pytest --benchmark-only)

Pyodide comes from npm (`npm pack`) and micropip from PyPI (`pip download`), each once, checked against
the hashes pinned in build.py and kept in .cache/, so a rebuild needs no network.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import zipfile
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

# Pinned downloads. The Pyodide hash is npm's `dist.integrity` for the tarball `npm pack` saves
# (`npm view pyodide@314.0.7 dist.integrity`); micropip's is PyPI's wheel (`pip hash`), which is NOT
# the hash in Pyodide's own lock file: that one is for the wheel Pyodide builds itself.
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

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


def fetch_micropip(cache: Path = CACHE) -> Path:
    """The pinned micropip wheel from PyPI, fetched once with `pip download` and checked against its sha256."""

    def download(folder: Path) -> None:
        print(f"Fetching micropip {MICROPIP_VERSION} with pip download …", flush=True)
        requirement = folder / "requirements.txt"
        requirement.write_text(f"micropip=={MICROPIP_VERSION} --hash=sha256:{MICROPIP_SHA256}\n")
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              "--python-version", "3.14", "--require-hashes", "-r", str(requirement), "-d", str(folder)],
             what="pip is needed to fetch micropip once (it is cached in .cache/)")

    return _fetch_once(cache, MICROPIP_WHEEL, f"sha256-{MICROPIP_SHA256}", download)


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


# --- Pyodide and our lock file --------------------------------------------------------------------


def unpack_pyodide(tarball: Path, out_dir: Path) -> dict:
    """Copy the files the runtime needs from the npm tarball into `out_dir`; return the package's lock."""
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = {f"package/{n}": n for n in PYODIDE_FILES}
    lock = None
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar:
            if member.name in wanted:
                (out_dir / wanted.pop(member.name)).write_bytes(tar.extractfile(member).read())
            elif member.name == "package/pyodide-lock.json":
                lock = json.load(tar.extractfile(member))
    if wanted or lock is None:
        raise BuildError(f"{tarball} lacks {', '.join(sorted(wanted)) or 'package/pyodide-lock.json'}")
    return lock


def lock_entry(template: dict, *, name: str, version: str, file_name: str, sha256: str, imports: list[str],
               depends: list[str] = ()) -> dict:
    """A lock-file package entry shaped like Pyodide's own (`template`), for a pure-Python wheel."""
    entry = dict(template)
    entry.update(name=name, version=version, file_name=file_name, sha256=sha256, imports=list(imports),
                 depends=list(depends), install_dir="site", package_type="package", unvendored_tests=False)
    return entry


def write_lock(path: Path, npm_lock: dict, micropip: Path, arbiter: Path) -> dict:
    """Our own pyodide-lock.json: Pyodide's `info`, and only micropip and arbiter with their real hashes.

    `file_name`s are relative to the lock file's folder (Pyodide's default packageBaseUrl).
    """
    template = npm_lock["packages"]["micropip"]
    arbiter_version = arbiter.name.split("-")[1]
    lock = {
        "info": npm_lock["info"],
        "packages": {
            "micropip": lock_entry(template, name="micropip", version=MICROPIP_VERSION, file_name=micropip.name,
                                   sha256=_digest(micropip, "sha256").hex(), imports=["micropip"]),
            "arbiter": lock_entry(template, name="arbiter", version=arbiter_version,
                                  file_name=Path(os.path.relpath(arbiter, path.parent)).as_posix(),
                                  sha256=_digest(arbiter, "sha256").hex(), imports=["arbiter"]),
        },
    }
    path.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return lock


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
<h3 id="{s}-title">{esc(spec["title"])}</h3>
<div class="fields">{fields_html}</div>
<div class="odds" data-odds aria-live="off"><h4>Odds before you roll</h4><div class="odds-body" data-odds-body><p class="muted">Odds appear when the engine is ready.</p></div></div>
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
        f'<section class="panel" id="panel-{tab}" role="tabpanel" aria-labelledby="tab-{tab}" data-panel="{tab}">'
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


def engine_systems() -> list[dict]:
    """arbiter.api.systems() from py/ in this CPython: the one source of every field's limits."""
    sys.path.insert(0, str(ROOT / "py"))
    try:
        from arbiter import api
        return api.systems()
    finally:
        sys.path.remove(str(ROOT / "py"))


def build(dist: Path = DIST, cache: Path = CACHE) -> Path:
    """Assemble `dist`: index.html, static/, wheels/arbiter-*.whl, pyodide/ (runtime, micropip, our lock)."""
    tarball, micropip = fetch_pyodide(cache), fetch_micropip(cache)
    staging = dist.parent / f".{dist.name}.building"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir(parents=True)
        page = render_page((ROOT / "index.html").read_text(encoding="utf-8"), engine_systems(),
                           (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"))
        (staging / "index.html").write_text(page, encoding="utf-8")
        shutil.copytree(ROOT / "static", staging / "static",
                        ignore=shutil.ignore_patterns(".*", "__pycache__", "*~", "*-demo.html"))
        (staging / ".nojekyll").touch()  # GitHub Pages: serve the files as they are
        wheel = build_wheel(staging / "wheels")
        pyodide = staging / "pyodide"
        npm_lock = unpack_pyodide(tarball, pyodide)
        shutil.copy2(micropip, pyodide / micropip.name)
        write_lock(pyodide / "pyodide-lock.json", npm_lock, pyodide / micropip.name, wheel)
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


class _Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a page load is some twenty requests
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    _gzipped: dict = {}  # (path, mtime_ns, size) -> bytes, shared by all requests
    _gzip_lock = threading.Lock()

    def log_request(self, code="-", size="-"):
        if isinstance(code, int) and code >= 400 and not self.server.quiet:
            super().log_request(code, size)

    def log_message(self, format, *args):
        if not self.server.quiet:
            super().log_message(format, *args)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.partition("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        ctype = self.guess_type(path)
        if (not os.path.isfile(path) or not ctype.startswith(GZIP_TYPES)
                or not _accepts_gzip(self.headers.get("Accept-Encoding", ""))):
            return super().send_head()
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size)
        with self._gzip_lock:
            body = self._gzipped.get(key)
            if body is None:
                with open(path, "rb") as f:
                    body = gzip.compress(f.read(), compresslevel=6, mtime=0)
                self._gzipped[key] = body
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)


class Server(ThreadingHTTPServer):
    """A static server for `root` on 127.0.0.1; port 0 picks a free port (see `.port` and `.url`)."""

    daemon_threads = True

    def __init__(self, root: Path, port: int = 0, host: str = "127.0.0.1", quiet: bool = True):
        self.quiet = quiet
        super().__init__((host, port), partial(_Handler, directory=str(root)))

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


def serve(port: int = 8000, rebuild: bool = True) -> int:
    dist = build() if rebuild else DIST
    with Server(dist, port, quiet=False) as server:
        print(f"Serving {dist.relative_to(ROOT)}/ at {server.url}  (Ctrl-C to stop)", flush=True)
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


def ensure_chromium(python: Path) -> None:
    """A Chromium for Playwright: the system's, else Debian's package when root, else Playwright's download."""
    if chromium_path():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("Installing chromium with apt-get …", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-q"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], env=env, check=False)
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
    ensure_chromium(python)
    build()
    # Benchmarks run once here, as plain tests; `build.py bench` times them.
    return run_pytest(python, ["--benchmark-disable", *_with_default_paths(pytest_args)])


def bench(pytest_args: list[str]) -> int:
    python = ensure_venv()
    return run_pytest(python, ["--benchmark-only", "-rfE", *_with_default_paths(pytest_args)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="assemble dist/ (the default)")
    serve_cmd = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one")
    serve_cmd.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    commands.add_parser("test", help="set up .venv and Chromium, build, run every test; further arguments go to pytest")
    commands.add_parser("bench", help="run the benchmarks; further arguments go to pytest")
    argv = sys.argv[1:] if argv is None else list(argv)
    pytest_args = argv[1:] if argv[:1] in (["test"], ["bench"]) else []  # passed on untouched, options and all
    args = parser.parse_args(argv[:1] if argv[:1] in (["test"], ["bench"]) else argv)
    try:
        if args.command == "serve":
            return serve(args.port, rebuild=not args.no_build)
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
