"""A command-line tool from npm, pinned by a package-lock.json of ours (every package with its integrity hash) and
installed once with `npm ci` into .cache/ (again only when the lock file changes): esbuild for the bundle step,
Lighthouse for `build.py lighthouse`. Neither is ever shipped."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from . import CACHE, run


def npm_tool(spec: Path, command: str, cache: Path = CACHE) -> Path:
    """The path of `command` (node_modules/.bin/COMMAND) installed from `spec`/package.json and package-lock.json."""
    lock = (spec / "package-lock.json").read_bytes()
    home = cache / f"{spec.name}-{hashlib.sha256(lock).hexdigest()[:12]}"
    cli = home / "node_modules" / ".bin" / command
    if not cli.exists():
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(spec / name, home / name)
        print(f"Installing {spec.name} (npm ci, pinned) …", flush=True)
        run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=home, what="npm comes with Node.js")
    return cli
