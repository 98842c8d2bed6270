"""One shape for every procedure of py/arbiter (issue 31; docs/contributing.md#one-job-per-file): a package, never a
single module, with each job the protocol asks for in the module named for it: `rolling` (roll, act), `exact`
(odds), `after` (the odds between the choices and the headline: procedures.py's PROTOCOL), `roll_json` (ROLL and
EXAMPLE_REQUESTS); a sheet in `sheet` (or in `table`, with what the table keeps), the table's members in `table`.
The check reads the files' syntax trees, and is shown to catch a single module and a package missing a job, planted
in a copy."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from arbiter import procedures
from arbiter.procedures import PROCEDURES, PROTOCOL

PACKAGE = Path(procedures.__file__).resolve().parent
TOYS = Path(__file__).resolve().parent / "procedures"

# job module -> the members of the protocol it defines (every procedure has these jobs)
JOBS = {
    "rolling": ("roll", "act"),
    "exact": ("odds",),
    "after": PROTOCOL,
    "roll_json": ("ROLL", "EXAMPLE_REQUESTS"),
}
# a member a procedure may declare -> the modules one of which defines it, when the procedure has it
MAY = {
    "SHEET": ("sheet", "table"),
    "request_from_sheet": ("sheet", "table"),
    "TABLE": ("table",),
    "TABLE_OPS": ("table",),
    "costs": ("table",),
    "follows": ("table",),
}


def _defined(module: Path) -> set[str]:
    """The names a module defines at its top level (a def, a class, an assignment), not those it imports."""
    out = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _declared(package: Path) -> set[str]:
    """What the package declares: every name its modules define (the package's `__init__` gathers them)."""
    return {name for module in package.glob("*.py") for name in _defined(module)}


def shape_problems(path: Path) -> list[str]:
    """Why the procedure at `path` (its package's folder, or a module) is not of the one shape; [] when it is."""
    if path.is_file():
        return [f"{path.name}: a procedure is a package (a folder with __init__.py), not a single module"]
    if not (path / "__init__.py").is_file():
        return [f"{path.name}/: no __init__.py"]
    problems = []
    for job, members in JOBS.items():
        module = path / f"{job}.py"
        if not module.is_file():
            problems.append(f"{path.name}/{job}.py is missing (it holds {', '.join(members)})")
            continue
        missing = [m for m in members if m not in _defined(module)]
        if missing:
            problems.append(f"{path.name}/{job}.py does not define {', '.join(missing)}")
    declared = _declared(path)
    for member, homes in MAY.items():
        if member in declared and not any(
            (path / f"{home}.py").is_file() and member in _defined(path / f"{home}.py") for home in homes
        ):
            problems.append(f"{path.name}: {member} belongs in {' or '.join(f'{h}.py' for h in homes)}")
    return problems


def _own() -> list[Path]:
    """Each procedure of the package: its folder, or its file when it is a single module."""
    out = []
    for m in PROCEDURES.values():
        path = Path(m.__file__).resolve()
        if PACKAGE in path.parents:
            out.append(path.parent if path.name == "__init__.py" else path)
    return sorted(out)


def _looks_like_a_procedure(module: Path) -> bool:
    return {"ID", "roll", "act", "odds"} <= _defined(module)


def test_the_package_has_its_six_procedures():
    """The check reads every procedure of py/arbiter (none from outside it)."""
    assert [p.name for p in _own()] == ["ability_test", "arbitration", "luck", "ten_again", "threat", "two_dice"]


@pytest.mark.parametrize("path", _own(), ids=lambda p: p.name)
def test_every_procedure_is_a_package_with_a_module_per_job(path):
    assert shape_problems(path) == []


def test_no_single_module_of_py_arbiter_is_a_procedure():
    """No module directly in py/arbiter defines a procedure (an ID, roll, act and odds), registered or not."""
    assert [p.name for p in sorted(PACKAGE.glob("*.py")) if _looks_like_a_procedure(p)] == []


def test_a_planted_single_module_is_caught(tmp_path):
    """The coin from outside (tests/procedures/coin/), planted as one module in a copy of py/arbiter, is caught by
    both checks: as a procedure written as a single module, and by its shape."""
    copy = tmp_path / "arbiter"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    planted = copy / "coin.py"
    shutil.copy(TOYS / "coin" / "__init__.py", planted)
    assert [p.name for p in sorted(copy.glob("*.py")) if _looks_like_a_procedure(p)] == ["coin.py"]
    assert shape_problems(planted) == [
        "coin.py: a procedure is a package (a folder with __init__.py), not a single module"
    ]


@pytest.mark.parametrize(
    "plant, problem",
    [
        (lambda p: (p / "exact.py").unlink(), "arbitration/exact.py is missing (it holds odds)"),
        (
            lambda p: (p / "after.py").write_text(
                (p / "after.py").read_text(encoding="utf-8").replace("def luck(", "def lucky("), encoding="utf-8"
            ),
            "arbitration/after.py does not define luck",
        ),
        (
            lambda p: (
                (p / "sheet.py").unlink()
                or (p / "rolling.py").write_text(
                    (p / "rolling.py").read_text(encoding="utf-8") + '\nSHEET = Record("sheet", "Arbitration", ())\n',
                    encoding="utf-8",
                )
            ),
            "arbitration: SHEET belongs in sheet.py or table.py",
        ),
    ],
    ids=["a job's module missing", "a protocol member elsewhere", "the sheet in rolling"],
)
def test_a_package_missing_a_job_is_caught(tmp_path, plant, problem):
    """A copy of arbitration without exact.py, with `luck` renamed in after.py, or with its sheet moved into rolling.py
    is refused, naming what is wrong; the copy as it is passes."""
    copy = tmp_path / "arbitration"
    shutil.copytree(PACKAGE / "arbitration", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert shape_problems(copy) == []
    plant(copy)
    assert problem in shape_problems(copy)
