"""The canvas dice read right pixel by pixel, not only through data-faces: every face of a d6 shows that many pips,
and every face of a d10 shows its number (the ink matches that number's glyphs better than any other's), in the
light and the dark theme; so does every face of a d4, d8, d12 and d20 on a phone, each drawn in its own shape."""

from __future__ import annotations

import json

import pytest

# Runs on the page: draw `faces` of `sides`-sided dice, landed and unmarked, in the shown tray, then read each die's
# ink back from the canvas. A pixel is ink when it is much nearer the die's ink colour than its body colour.
READ_DICE = """async ({ system, sides, faces }) => {
  const tray = window.arbiterPage.procs[system].tray;
  await tray.show(faces.map((face) => ({ face, sides, marks: [] })), { animate: false });
  const ctx = tray.canvas.getContext('2d');
  const k = tray.canvas.width / tray.width;
  const rgb = (css) => {
    const c = new OffscreenCanvas(1, 1).getContext('2d');
    c.fillStyle = css;
    c.fillRect(0, 0, 1, 1);
    return [...c.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  };
  const ink = rgb(tray.c.fg), body = rgb(tray.c.bg);
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const near = 0.35 * dist(ink, body);
  const inkMask = (data, n) => {
    const mask = new Uint8Array(n * n);
    for (let i = 0; i < n * n; i++) {   // transparent pixels (off the die) read as black: never ink
      mask[i] = data[4 * i + 3] > 128 && dist([data[4 * i], data[4 * i + 1], data[4 * i + 2]], ink) < near ? 1 : 0;
    }
    return mask;
  };
  // Blobs of ink (4-connected), ignoring specks of anti-aliasing.
  const blobs = (mask, n) => {
    const seen = new Uint8Array(n * n);
    let count = 0;
    for (let start = 0; start < n * n; start++) {
      if (!mask[start] || seen[start]) continue;
      let size = 0;
      const stack = [start];
      seen[start] = 1;
      while (stack.length) {
        const i = stack.pop(), x = i % n, y = (i - x) / n;
        size++;
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const nx = x + dx, ny = y + dy, j = ny * n + nx;
          if (nx >= 0 && ny >= 0 && nx < n && ny < n && mask[j] && !seen[j]) { seen[j] = 1; stack.push(j); }
        }
      }
      if (size >= 4) count++;
    }
    return count;
  };
  // A number drawn alone as the reference: the font and centring drawNumber uses, black on white.
  const reference = (text, s, n) => {
    const c = new OffscreenCanvas(n, n).getContext('2d');
    c.fillStyle = '#fff';
    c.fillRect(0, 0, n, n);
    c.scale(k, k);
    c.translate(s / 2, s / 2);
    c.font = `700 ${Math.round(s * (text.length > 1 ? 0.3 : 0.34))}px system-ui, sans-serif`;
    c.textAlign = 'center';
    c.textBaseline = 'alphabetic';
    c.fillStyle = '#000';
    c.fillText(text, 0, -s * 0.05 + c.measureText(text).actualBoundingBoxAscent / 2);
    const data = c.getImageData(0, 0, n, n).data, mask = new Uint8Array(n * n);
    for (let i = 0; i < n * n; i++) mask[i] = data[4 * i] < 128 ? 1 : 0;
    return mask;
  };
  const overlap = (a, b) => {
    let both = 0, either = 0;
    for (let i = 0; i < a.length; i++) { both += a[i] & b[i]; either += a[i] | b[i]; }
    return either ? both / either : 0;
  };
  return tray.dice.map((d) => {
    const n = Math.round(d.s * k), x = Math.round(d.x * k), y = Math.round(d.y * k);
    const mask = inkMask(ctx.getImageData(x, y, n, n).data, n);
    if (sides === 6) {
      const inner = Math.round(0.12 * n), m = n - 2 * inner, cut = new Uint8Array(m * m);
      for (let r = 0; r < m; r++) for (let q = 0; q < m; q++) cut[r * m + q] = mask[(r + inner) * n + q + inner];
      return { face: d.face, pips: blobs(cut, m), ink: cut.reduce((a, b) => a + b, 0) };
    }
    const scores = {};
    for (let v = 1; v <= sides; v++) scores[v] = overlap(mask, reference(String(v), d.s, n));
    return { face: d.face, scores };
  });
}"""


@pytest.fixture(params=["light", "dark"])
def tray_page(request, page):
    page.emulate_media(reduced_motion="reduce", color_scheme=request.param)
    page.set_viewport_size({"width": 1024, "height": 900})
    page.goto("/#ten_again")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    return page


def test_each_d6_face_shows_that_many_pips(tray_page):
    """A d6 showing 1…6 has exactly 1…6 separate pips of ink on the canvas, each the same size."""
    dice = tray_page.evaluate(READ_DICE, {"system": "ten_again", "sides": 6, "faces": [1, 2, 3, 4, 5, 6]})
    assert [d["pips"] for d in dice] == [1, 2, 3, 4, 5, 6]
    per_pip = [d["ink"] / d["face"] for d in dice]
    assert max(per_pip) < 1.25 * min(per_pip), per_pip  # drawn pips, not a smudge that splits in two


def test_each_d10_face_shows_its_number(tray_page):
    """A d10 showing 1…10 carries that number: its ink overlaps that number's glyphs more than any other's."""
    dice = tray_page.evaluate(READ_DICE, {"system": "ten_again", "sides": 10, "faces": list(range(1, 11))})
    for d in dice:
        scores = {int(v): s for v, s in d["scores"].items()}
        best = max(scores, key=scores.get)
        assert best == d["face"] and scores[best] > 0.5, (d["face"], sorted(scores.items(), key=lambda kv: -kv[1])[:3])


@pytest.mark.parametrize("sides", [4, 8, 12, 20])
def test_each_face_of_a_die_of_other_sides_shows_its_number_on_a_phone(tray_page, sides):
    """At 360 px wide, a d4, d8, d12 or d20 showing each of its faces carries that number (its ink overlaps that
    number's glyphs more than any other face's), and the canvas says it drew the die in its own shape."""
    tray_page.set_viewport_size({"width": 360, "height": 640})
    faces = list(range(1, sides + 1))
    for start in range(0, sides, 10):  # ten at a time, as many as a pool shows
        shown = faces[start : start + 10]
        dice = tray_page.evaluate(READ_DICE, {"system": "ten_again", "sides": sides, "faces": shown})
        for d in dice:
            scores = {int(v): s for v, s in d["scores"].items()}
            best = max(scores, key=scores.get)
            assert best == d["face"] and scores[best] > 0.5, (
                d["face"],
                sorted(scores.items(), key=lambda kv: -kv[1])[:3],
            )
        canvas = tray_page.locator('form[data-system="ten_again"] canvas[data-dice]')
        assert canvas.get_attribute("data-shapes") == json.dumps([f"d{sides}"] * len(shown), separators=(",", ":"))


def test_a_d100_is_drawn_as_its_tens_and_units_d10(tray_page):
    """A d100 is one die of faces 1 to 100, drawn as the two d10 a table rolls for it (dice/draw.js SHAPES[100]): the
    canvas lands on its faces and says it drew d100s, at 360 px."""
    tray_page.set_viewport_size({"width": 360, "height": 640})
    faces = [1, 37, 100]
    tray_page.evaluate(
        "async (faces) => { const t = window.arbiterPage.procs.ten_again.tray;"
        " await t.show(faces.map((face) => ({ face, sides: 100, marks: [] })), { animate: false }); }",
        faces,
    )
    canvas = tray_page.locator('form[data-system="ten_again"] canvas[data-dice]')
    assert json.loads(canvas.get_attribute("data-faces")) == faces
    assert json.loads(canvas.get_attribute("data-shapes")) == ["d100"] * 3
