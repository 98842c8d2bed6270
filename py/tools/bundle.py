"""The page's JavaScript as the browser loads it best: static/main.js and static/table/index.js each bundled with
everything it imports (esbuild, pinned: py/tools/esbuild/), the code both use in one shared chunk.

The sources stay ES modules of one job each, tested as they are; only dist/ holds the bundles. A page that imports
30 small modules makes the browser issue 30 requests, compile 30 scripts and link them, a main-thread task or
several each: on a slow phone's main thread that is most of what the page itself does while it loads. The bundles
keep the modules' code and names as written, each under a `// static/<module>.js` line (not minified: a bug
report's stack still reads; esbuild drops the comments), and leave out the modules that must stay files of their
own: engine/client.js (the page's first script loads it, and it reads its own URL) and offline/offline.js (loaded last,
when the service worker may be registered)."""

from __future__ import annotations

import json
from pathlib import Path

from . import ROOT, CACHE, BuildError, run
from .npmtool import npm_tool

ESBUILD = Path(__file__).resolve().parent / "esbuild"  # package.json and package-lock.json
ENTRIES = ("static/main.js", "static/table/index.js")
SEPARATE = ("./engine/client.js", "./offline/offline.js")  # imported by path, kept as files of their own


def bundle(site: Path, cache: Path = CACHE) -> list[str]:
    """Replace `site`/static's copies of ENTRIES and of every module they import (but SEPARATE) with the bundles and
    their shared chunk; returns the files written, relative to `site`."""
    esbuild = npm_tool(ESBUILD, "esbuild", cache)
    meta = site / ".bundle-meta.json"
    cmd = [
        str(esbuild),
        *ENTRIES,
        "--bundle",
        "--format=esm",
        "--splitting",
        "--charset=utf8",
        "--target=es2022",
        "--outbase=static",
        f"--outdir={site / 'static'}",
        "--allow-overwrite",
        "--chunk-names=[name]-[hash]",
        f"--metafile={meta}",
        "--log-level=warning",
        *(f"--external:{path}" for path in SEPARATE),
    ]
    run(cmd, cwd=ROOT, what="esbuild, installed from py/tools/esbuild/")
    try:
        found = json.loads(meta.read_text(encoding="utf-8"))
    finally:
        meta.unlink(missing_ok=True)
    written = sorted((ROOT / out).resolve().relative_to(site.resolve()).as_posix() for out in found["outputs"])
    for source in found["inputs"]:  # paths relative to ROOT, as esbuild read them
        if not source.startswith("static/"):
            raise BuildError(f"the bundle took in {source}, from outside static/")
        if source not in written:
            (site / source).unlink(missing_ok=True)
    for folder in sorted((p for p in (site / "static").rglob("*") if p.is_dir()), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
    return written
