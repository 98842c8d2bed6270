"""Build-time tools, one job per module, run by build.py (the CLI) with the standard library only.

    fetch.py     the pinned Pyodide (and the tests' axe-core): npm pack, the integrity check, unpacking, the cache of
                 made files
    wheel.py     the arbiter wheel, the same bytes from the same sources
    snapshot.py  Pyodide under Node: the precompiled stdlib, the memory snapshot, the wasm's big data segments,
                 the two big downloads' sizes written into the built worker (its loading bar counts them)
    page.py      index.html: the forms and tabs from arbiter.api.systems(), the rulings, the first script
    bundle.py    dist/static's main.js and table/index.js, each bundled with what it imports (esbuild)
    doors.py     arbiter.api's doors (api.DOORS) written into the built worker and its client
    npmtool.py   a pinned npm tool (esbuild, Lighthouse, Biome) installed once with npm ci into .cache/
    formatters.py  Biome (the JavaScript) and ruff (the Python) own the layout: `build.py format` writes it
    icons.py     the app's icons (drawn here, written as PNG) and its manifest
    vendor.py    the npm files the page loads only when asked (the QR encoder and decoder), pinned; which files are lazy
    sw.py        dist/sw.js from sw.js: every file of the build with its hash, the lazy ones apart
    server.py    the static server of `build.py serve`, the browser tests and the bench (gzip, ETag, mounts)
    testenv.py   the test venv, the browsers, pytest

Files used by them: pyodide_build.mjs and snapshot_setup.py (run under Node, see snapshot.py), sw.js (the service
worker's template); bench_startup.py (the start-up bench of `build.py bench`) and screenshots.py (the README's phone
pictures, `build.py shots`) run with the test venv's Python, which has Playwright; lighthouse.py (`build.py
lighthouse`) runs the pinned Lighthouse on the built site.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache"


# Procedures from outside arbiter (`build.py --procedures DIR`): the variable that names their folders (os.pathsep
# between them) and the namespace their packages join, as arbiter.procedures reads them (MORE_ENV, MORE).
PROCEDURES_ENV, PROCEDURES_NAMESPACE = "ARBITER_PROCEDURES", "arbiter_procedures"


def procedure_folders() -> list[Path]:
    """The folders of procedures from outside arbiter that this build takes (PROCEDURES_ENV), none by default."""
    return [Path(f).resolve() for f in os.environ.get(PROCEDURES_ENV, "").split(os.pathsep) if f]


class BuildError(Exception):
    """A build step that cannot go on; the message says what to do."""


def run(cmd: list[str], cwd: Path | None = None, what: str = "") -> None:
    """Run `cmd`; a BuildError with its output if it fails, or with `what` if the program is missing."""
    try:
        result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{cmd[0]} not found: {what or 'it is needed for this step'}") from None
    if result.returncode:
        raise BuildError(f"{' '.join(cmd)} failed with exit code {result.returncode}:\n{result.stdout}{result.stderr}")
