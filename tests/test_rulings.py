"""Every ruling in docs/rulings.md is pinned by a test that names its id."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULINGS = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
IDS = re.findall(r"^### ([a-z_]+-\d+):", RULINGS, flags=re.M)


def test_there_are_rulings():
    """The rulings file lists rulings with ids."""
    assert len(IDS) >= 5


def _test_files(procedure: str) -> list[Path]:
    """A procedure's tests: test_<id>.py for a module, test_<id>_<module>.py for each module of a package."""
    tests = ROOT / "tests"
    return sorted([*tests.glob(f"test_{procedure}.py"), *tests.glob(f"test_{procedure}_*.py")])


def _test_docstrings(path: Path) -> list[str]:
    """The docstrings of the test functions in a file (a comment or a helper's docstring names no test)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        ast.get_docstring(node) or ""
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_")
    ]


@pytest.mark.parametrize("ruling", IDS)
def test_ruling_is_tested(ruling):
    """Each ruling id opens the docstring of a test of its procedure ("ten_again-3: …")."""
    procedure = ruling.rsplit("-", 1)[0]
    test_files = _test_files(procedure)
    assert test_files, f"tests/test_{procedure}.py (or test_{procedure}_*.py) missing for ruling {ruling}"
    named = re.compile(rf"^(?:[a-z_]+-\d+, )*{re.escape(ruling)}\b")
    assert any(named.match(doc) for f in test_files for doc in _test_docstrings(f)), (
        f"no test in {', '.join(f.name for f in test_files)} names ruling {ruling} at the start of its docstring"
    )


def test_a_ruling_named_only_in_a_comment_does_not_count(tmp_path):
    """The check reads test docstrings only: an id in a comment or in a helper's docstring is not a test."""
    f = tmp_path / "test_x.py"
    f.write_text(
        '# x-1: a comment\ndef helper():\n    """x-2: a helper"""\n\ndef test_it():\n    """x-3: a test"""\n',
        encoding="utf-8",
    )
    assert _test_docstrings(f) == ["x-3: a test"]


@pytest.mark.parametrize("ruling", IDS)
def test_ruling_quotes_its_seed(ruling):
    """Each ruling quotes the sentence it rests on, word for word from the seed text."""
    from arbiter import api

    procedure = ruling.rsplit("-", 1)[0]
    seed = next(s["seed"] for s in api.systems() if s["id"] == procedure)
    text = " ".join((ROOT / "docs" / "seeds" / seed).read_text(encoding="utf-8").split())
    block = RULINGS.split(f"### {ruling}:", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    quotes = [" ".join(q.split()) for q in re.findall(r"^> (.+)$", block, flags=re.M)]
    assert quotes, f"ruling {ruling} quotes no sentence"
    for q in quotes:
        assert q.strip('"“” ') in text, f"ruling {ruling} quotes text not in {seed}: {q!r}"
