"""Fixtures every page test shares, whatever drives the browser: the site built once for the run, build.py's own
server for it, and headless Chromium through Playwright (tests/browser/ and the Chromium run of tests/engines/).
Under pytest-xdist (`build.py test` runs several workers) each worker has its own server and browsers; only the
built site and .cache/ are shared, and builds wait for each other."""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tools.server import Server  # noqa: E402
from tools.testenv import BUILT_DIST_ENV, CHROMIUM_ARGS, chromium_path  # noqa: E402

pytest_plugins = ["cpu_report"]  # CPU seconds per test, when ARBITER_CPU_REPORT is set (tests/cpu_report.py)


def _shared_temp(tmp_path_factory) -> Path:
    """The temporary folder of the whole run: every pytest-xdist worker's base temp is a folder of it."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def build_site(tmp_path_factory):
    """`build_site(target, procedures=None)`: build.build into `target`, one build at a time across all the run's
    workers (they share .cache/, whose entries a build writes when its inputs are new)."""
    lock_path = _shared_temp(tmp_path_factory) / "build.lock"

    def build_(target: Path, procedures: list[Path] | None = None, **kwargs) -> Path:
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                return build.build(target, procedures=procedures, **kwargs)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    return build_


@pytest.fixture(scope="session")
def dist(build_once) -> Path:
    """The site, built once for the whole run: the one `build.py test` built before pytest started
    ($ARBITER_BUILT_DIST), else by the first worker that needs it, from the cached downloads (no network after the
    first build). Tests read it; one that changes a site copies it first."""
    built = os.environ.get(BUILT_DIST_ENV)
    if built:
        return Path(built)
    return build_once("site")


@pytest.fixture(scope="session")
def build_once(tmp_path_factory, build_site):
    """`build_once(name, procedures=None)`: the site `name` (built with `procedures`), built once for the whole run
    in its temporary folder, by the first worker or module that asks while the others wait, then served from there
    to all of them."""

    def build_(name: str, procedures: list[Path] | None = None) -> Path:
        target = _shared_temp(tmp_path_factory) / name / "dist"
        with open(_shared_temp(tmp_path_factory) / f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                return target if (target / "index.html").is_file() else build_site(target, procedures=procedures)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    return build_


@pytest.fixture(scope="session")
def server(dist):
    """build.py's own static server (py/tools/server.py) on 127.0.0.1, on a free port."""
    srv = Server(dist).start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def playwright_session():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session):
    chromium = playwright_session.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
    yield chromium
    chromium.close()
