"""Fixtures every page test shares, whatever drives the browser: the site built once per session, build.py's own
server for it, and headless Chromium through Playwright (tests/browser/ and the Chromium run of tests/engines/)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tools.server import Server  # noqa: E402
from tools.testenv import CHROMIUM_ARGS, chromium_path  # noqa: E402


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The site, built once per session from the cached downloads (no network after the first build)."""
    return build.build(tmp_path_factory.mktemp("site") / "dist")


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
