"""tests/js/: the page's pure JavaScript (the table's store, checks, migrations, file, costs, the sheets' requests,
the log), run by Node's own test runner inside the normal pytest run, with arbiter.api's published declarations
(tests/js/published.mjs asks CPython for them, as the build embeds them in the page)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = ROOT / "tests" / "js"


def _node_version(node: str) -> tuple[int, ...]:
    out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.match(r"v(\d+)\.(\d+)", out.strip())
    return (int(match[1]), int(match[2])) if match else (0, 0)


def node_command() -> list[str]:
    """`node --test`, told to read static/'s .js files as ES modules where the Node in use needs telling; skips the
    test when there is no Node, or one too old to run them."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the JavaScript unit tests (tests/js/) need Node.js 20.10 or newer")
    version = _node_version(node)
    if version < (20, 10):
        pytest.skip(f"node {'.'.join(map(str, version))} is too old for tests/js/: Node.js 20.10 or newer is needed")
    # static/ has no package.json: Node 20.19+ and 22.7+ see the ES module syntax themselves, older ones need the flag
    detects = (20, 19) <= version < (21, 0) or version >= (22, 7)
    return [node, *([] if detects else ["--experimental-detect-module"]), "--test"]


def test_node_unit_tests_pass():
    """Every test under tests/js/ passes under `node --test` (its output is shown when one fails)."""
    files = sorted(p.relative_to(ROOT).as_posix() for p in JS_TESTS.glob("*.test.mjs"))
    assert files, "no tests in tests/js/"
    # tests/js/published.mjs asks this Python for what arbiter.api publishes
    env = {**os.environ, "ARBITER_PYTHON": sys.executable}
    result = subprocess.run([*node_command(), *files], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"node --test failed:\n{output}"
    counts = dict(re.findall(r"^# (tests|pass|fail) (\d+)$", output, re.MULTILINE))
    assert int(counts.get("tests", 0)) > 0 and counts.get("fail") == "0", output
