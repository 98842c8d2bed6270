"""The formatters that own the layout: Biome for the JavaScript (pinned by our lock file in py/tools/biome/, with its
config there: spaces, single quotes, 120 columns) and ruff for the Python (pinned in .ci/requirements-test.txt, so in
the test venv; configured in pyproject.toml). `build.py format` writes their layout; tests/test_tools_formatters.py
checks, as `build.py test` runs it, that neither would change a file."""

from __future__ import annotations

import subprocess
from pathlib import Path

from . import CACHE, ROOT
from .npmtool import npm_tool

BIOME = Path(__file__).resolve().parent / "biome"  # package.json, package-lock.json and biome.json
JAVASCRIPT = ("static", "tests/js", "py/tools/sw.js", "py/tools/pyodide_build.mjs")
PYTHON = ("py", "tests", "build.py")


def biome(write: bool, paths: tuple[str, ...] = JAVASCRIPT, root: Path = ROOT, cache: Path = CACHE) -> list[str]:
    """Biome's formatter over `paths` (relative to `root`): writing its layout, or only checking it."""
    cli = npm_tool(BIOME, "biome", cache)
    return [
        str(cli),
        "format",
        f"--config-path={BIOME}",
        "--max-diagnostics=none",
        *(["--write"] if write else []),
        *paths,
    ]


def ruff(python: Path, write: bool, paths: tuple[str, ...] = PYTHON) -> list[list[str]]:
    """ruff (the test venv's `python -m ruff`) over `paths`: its format and its lint, writing fixes or checking."""
    ruff_ = [str(python), "-m", "ruff"]
    return [
        [*ruff_, "format", *([] if write else ["--check"]), *paths],
        [*ruff_, "check", *(["--fix"] if write else []), *paths],
    ]


def run_all(commands: list[list[str]], root: Path = ROOT) -> tuple[int, str]:
    """Run each command in `root`; the first non-zero exit code (0 if none) and everything they printed."""
    code, out = 0, []
    for cmd in commands:
        done = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
        out.append(done.stdout + done.stderr)
        code = code or done.returncode
    return code, "\n".join(out)
