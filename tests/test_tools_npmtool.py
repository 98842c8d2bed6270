"""py/tools/npmtool.py: a pinned npm tool, installed from our lock file into the cache once, and again when the lock
changes."""

from __future__ import annotations

import json
import subprocess

from tools.bundle import ESBUILD
from tools.npmtool import npm_tool


def test_esbuild_is_the_version_the_lock_pins():
    """The esbuild the build runs is the one py/tools/esbuild/package-lock.json names, installed under a name that
    changes with the lock file."""
    cli = npm_tool(ESBUILD, "esbuild")
    pinned = json.loads((ESBUILD / "package-lock.json").read_text())["packages"]["node_modules/esbuild"]["version"]
    assert subprocess.run([str(cli), "--version"], capture_output=True, text=True, check=True).stdout.strip() == pinned
    assert cli.parents[2].name.startswith("esbuild-") and npm_tool(ESBUILD, "esbuild") == cli
