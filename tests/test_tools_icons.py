"""py/tools/icons.py: a valid PNG, icons drawn for their purpose (plain and maskable), and a manifest that makes the
app installable under any sub-path."""

from __future__ import annotations

import json
import struct
import zlib

import pytest

from tools.icons import png


def read_png(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGBA rows) of an 8-bit RGBA PNG with unfiltered rows, checking every chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, chunks = 8, {}
    while i < len(data):
        (length,), kind = struct.unpack(">I", data[i : i + 4]), data[i + 4 : i + 8]
        body = data[i + 8 : i + 8 + length]
        assert struct.unpack(">I", data[i + 8 + length : i + 12 + length])[0] == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        i += 12 + length
    width, height, depth, colour, *_ = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (8, 6) and b"IEND" in chunks
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[y * (width * 4 + 1) : (y + 1) * (width * 4 + 1)] for y in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, b"".join(row[1:] for row in rows)


def pixel(png_data: bytes, x: float, y: float) -> tuple:
    width, height, rgba = read_png(png_data)
    i = (int(y * (height - 1)) * width + int(x * (width - 1))) * 4
    return tuple(rgba[i : i + 4])


def test_png_writer_makes_a_valid_png():
    """png() writes the pixels it is given, in a file any decoder reads (signature, chunks, CRCs, zlib)."""
    rgba = bytes(range(4 * 3 * 2))
    assert read_png(png(3, 2, rgba)) == (3, 2, rgba)


def test_manifest_makes_the_app_installable_anywhere(dist):
    """The manifest parses and has what Chromium needs to install it, with every URL relative."""
    manifest = json.loads((dist / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] and manifest["short_name"] == "Arbiter"
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert not icon["src"].startswith(("/", "http")) and icon["type"] == "image/png"
        width, height, _ = read_png((dist / icon["src"]).read_bytes())
        assert f"{width}x{height}" == icon["sizes"]


@pytest.mark.parametrize("size", [192, 512])
def test_icons_are_drawn_for_their_purpose(dist, size):
    """A maskable icon fills its square (corners opaque); the plain one is a tile with transparent corners; both
    show the die (light) in the middle, inside the maskable safe zone."""
    plain = (dist / f"icons/icon-{size}.png").read_bytes()
    maskable = (dist / f"icons/maskable-{size}.png").read_bytes()
    assert pixel(plain, 0, 0)[3] == 0 and pixel(maskable, 0, 0)[3] == 255
    for icon in (plain, maskable):
        assert min(pixel(icon, 0.5, 0.36)[:3]) > 200  # the die's face, between the pips
        assert pixel(icon, 0.5, 0.5)[:3] == (0x7A, 0x2E, 0x1D)  # the middle pip
    assert min(pixel(maskable, 0.5, 0.11)[:3]) < 200  # nothing of the die outside the safe circle (radius 40%)
