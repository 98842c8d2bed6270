"""py/tools/testenv.py: pytest's exit code passed on, no tests counted as a failure (on workers too), `tests` run
unless the arguments name paths of their own, and pytest-xdist's workers unless the arguments choose."""

from __future__ import annotations

import sys

import pytest

from tools.testenv import run_pytest, with_default_paths, with_workers, workers


@pytest.mark.parametrize("workers_args", [[], ["-n", "2"]], ids=["serial", "two workers"])
@pytest.mark.parametrize(
    "test_source, code",
    [
        (None, 1),
        ("def test_ok():\n    pass\n", 0),
        ("def test_bad():\n    assert False\n", 1),
    ],
)
def test_run_pytest_counts_no_tests_as_failure(tmp_path, test_source, code, workers_args):
    """`build.py test` passes pytest's exit code on, except that 'no tests ran' (exit 5) is a failure, on
    pytest-xdist's workers as in one process."""
    if test_source is not None:
        (tmp_path / "test_one.py").write_text(test_source)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    args = ["-q", "-p", "no:cacheprovider", "-c", str(tmp_path / "pytest.ini"), *workers_args, str(tmp_path)]
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


@pytest.mark.parametrize(
    "args, want",
    [
        ([], ["-n", "3", "--dist", "load"]),
        (["tests/test_build.py", "-x"], ["-n", "3", "--dist", "load", "tests/test_build.py", "-x"]),
        (["-n", "0"], ["--dist", "load", "-n", "0"]),
        (["-n3", "-q"], ["--dist", "load", "-n3", "-q"]),
        (["--numprocesses=auto"], ["--dist", "load", "--numprocesses=auto"]),
        (["--dist", "loadfile"], ["-n", "3", "--dist", "loadfile"]),
        (["--dist=load", "-n", "2"], ["--dist=load", "-n", "2"]),
        (["-p", "no:xdist", "-q"], ["-p", "no:xdist", "-q"]),
        (["-pno:xdist"], ["-pno:xdist"]),
        (["--pdb", "tests/test_build.py"], ["--pdb", "tests/test_build.py"]),
        (["--trace"], ["--trace"]),
    ],
)
def test_workers_are_added_unless_the_arguments_choose(args, want):
    """`build.py test` runs a worker more than the cores, each taking the next test when free, unless its arguments say
    how many workers (`-n 0`: none), how to spread the tests, or run serially (xdist off, a debugger)."""
    assert with_workers(args, cpus=2) == want


def test_more_workers_than_cores():
    """One worker more than the cores (the browser tests often wait), so two on a one-core machine."""
    assert (workers(1), workers(2), workers(8)) == (2, 3, 9)
