"""py/tools/testenv.py: pytest's exit code passed on, no tests counted as a failure, and `tests` run unless the
arguments name paths of their own."""

from __future__ import annotations

import sys

import pytest

from tools.testenv import run_pytest, with_default_paths


@pytest.mark.parametrize(
    "test_source, code",
    [
        (None, 1),
        ("def test_ok():\n    pass\n", 0),
        ("def test_bad():\n    assert False\n", 1),
    ],
)
def test_run_pytest_counts_no_tests_as_failure(tmp_path, test_source, code):
    """`build.py test` passes pytest's exit code on, except that 'no tests ran' (exit 5) is a failure."""
    if test_source is not None:
        (tmp_path / "test_one.py").write_text(test_source)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    args = ["-q", "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), str(tmp_path)]
    assert run_pytest(sys.executable, args, cwd=tmp_path) == code


@pytest.mark.parametrize(
    "args, want",
    [
        ([], ["tests"]),
        (["-q", "-k", "wheel"], ["tests", "-q", "-k", "wheel"]),
        (["tests/test_build.py", "-x"], ["tests/test_build.py", "-x"]),
        (["tests/browser/test_page.py::test_tabs", "-q"], ["tests/browser/test_page.py::test_tabs", "-q"]),
    ],
)
def test_tests_are_run_unless_paths_are_named(args, want):
    """`build.py test ARGS` runs tests/ with ARGS, or only the test paths ARGS name."""
    assert with_default_paths(args) == want
