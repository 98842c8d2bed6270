"""What `build.py test` and `build.py bench` stand on: the test venv (pinned requirements with hashes), every
browser engine the tests drive (Debian's packages when root), and pytest, for which collecting no test fails, run on
several workers (pytest-xdist) by `build.py test`."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from . import ROOT, run

VENV = ROOT / ".venv"
REQUIREMENTS = ROOT / ".ci" / "requirements-test.txt"


def ensure_venv(venv: Path = VENV, requirements: Path = REQUIREMENTS) -> Path:
    """The test venv's python, created if missing and reinstalled when the pinned requirements change."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"Creating {venv} …", flush=True)
        run(
            [sys.executable, "-m", "venv", str(venv)],
            what="Python's venv module is needed (Debian: apt-get install python3-venv)",
        )
    stamp = venv / ".arbiter-requirements.sha256"
    want = hashlib.sha256(requirements.read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text().strip() != want:
        print(f"Installing {requirements.relative_to(ROOT)} into {venv.name} …", flush=True)
        run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--require-hashes",
                "--only-binary=:all:",
                "-r",
                str(requirements),
            ]
        )
        stamp.write_text(want + "\n")
    return python


# The flags every Chromium we start gets (the tests, the bench, the screenshots, Lighthouse): no sandbox (containers),
# no GPU (none here), and none of its own traffic or updates while it is measured.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium_path() -> str | None:
    """The Chromium the browser tests drive: $ARBITER_CHROMIUM, else the system's, else None (Playwright's own)."""
    for candidate in (os.environ.get("ARBITER_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


# Debian's packages for each engine the tests drive: Chromium (Playwright), WebKitGTK (WebKitWebDriver + MiniBrowser on
# a virtual screen) and Firefox ESR (Marionette).
ENGINE_PACKAGES = {
    "chromium": ["chromium"],
    "webkit": ["webkit2gtk-driver", "xvfb", "xauth"],
    "firefox": ["firefox-esr"],
}


# Debian's packages for the programs the tests run besides the browsers: zbarimg reads back the QR code the page draws
# (tests/browser/test_qr_and_scan.py).
TEST_PROGRAMS = {"zbarimg": "zbar-tools"}


def engines_missing() -> list[str]:
    """The engines this machine cannot run yet (tests/engine_drivers.py says why, in words)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import engine_drivers

        return [e for e in ("webkit", "firefox") if engine_drivers.missing(e, python_checked=False)]
    finally:
        sys.path.remove(str(ROOT / "tests"))


def ensure_browsers(python: Path) -> None:
    """Every engine the tests drive, and TEST_PROGRAMS: Debian's packages with apt-get when root, else Playwright's
    Chromium download. WebKitGTK, Firefox and zbarimg that cannot be installed are not fatal: their tests are skipped
    and say what is missing."""
    want = [] if chromium_path() else ["chromium"]
    missing = engines_missing()
    want += [pkg for engine in missing for pkg in ENGINE_PACKAGES[engine]]
    want += [pkg for program, pkg in TEST_PROGRAMS.items() if not shutil.which(program)]
    if want and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"Installing {' '.join(want)} with apt-get …", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-q"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-q", *want], env=env, check=False)
        missing = engines_missing()
    for engine in missing:
        print(
            f"build.py: {engine} is not installed and cannot be installed here (needs root and apt-get: "
            f"{' '.join(ENGINE_PACKAGES[engine])}); its cross-engine tests will be skipped",
            flush=True,
        )
    if chromium_path():
        return
    print("Installing Playwright's Chromium …", flush=True)
    run([str(python), "-m", "playwright", "install", "chromium"])


# The site `build.py test` built before pytest starts: tests/conftest.py's `dist` serves it rather than building its
# own, so that no worker builds it again.
BUILT_DIST_ENV = "ARBITER_BUILT_DIST"

# pytest-xdist's workers for `build.py test` beyond one per core: a browser test spends much of its time waiting (on
# Pyodide's start, on the browser's own processes, on the page's timers), which one more worker fills; on 2 cores a
# fourth gained nothing over a third (docs/performance.md, "Test suite").
EXTRA_WORKERS = 1


def workers(cpus: int | None = None) -> int:
    """How many pytest-xdist workers `build.py test` starts on a machine of `cpus` cores (os.cpu_count() if None)."""
    return (cpus or os.cpu_count() or 1) + EXTRA_WORKERS


def _chooses(args: list[str], short: str, long: str) -> bool:
    """Whether `args` give the option `short`/`long` (as "-n 3", "-n3", "--numprocesses 3" or "--numprocesses=3")."""
    return any(a == long or a.startswith(long + "=") or (short and a.startswith(short)) for a in args)


def with_workers(pytest_args: list[str], cpus: int | None = None) -> list[str]:
    """`pytest_args` with `-n N --dist load` in front (N = workers(cpus)): tests handed to N workers as each frees up,
    each worker with its own server and browsers. (Not `loadgroup`: pytest-xdist 3.8.0 groups tests by rewriting
    `item._nodeid`, which pytest 9 no longer reads, so its groups are silently ignored.) Left as they are when they
    choose for themselves: `-n`/`--numprocesses` (`-n 0` runs serially), `--dist`, `-p no:xdist`, or --pdb/--trace
    (which need the test in this process)."""
    if {"no:xdist", "-pno:xdist", "--pdb", "--trace"} & set(pytest_args):
        return pytest_args
    chosen = [] if _chooses(pytest_args, "-n", "--numprocesses") else ["-n", str(workers(cpus))]
    chosen += [] if _chooses(pytest_args, "", "--dist") else ["--dist", "load"]
    return [*chosen, *pytest_args]


def run_pytest(python: Path | str, args: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> int:
    """pytest's exit code, except that collecting no tests (exit 5) is a failure too. `env`: more variables for it."""
    code = subprocess.call([str(python), "-m", "pytest", *args], cwd=cwd, env={**os.environ, **(env or {})})
    if code == 5:
        print("build.py: pytest ran no tests; counting that as a failure", file=sys.stderr)
        return 1
    return code


def with_default_paths(pytest_args: list[str]) -> list[str]:
    """`tests` unless the arguments name test paths of their own."""
    named = any((ROOT / a.split("::")[0]).exists() for a in pytest_args if not a.startswith("-"))
    return pytest_args if named else ["tests", *pytest_args]
