"""What the tests of build.py and py/tools share: a build that must not download anything."""

from __future__ import annotations

import pytest

from tools import fetch


def go_offline(monkeypatch):
    """Fail the test if the build tries to download anything from here on."""

    def no_download(cmd, *args, **kwargs):
        pytest.fail(f"build.py tried to run {cmd}")

    monkeypatch.setattr(fetch, "run", no_download)
