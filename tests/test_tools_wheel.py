"""py/tools/wheel.py: the arbiter wheel, deterministic, complete, true to its RECORD, installable."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from tools import ROOT
from tools.wheel import WHEEL_DATE, build_wheel

PACKAGE = ROOT / "py" / "arbiter"


def test_wheel_is_deterministic(tmp_path):
    """Building the wheel twice gives the same bytes."""
    first = build_wheel(tmp_path / "a")
    second = build_wheel(tmp_path / "b")
    assert first.name == "arbiter-0.1.0-py3-none-any.whl"
    assert first.read_bytes() == second.read_bytes()


def test_wheel_holds_the_package_and_a_true_record(tmp_path):
    """The wheel has every source file of py/arbiter, no bytecode, fixed dates, and a RECORD whose hashes hold."""
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        sources = {
            f"arbiter/{p.relative_to(PACKAGE).as_posix()}"
            for p in PACKAGE.rglob("*.py")
            if "__pycache__" not in p.parts
        }
        assert sources and sources <= set(names)
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        assert {i.date_time for i in zf.infolist()} == {WHEEL_DATE}
        record = zf.read("arbiter-0.1.0.dist-info/RECORD").decode().splitlines()
        assert {line.split(",")[0] for line in record} == set(names)
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            if path.endswith("RECORD"):
                assert digest == size == ""
                continue
            data = zf.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={want}", len(data)), path
        metadata = zf.read("arbiter-0.1.0.dist-info/METADATA").decode()
        assert "Name: arbiter\n" in metadata and "Version: 0.1.0\n" in metadata
        assert "Tag: py3-none-any" in zf.read("arbiter-0.1.0.dist-info/WHEEL").decode()


def test_wheel_installs_and_imports(tmp_path):
    """pip installs the wheel offline, and the installed package imports its API and knows its version."""
    wheel = build_wheel(tmp_path / "wheels")
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    assert (target / "bin" / "arbiter").exists(), "the console script from [project.scripts]"
    probe = (
        "import arbiter, arbiter.api, importlib.metadata as m; "
        "print(arbiter.__file__); print(m.version('arbiter')); print(len(arbiter.api.systems()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert Path(out[0]).is_relative_to(target)
    assert out[1] == "0.1.0" and int(out[2]) >= 1


TOYS = ROOT / "tests" / "procedures"


def test_wheel_carries_procedures_from_outside_only_when_asked(tmp_path):
    """build.py --procedures: each package of the folder joins the namespace arbiter.procedures looks in
    (arbiter_procedures/), which the installed wheel registers; without it the wheel is the same bytes as ever."""
    from arbiter import procedures
    import tools

    assert (tools.PROCEDURES_ENV, tools.PROCEDURES_NAMESPACE) == (procedures.MORE_ENV, procedures.MORE)
    assert build_wheel(tmp_path / "a", procedures=[]).read_bytes() == build_wheel(tmp_path / "b").read_bytes()
    wheel = build_wheel(tmp_path / "c", procedures=[TOYS])
    with zipfile.ZipFile(wheel) as zf:
        toy = [n for n in zf.namelist() if not n.startswith(("arbiter/", "arbiter-"))]
        assert toy == ["arbiter_procedures/coin/__init__.py", "arbiter_procedures/d20_check/__init__.py"]
        zf.extractall(tmp_path / "site")
    probe = "import json; from arbiter import api; print(json.dumps([s['id'] for s in api.systems()]))"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path / "site")},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)[-2:] == ["coin", "d20_check"]
