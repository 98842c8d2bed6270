#!/usr/bin/env python3
"""Build, serve and test Arbiter, with the standard library only.

    python3 build.py              assemble dist/: the page, static/, a pinned Pyodide and its memory snapshot
    python3 build.py serve        build, then serve dist/ on http://127.0.0.1:8000/ (--port N, 0 = any free;
                                  --base /arbiter/ to serve it under a sub-path, as GitHub Pages does)
    python3 build.py test [ARGS]  set up .venv and a Chromium, build, run pytest over tests/ on several workers
                                  (ARGS go to pytest; `-n 0` runs it in one process)
    python3 build.py format       write the formatters' layout: Biome (the JavaScript), ruff (the Python)
    python3 build.py shots        build, then save the README's phone screenshots (each procedure after a roll, a
                                  follow-up's odds, the log's luck; light and dark, 360 × 640) into docs/screenshots/
    python3 build.py bench [ARGS] build, then time start-up in headless Chromium against stock Pyodide, and run
                                  the odds benchmarks and the long monkey of tests/browser/test_monkey.py
                                  (pytest --benchmark-only; ARGS go to pytest)
    python3 build.py lighthouse   build, then run Lighthouse's mobile preset on the site (--runs N, 3 by default;
                                  --keep DIR keeps each run's report and trace): scores and long tasks of each run
    python3 build.py --procedures DIR [COMMAND ...]
                                  the same, with the procedures of DIR too (each package or module of it, as
                                  docs/architecture.md's "Adding a procedure" says): in the page, its snapshot, and
                                  for `test` in the tests' registry (it sets ARBITER_PROCEDURES, which they inherit)

Pyodide comes from npm (`npm pack`) once, checked against the hash pinned in py/tools/fetch.py and kept in .cache/.
Node runs that Pyodide at build time (py/tools/pyodide_build.mjs) to precompile the stdlib and take the memory
snapshot the page restores; both are cached in .cache/ by the hashes of their inputs, so a rebuild needs no network.
Each step is a module of py/tools/ (its __init__.py lists them); this file is their command line.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("build.py needs Python 3.11 or newer")

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "py"))  # the package `tools` (py/tools/), one module per step

from tools import CACHE, PROCEDURES_ENV, BuildError, procedure_folders  # noqa: E402
from tools.bundle import bundle  # noqa: E402
from tools.doors import engine_doors, write_doors  # noqa: E402
from tools.fetch import PYODIDE_FILES, fetch_pyodide, unpack_pyodide  # noqa: E402
from tools.formatters import biome, ruff, run_all  # noqa: E402
from tools.icons import write_icons, write_manifest  # noqa: E402
from tools.lighthouse import lighthouse  # noqa: E402
from tools.page import BOOT, engine_systems, engine_table_spec, write_page  # noqa: E402
from tools.server import Server  # noqa: E402
from tools.snapshot import memory_snapshot, stripped_runtime, write_download_sizes  # noqa: E402
from tools.sw import write_service_worker  # noqa: E402
from tools.testenv import (  # noqa: E402
    BUILT_DIST_ENV,
    ensure_browsers,
    ensure_venv,
    run_pytest,
    with_default_paths,
    with_workers,
)
from tools.vendor import write_vendored  # noqa: E402
from tools.wheel import build_wheel  # noqa: E402

DIST = ROOT / "dist"
BENCH_STARTUP = ROOT / "py" / "tools" / "bench_startup.py"
SCREENSHOTS = ROOT / "py" / "tools" / "screenshots.py"


def build(dist: Path = DIST, cache: Path = CACHE, procedures: list[Path] | None = None) -> Path:
    """Assemble `dist`: index.html, static/, pyodide/ (the runtime and its memory snapshot), the manifest and
    its icons, the QR encoder and decoder (static/vendor/, loaded only when asked), and sw.js, which lists all of
    them. `procedures`: folders of procedures from outside arbiter, in the forms and the snapshot (by default those
    of --procedures, ARBITER_PROCEDURES; none without it)."""
    procedures = procedure_folders() if procedures is None else procedures
    runtime = unpack_pyodide(fetch_pyodide(cache), cache)
    staging = dist.parent / f".{dist.name}.building"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir(parents=True)
        write_page(staging, engine_systems(procedures), engine_table_spec(procedures))
        shutil.copytree(
            ROOT / "static", staging / "static", ignore=shutil.ignore_patterns(".*", "__pycache__", "*~", "README.md")
        )
        (staging / BOOT.relative_to(ROOT)).unlink()  # the page's first script, inline in index.html (write_page)
        bundle(staging, cache)  # the page's modules as two bundles and their shared chunk (py/tools/bundle.py)
        write_doors(staging, engine_doors())  # api.DOORS, the methods the worker and its client offer
        write_vendored(staging, cache)  # the QR encoder and decoder, loaded only when asked (py/tools/vendor.py)
        (staging / ".nojekyll").touch()  # GitHub Pages: serve the files as they are
        with tempfile.TemporaryDirectory(prefix="arbiter-wheel-") as tmp:
            snapshot = memory_snapshot(runtime, build_wheel(Path(tmp), procedures=procedures), cache)
        pyodide = staging / "pyodide"
        pyodide.mkdir()
        served, _ = stripped_runtime(runtime, cache)
        for name in PYODIDE_FILES:
            shutil.copyfile(served / name, pyodide / name)
        shutil.copyfile(snapshot, pyodide / "snapshot.bin")
        write_download_sizes(staging)
        write_icons(staging, cache)
        write_manifest(staging)
        write_service_worker(staging)
        shutil.rmtree(dist, ignore_errors=True)
        os.replace(staging, dist)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dist


def serve(port: int = 8000, rebuild: bool = True, base: str = "/") -> int:
    dist = build() if rebuild else DIST
    base = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    with Server({base: dist}, port, quiet=False) as server:
        print(f"Serving {dist.relative_to(ROOT)}/ at {server.url}{base[1:]}  (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def test(pytest_args: list[str]) -> int:
    """Build once, then run pytest on several workers (py/tools/testenv.py's with_workers; `-n 0` or `-p no:xdist`
    in the arguments runs it serially), every worker serving that one build."""
    python = ensure_venv()
    ensure_browsers(python)
    dist = build()
    # Benchmarks run once here, as plain tests; `build.py bench` times them.
    args = ["--benchmark-disable", *with_workers(with_default_paths(pytest_args))]
    return run_pytest(python, args, env={BUILT_DIST_ENV: str(dist)})


def format_code() -> int:
    """Write the formatters' layout: Biome over the JavaScript, ruff's format and lint fixes over the Python."""
    code, out = run_all([biome(write=True), *ruff(ensure_venv(), write=True)])
    print(out, flush=True)
    return code


def bench(args: list[str]) -> int:
    """Start-up in headless Chromium against stock Pyodide (py/tools/bench_startup.py; `--runs N`, 5 by default), then
    the odds benchmarks and the long monkey (pytest-benchmark; the other arguments go to pytest). `--startup-only`
    skips the latter."""
    runs, startup_only, pytest_args = 5, False, []
    it = iter(args)
    for arg in it:
        if arg == "--runs":
            runs = int(next(it))
        elif arg.startswith("--runs="):
            runs = int(arg.split("=", 1)[1])
        elif arg == "--startup-only":
            startup_only = True
        else:
            pytest_args.append(arg)
    python = ensure_venv()
    ensure_browsers(python)
    dist = build()
    code = subprocess.call([str(python), str(BENCH_STARTUP), str(dist), "--runs", str(runs)], cwd=ROOT)
    if code or startup_only:
        return code
    return run_pytest(python, ["--benchmark-only", "-rfE", *with_default_paths(pytest_args)])


def shots() -> int:
    """The README's pictures (py/tools/screenshots.py, run with the test venv's Playwright)."""
    python = ensure_venv()
    ensure_browsers(python)
    dist = build()
    return subprocess.call([str(python), str(SCREENSHOTS), str(dist), str(ROOT / "docs" / "screenshots")], cwd=ROOT)


def take_procedures(argv: list[str]) -> list[str]:
    """`--procedures DIR` (any number of them, before the command) put in ARBITER_PROCEDURES, for this build and every
    process it starts (pytest's registry and build, under `test`); the rest of `argv`. An environment variable rather
    than an argument passed down: the registry is made when arbiter is first imported, in each process."""
    folders = []
    while argv[:1] == ["--procedures"]:
        if len(argv) < 2:
            raise SystemExit("build.py: error: --procedures needs a folder")
        folders.append(argv[1])
        argv = argv[2:]
    for folder in folders:
        if not Path(folder).is_dir():
            raise SystemExit(f"build.py: error: --procedures {folder}: no such folder")
    if folders:
        known = [f for f in os.environ.get(PROCEDURES_ENV, "").split(os.pathsep) if f]
        os.environ[PROCEDURES_ENV] = os.pathsep.join([*(str(Path(f).resolve()) for f in folders), *known])
    return argv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="build.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--procedures",
        metavar="DIR",
        action="append",
        help="before the command: take the procedures of DIR too (ARBITER_PROCEDURES)",
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="assemble dist/ (the default)")
    serve_cmd = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_cmd.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one")
    serve_cmd.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    serve_cmd.add_argument(
        "--base", default="/", help="URL path to serve the site under, e.g. /arbiter/ as on GitHub Pages (default /)"
    )
    commands.add_parser(
        "test", help="set up .venv and the browsers, build, run every test; further arguments go to pytest"
    )
    commands.add_parser("format", help="write the formatters' layout: Biome (JavaScript) and ruff (Python)")
    commands.add_parser("shots", help="build, then save the README's phone screenshots into docs/screenshots/")
    lh_cmd = commands.add_parser("lighthouse", help="build, then run Lighthouse's mobile preset on the site N times")
    lh_cmd.add_argument("--runs", type=int, default=3, help="how many runs (default 3)")
    lh_cmd.add_argument("--keep", type=Path, default=None, help="a folder for each run's report and trace")
    lh_cmd.add_argument("--no-build", action="store_true", help="measure dist/ as it is")
    commands.add_parser(
        "bench",
        help="time start-up against stock Pyodide (--runs N, --startup-only), then the odds "
        "benchmarks; further arguments go to pytest",
    )
    argv = take_procedures(sys.argv[1:] if argv is None else list(argv))
    pytest_args = argv[1:] if argv[:1] in (["test"], ["bench"]) else []  # passed on untouched, options and all
    args = parser.parse_args(argv[:1] if argv[:1] in (["test"], ["bench"]) else argv)
    try:
        if args.command == "serve":
            return serve(args.port, rebuild=not args.no_build, base=args.base)
        if args.command == "test":
            return test(pytest_args)
        if args.command == "format":
            return format_code()
        if args.command == "shots":
            return shots()
        if args.command == "bench":
            return bench(pytest_args)
        if args.command == "lighthouse":
            ensure_browsers(ensure_venv())
            return lighthouse(DIST if args.no_build else build(), args.runs, args.keep)
        dist = build()
        print(f"Built {dist.relative_to(ROOT)}/")
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
