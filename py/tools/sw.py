"""dist/sw.js, the service worker: py/tools/sw.js with its BUILD filled in, every other file of the site with its
sha256 (`files`, fetched at install; `lazy`, fetched the first time the page asks: LAZY), which lazy files the page
asks it to save once the page is ready (`afterReady`: AFTER_READY), and the build's version (the hash of both lists,
which names the worker's cache)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

from . import BuildError
from .fetch import file_digest

TEMPLATE = Path(__file__).resolve().parent / "sw.js"

# The site's files the service worker does not fetch at install, only the first time a page asks for one (then it is
# kept, checked against its hash), or when the page asks for them to be saved once it is ready (AFTER_READY): what a
# first visit never needs before ready. The QR encoder and decoder and their licences
# (py/tools/vendor.py), and the worker that runs the decoder (static/share/scan-worker.js); static/share's qr.js and
# camera.js stay precached (4 kB gzip), so that a player gets words, not a failed import, when the encoder or the
# decoder were never fetched and the network is gone, and so that Android's Chrome, whose BarcodeDetector needs no
# decoder, scans offline from the first visit. And the manifest's 512 px icons, which only installing the app to a
# home screen reads (the 192 px ones stay precached: enough to install it offline; the iPhone's apple-touch-icon).
LAZY = ("static/vendor/", "static/share/scan-worker.js", "icons/icon-512.png", "icons/maskable-512.png")

# The lazy files saved for offline use once the page is ready, in the background (issue 30: sharing and scanning work
# offline from the first visit), never before ready: the page (offline/offline.js) asks for the encoder, and for the
# decoder and its worker where the browser has no BarcodeDetector to read a QR code with. Not in the install's list, so
# that a first visit's bytes before ready, and a browser that never needs the decoder, do not carry them.
AFTER_READY = {
    "encoder": ("static/vendor/lean-qr.mjs",),
    "decoder": ("static/vendor/jsQR.js", "static/share/scan-worker.js"),
}


def is_lazy(key: str) -> bool:
    """Whether the site's file `key` (a path relative to the site) is fetched only when first used."""
    return key.startswith(LAZY)


def integrity(path: Path) -> str:
    """The file's Subresource Integrity value: "sha256-<base64>"."""
    return "sha256-" + base64.b64encode(file_digest(path, "sha256")).decode()


def write_service_worker(site: Path) -> str:
    """sw.js at the site's root, from py/tools/sw.js, listing every other file of `site` with its hash (the lazy ones
    apart); the version."""
    every = {
        p.relative_to(site).as_posix(): integrity(p)
        for p in sorted(site.rglob("*"))
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(site).parts)
    }
    every.pop("sw.js", None)
    version = hashlib.sha256("".join(f"{k}\0{v}\n" for k, v in every.items()).encode()).hexdigest()[:16]
    files = {k: v for k, v in every.items() if not is_lazy(k)}
    lazy = {k: v for k, v in every.items() if is_lazy(k)}
    for part, keys in AFTER_READY.items():
        if not set(keys) <= set(lazy):
            raise BuildError(
                f"sw.py AFTER_READY[{part!r}]: {sorted(set(keys) - set(lazy))} are not lazy files of the build"
            )
    template = TEMPLATE.read_text(encoding="utf-8")
    marker = re.compile(r"/\* BUILD \*/.*?/\* BUILD \*/")
    if len(marker.findall(template)) != 1:
        raise BuildError("py/tools/sw.js must hold exactly one /* BUILD */ … /* BUILD */")
    build_json = json.dumps(
        {"version": version, "files": files, "lazy": lazy, "afterReady": AFTER_READY}, indent=1, sort_keys=True
    )
    (site / "sw.js").write_text(
        marker.sub(lambda _: f"/* BUILD */ {build_json} /* BUILD */", template), encoding="utf-8"
    )
    return version
