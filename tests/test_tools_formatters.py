"""py/tools/formatters.py: a pinned formatter owns the layout of every JavaScript and Python file, and would change
none of them (`python3 build.py format` writes it); each can fail."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from tools.formatters import JAVASCRIPT, PYTHON, biome, ruff, run_all

ROOT = Path(__file__).resolve().parent.parent


def test_biome_would_change_no_javascript_file():
    """Biome (pinned by py/tools/biome/) would change no JavaScript file of the page, its tests or its tools."""
    code, out = run_all([biome(write=False)])
    assert code == 0, out


def test_ruff_would_change_no_python_file():
    """ruff's format and its lint (pinned in .ci/requirements-test.txt) pass over py/, tests/ and build.py."""
    code, out = run_all(ruff(Path(sys.executable), write=False))
    assert code == 0, out


def test_the_checks_can_fail(tmp_path):
    """A squeezed JavaScript line and a squeezed Python line, in copies, are each refused; the copies as they are pass."""
    (tmp_path / "py").mkdir()
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "ok.js").write_text("export const a = (x) => x + 1;\n", encoding="utf-8")
    (tmp_path / "py" / "ok.py").write_text("def a(x):\n    return x + 1\n", encoding="utf-8")
    assert run_all([biome(False, ("ok.js",), tmp_path)], tmp_path)[0] == 0
    assert run_all(ruff(Path(sys.executable), False, ("py",)), tmp_path)[0] == 0
    (tmp_path / "bad.js").write_text('export const a = (x) => { return x + 1 }; export const b = "b";\n', "utf-8")
    (tmp_path / "py" / "bad.py").write_text("def a(x): return x+1\n", encoding="utf-8")
    assert run_all([biome(False, ("bad.js",), tmp_path)], tmp_path)[0] != 0
    assert run_all(ruff(Path(sys.executable), False, ("py",)), tmp_path)[0] != 0


def test_every_source_is_under_a_formatter():
    """Each JavaScript and Python file of the project lies under the paths the formatters are given."""
    js = {p for p in ROOT.glob("**/*.*js") if p.suffix in (".js", ".mjs")}
    py = set(ROOT.glob("**/*.py"))
    skip = (".cache", ".venv", "dist", "node_modules", ".git")
    for path in js | py:
        rel = path.relative_to(ROOT)
        if rel.parts[0] in skip or "node_modules" in rel.parts:
            continue
        given = JAVASCRIPT if path in js else PYTHON
        assert any(rel == Path(g) or Path(g) in rel.parents for g in given), rel
