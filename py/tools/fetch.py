"""The pinned Pyodide (and axe-core, for the tests): downloaded once with `npm pack`, checked against its pin, unpacked into .cache/; and
`cached`, the cache every made file of the build goes through (keyed by the hashes of its inputs)."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

from . import CACHE, BuildError, run

# The pinned download: npm's `dist.integrity` for the tarball `npm pack` saves (`npm view pyodide@314.0.7 dist.integrity`).
PYODIDE_VERSION = "314.0.7"
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# What the page loads from Pyodide: the runtime (pyodide.asm.wasm without its big data segments: see
# snapshot.strip_data_segments). No stdlib zip and no packages: Python, the stdlib modules the rules use and the
# rules themselves come already imported in pyodide/snapshot.bin.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
# axe-core, for the accessibility tests only (tests/browser/test_axe.py): never copied into dist/.
# `npm view axe-core@4.10.3 dist.integrity`.
AXE_VERSION = "4.10.3"
AXE_INTEGRITY = "sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="


def file_digest(path: Path, algorithm: str) -> bytes:
    """The `algorithm` digest of the file at `path`."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, algorithm).digest()


def verify_integrity(path: Path, integrity: str) -> None:
    """Refuse `path` unless it matches an SRI-style pin such as "sha512-<base64>" or "sha256-<hex>"."""
    algorithm, _, want = integrity.partition("-")
    digest = file_digest(path, algorithm)
    got_b64, got_hex = base64.b64encode(digest).decode(), digest.hex()
    if want not in (got_b64, got_hex):
        raise BuildError(
            f"{path} does not match its pinned {algorithm}: got {got_b64}, want {want}.\n"
            f"Delete it to download it again; if the pin itself is wrong, fix it in py/tools/fetch.py."
        )


def fetch_once(cache: Path, name: str, integrity: str, download) -> Path:
    """The pinned file `name` from `cache`, downloaded by `download(folder)` only when absent."""
    target = cache / name
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as tmp:
            download(Path(tmp))
            got = Path(tmp) / name
            if not got.exists():
                raise BuildError(f"the download did not produce {name}")
            verify_integrity(got, integrity)
            os.replace(got, target)
    verify_integrity(target, integrity)
    return target


def fetch_pyodide(cache: Path = CACHE) -> Path:
    """The pinned Pyodide npm tarball, fetched once with `npm pack` and checked against its sha512."""

    def download(folder: Path) -> None:
        npm_pack(
            f"pyodide@{PYODIDE_VERSION}",
            folder,
            "install Node.js with npm to fetch the pinned Pyodide (needed once; it is cached in .cache/)",
        )

    return fetch_once(cache, f"pyodide-{PYODIDE_VERSION}.tgz", PYODIDE_INTEGRITY, download)


def npm_pack(spec: str, folder: Path, what: str) -> None:
    """`npm pack spec` into `folder` (no install scripts run)."""
    print(f"Fetching {spec} with npm pack …", flush=True)
    run(["npm", "pack", spec, "--pack-destination", str(folder), "--ignore-scripts", "--silent"], cwd=folder, what=what)


def fetch_axe(cache: Path = CACHE) -> str:
    """axe-core's axe.min.js, from its pinned npm tarball fetched once (a test tool: the build never ships it)."""
    tarball = fetch_once(
        cache,
        f"axe-core-{AXE_VERSION}.tgz",
        AXE_INTEGRITY,
        lambda folder: npm_pack(
            f"axe-core@{AXE_VERSION}", folder, "install Node.js with npm to fetch the pinned axe-core (needed once)"
        ),
    )
    with tarfile.open(tarball, "r:gz") as tar:
        return tar.extractfile("package/axe.min.js").read().decode("utf-8")


def unpack_pyodide(tarball: Path, cache: Path = CACHE) -> Path:
    """The npm package unpacked into `cache` once (Node runs it at build time); its folder."""
    folder = cache / f"pyodide-{PYODIDE_VERSION}"
    stamp = folder / ".unpacked-from"
    if not (stamp.exists() and stamp.read_text() == PYODIDE_INTEGRITY):
        shutil.rmtree(folder, ignore_errors=True)
        tmp = cache / f".pyodide-{PYODIDE_VERSION}.unpacking"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        with tarfile.open(tarball, "r:gz") as tar:
            for member in tar:
                name = Path(member.name)
                if member.isfile() and name.parts[:1] == ("package",) and ".." not in name.parts:
                    out = tmp.joinpath(*name.parts[1:])
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(tar.extractfile(member).read())
        missing = [n for n in (*PYODIDE_FILES, "python_stdlib.zip", "pyodide-lock.json") if not (tmp / n).is_file()]
        if missing:
            shutil.rmtree(tmp)
            raise BuildError(f"{tarball} lacks {', '.join(missing)}")
        (tmp / ".unpacked-from").write_text(PYODIDE_INTEGRITY)
        os.replace(tmp, folder)
    return folder


def cached(cache: Path, stem: str, suffix: str, inputs: list[bytes | str], make, keep: int = 3) -> Path:
    """`cache/stem-<hash of inputs>suffix`, made by `make(path)` when absent; older versions beyond `keep` go."""
    key = hashlib.sha256()
    for part in inputs:
        data = part.encode() if isinstance(part, str) else part
        key.update(len(data).to_bytes(8, "little") + data)
    target = cache / f"{stem}-{key.hexdigest()[:16]}{suffix}"
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial_file = target.with_name(f".{target.name}.partial")
        make(partial_file)
        os.replace(partial_file, target)
        older = sorted((p for p in cache.glob(f"{stem}-*{suffix}") if p != target), key=lambda p: p.stat().st_mtime)
        for old in older[: max(0, len(older) - (keep - 1))]:
            old.unlink(missing_ok=True)
    return target
