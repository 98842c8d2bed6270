"""The npm files the page loads only when a player asks for them, never on a first visit: the QR encoder (lean-qr) when
a player first shares a roll, the QR decoder (jsQR) when a player first scans one. Each comes from its pinned npm
tarball (`npm pack` once, checked against npm's integrity hash, kept in .cache/), copied byte for byte into
dist/static/vendor/ with its licence beside it. The service worker lists them as lazy files (py/tools/sw.py's LAZY):
not fetched at install nor before the page is ready, then saved in the background (AFTER_READY: the decoder only
where the browser has no BarcodeDetector), each checked against its hash (py/tools/sw.js). Why these two: README.md, "Play as a
group"; the figures in docs/performance.md."""

from __future__ import annotations

import tarfile
from dataclasses import dataclass
from pathlib import Path

from . import CACHE
from .fetch import fetch_once, npm_pack


@dataclass(frozen=True, slots=True)
class Vendored:
    package: str
    version: str
    integrity: str  # `npm view PACKAGE@VERSION dist.integrity`
    file: str  # the file the page loads, in the tarball
    licence: str  # its licence text, in the tarball


VENDORED = {
    # ES module, 6.9 kB (3.6 kB gzip): generate(text, options) -> a code with .size and .get(x, y). MIT.
    "static/vendor/lean-qr.mjs": Vendored(
        "lean-qr",
        "2.7.4",
        "sha512-tlMPFfqhAAZN7+j/djRSvl/2+AYT2+7RRuyq8bvcbV8gMiENiscquQ9WTfCSyeEdxsVaEB+tU7e9nFZC63BFnQ==",
        "package/index.mjs",
        "package/LICENSE",
    ),
    # A classic script (UMD): importScripts() in a worker sets self.jsQR(data, width, height). Apache-2.0.
    "static/vendor/jsQR.js": Vendored(
        "jsqr",
        "1.4.0",
        "sha512-dxLob7q65Xg2DvstYkRpkYtmKm2sPJ9oFhrhmudT1dZvNFFTlroai3AWSpLey/w5vMcLBXRgOJsbXpdN9HzU/A==",
        "package/dist/jsQR.js",
        "package/LICENSE",
    ),
}


def fetch_vendored(item: Vendored, cache: Path = CACHE) -> Path:
    """The package's pinned tarball, fetched once with `npm pack` and checked against its integrity."""
    return fetch_once(
        cache,
        f"{item.package}-{item.version}.tgz",
        item.integrity,
        lambda folder: npm_pack(
            f"{item.package}@{item.version}",
            folder,
            f"install Node.js with npm to fetch the pinned {item.package} (needed once; it is cached in .cache/)",
        ),
    )


def write_vendored(site: Path, cache: Path = CACHE) -> list[str]:
    """Each vendored file, and its licence as NAME.LICENSE.txt, into `site`; the files written (relative to `site`)."""
    written = []
    for key, item in VENDORED.items():
        with tarfile.open(fetch_vendored(item, cache), "r:gz") as tar:
            target = site / key
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(item.file).read())
            licence = target.with_name(f"{target.stem}.LICENSE.txt")
            licence.write_bytes(tar.extractfile(item.licence).read())
        written += [key, licence.relative_to(site).as_posix()]
    return written
