"""The installable app: its icons, drawn here with zlib and struct (no binary asset comes from anywhere), and its
manifest.webmanifest."""

from __future__ import annotations

import inspect
import json
import math
import shutil
import struct
import zlib
from pathlib import Path

from . import CACHE
from .fetch import cached

APP_NAME, APP_SHORT_NAME = "Arbiter — exact odds, honest dice", "Arbiter"
THEME_COLOR, BACKGROUND_COLOR = "#7a2e1d", "#f6f3ee"  # style.css's --accent and --bg


def png(width: int, height: int, rgba: bytes) -> bytes:
    """A PNG file of 8-bit RGBA pixels (rows top to bottom), with zlib and struct only."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    stride = width * 4
    raw = b"".join(b"\0" + rgba[y * stride : (y + 1) * stride] for y in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _rounded_rect(x0, y0, x1, y1, r):
    """The shape's horizontal extent at height y (or None): a rectangle with corners of radius r."""

    def extent(y):
        if not y0 <= y <= y1:
            return None
        dy = max(y0 + r - y, y - (y1 - r), 0.0)
        dx = r - math.sqrt(max(r * r - dy * dy, 0.0)) if dy else 0.0
        return x0 + dx, x1 - dx

    return extent


def _circle(cx, cy, r):
    def extent(y):
        d = r * r - (y - cy) ** 2
        return None if d <= 0 else (cx - math.sqrt(d), cx + math.sqrt(d))

    return extent


def draw_icon(size: int, maskable: bool) -> bytes:
    """The app icon as RGBA: a die showing five on the accent colour. A maskable icon fills its square and keeps
    the die inside the central safe circle (radius 40%); the plain one is a rounded tile on transparency."""

    def hex_rgb(h):
        return tuple(int(h[i : i + 2], 16) for i in (1, 3, 5))

    accent, die, pip = hex_rgb(THEME_COLOR), hex_rgb("#fffdf8"), hex_rgb(THEME_COLOR)
    s = float(size)
    tile = _rounded_rect(0, 0, s, s, 0) if maskable else _rounded_rect(0.04 * s, 0.04 * s, 0.96 * s, 0.96 * s, 0.2 * s)
    half = 0.26 * s if maskable else 0.3 * s  # the die's half-width: inside the safe zone when maskable
    c = s / 2
    shapes = [(tile, accent), (_rounded_rect(c - half, c - half, c + half, c + half, 0.22 * half), die)]
    off, pr = 0.52 * half, 0.16 * half
    shapes += [
        (_circle(c + dx * off, c + dy * off, pr), pip) for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))
    ]

    pixels = bytearray(size * size * 4)
    sub = 4  # rows sampled per pixel row: vertical anti-aliasing; horizontal coverage is exact
    for y in range(size):
        row = [[0.0, 0.0, 0.0, 0.0] for _ in range(size)]  # premultiplied RGBA, 0..1
        for extent, (r, g, b) in shapes:
            cover = [0.0] * size
            for k in range(sub):
                span = extent(y + (k + 0.5) / sub)
                if span is None:
                    continue
                a, b_ = max(span[0], 0.0), min(span[1], s)
                for x in range(int(a), min(int(math.ceil(b_)), size)):
                    cover[x] += (min(b_, x + 1) - max(a, x)) / sub
            for x, alpha in enumerate(cover):
                if alpha > 0:
                    p = row[x]
                    keep = 1 - alpha
                    row[x] = [
                        r / 255 * alpha + p[0] * keep,
                        g / 255 * alpha + p[1] * keep,
                        b / 255 * alpha + p[2] * keep,
                        alpha + p[3] * keep,
                    ]
        for x, (r, g, b, a) in enumerate(row):
            i = (y * size + x) * 4
            pixels[i : i + 4] = (
                bytes((round(r / a * 255), round(g / a * 255), round(b / a * 255), round(a * 255)))
                if a > 0
                else b"\0\0\0\0"
            )
    return bytes(pixels)


ICONS = (
    ("icons/icon-192.png", 192, False),
    ("icons/icon-512.png", 512, False),
    ("icons/maskable-192.png", 192, True),
    ("icons/maskable-512.png", 512, True),
)


def write_icons(site: Path, cache: Path = CACHE) -> None:
    """The icons, drawn here (no binary asset comes from anywhere), cached by the drawing code's hash."""
    code = inspect.getsource(draw_icon) + inspect.getsource(png) + THEME_COLOR
    for name, size, maskable in ICONS:
        drawn = cached(
            cache,
            f"icon-{'maskable' if maskable else 'any'}-{size}",
            ".png",
            [code],
            lambda out: out.write_bytes(png(size, size, draw_icon(size, maskable))),
            keep=1,
        )
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(drawn, site / name)


def manifest() -> dict:
    """manifest.webmanifest: installable from Chromium, every URL relative to the manifest (any sub-path works)."""
    icons = [
        {"src": name, "sizes": f"{size}x{size}", "type": "image/png", "purpose": "maskable" if maskable else "any"}
        for name, size, maskable in ICONS
    ]
    return {
        "name": APP_NAME,
        "short_name": APP_SHORT_NAME,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "description": "Exact odds before you roll, dice that land on what the rules rolled. Works offline.",
        "lang": "en",
        "icons": icons,
    }


def write_manifest(site: Path) -> None:
    """`site`/manifest.webmanifest."""
    (site / "manifest.webmanifest").write_text(
        json.dumps(manifest(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
