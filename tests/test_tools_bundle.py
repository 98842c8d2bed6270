"""py/tools/bundle.py: the built page's JavaScript as two bundles and their shared chunk, every import resolving to
a file of the build, the bundled modules' own files gone, and the same bytes from the same sources."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tools.bundle import ENTRIES, SEPARATE, bundle

ROOT = Path(__file__).resolve().parent.parent
IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)""", re.M
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, list[str]]:
    site = tmp_path_factory.mktemp("bundled")
    shutil.copytree(ROOT / "static", site / "static")
    (site / "static" / "boot.js").unlink()  # the page's first script: inline in index.html, no file of dist/ (build.py)
    return site, bundle(site)


def imports(script: Path) -> list[str]:
    return [a or b for a, b in IMPORT.findall(script.read_text(encoding="utf-8"))]


def test_every_import_of_the_built_page_is_a_file_of_the_build(site):
    """Each import (static or dynamic) in the page's scripts names a file that is there: the bundles, their chunk,
    and the modules kept apart."""
    root, written = site
    scripts = [p for p in (root / "static").rglob("*.js") if p.name not in ("worker.js", "snapshot.js")]
    seen = set()
    for script in scripts:
        for spec in imports(script):
            target = (script.parent / spec).resolve()
            assert target.is_file(), f"{script.relative_to(root)} imports {spec}, which the build does not hold"
            seen.add(target.relative_to(root).as_posix())
    assert {"static/engine/client.js", "static/offline/offline.js", "static/table/index.js"} <= seen
    assert set(ENTRIES) <= set(written) and any(re.fullmatch(r"static/chunk-\w+\.js", w) for w in written)


def test_bundled_modules_leave_no_file_of_their_own(site):
    """roll/forms.js, dice/tray.js, the table's modules: inside the bundles, not beside them; worker-side and separate ones stay."""
    root, written = site
    left = sorted(p.relative_to(root).as_posix() for p in (root / "static").rglob("*.js"))
    kept = {f"static/{s.removeprefix('./')}" for s in SEPARATE} | {
        "static/engine/loading.js",
        "static/engine/worker.js",
        "static/engine/snapshot.js",
        # loaded by their address the first time a player shares or scans (lazy files: py/tools/vendor.py)
        "static/share/qr.js",
        "static/share/camera.js",
        "static/share/scan-worker.js",
    }
    assert set(left) == kept | set(written)
    assert (
        not (root / "static" / "roll" / "forms.js").exists() and not (root / "static" / "store" / "store.js").exists()
    )
    main = (root / "static" / "main.js").read_text(encoding="utf-8")
    # the modules' code, each under a line naming its source: in main.js, or in the chunk it shares with the table's
    # bundle (the Share sheet reads Settings' "Your name", and Settings the dice's speeds)
    chunks = "".join((root / name).read_text(encoding="utf-8") for name in written if "/chunk-" in name)
    assert all(
        f"// static/{name}\n" in main + chunks for name in ("main.js", "roll/forms.js", "dice/tray.js", "roll/tabs.js")
    )
    assert "// static/main.js\n" in main
    assert "// static/store/store.js\n" in (root / "static" / "table" / "index.js").read_text(encoding="utf-8")
    assert not [
        s for s in imports(root / "static" / "main.js") if s in ("./roll/forms.js", "./dice/tray.js", "./roll/tabs.js")
    ]


def test_the_same_sources_give_the_same_bundles(site, tmp_path):
    """Bundling again gives the same files, byte for byte (the service worker lists each by its hash)."""
    root, written = site
    shutil.copytree(ROOT / "static", tmp_path / "static")
    assert bundle(tmp_path) == written
    for name in written:
        assert (tmp_path / name).read_bytes() == (root / name).read_bytes(), name
