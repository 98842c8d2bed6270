// static/dice/draw.js: a die is drawn by its sides (d2 a coin, d4, d6 with pips, d8, d10, d12, d20; a d100 as the two
// d10 a table rolls for it, the tens and the units), each within its box.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { SHAPES, shapeOf } from '../../static/dice/draw.js';

describe('shapeOf', () => {
  it('gives each die its own shape, and a d10 to sides it has none for', () => {
    const names = [2, 3, 4, 6, 8, 10, 12, 20, 30, 100].map((sides) => shapeOf(sides).name);
    assert.deepEqual(names, ['d2', 'd10', 'd4', 'd6', 'd8', 'd10', 'd12', 'd20', 'd10', 'd100']);
    assert.deepEqual(
      Object.entries(SHAPES)
        .filter(([, s]) => s.pips)
        .map(([sides]) => sides),
      ['6'],
    );
  });

  it('keeps every outline and facet within the box, as the d10 is', () => {
    for (const [sides, shape] of Object.entries(SHAPES)) {
      const points = [
        ...shape.outline,
        ...shape.facets.flat(),
        ...(shape.parts ?? []).flatMap((p) => p.outline.map(([x, y]) => [p.x + x * p.k, y * p.k])),
      ];
      for (const [x, y] of points) assert.ok(Math.abs(x) <= 0.58 && Math.abs(y) <= 0.56, `d${sides}: ${x}, ${y}`);
    }
  });

  it('reads a d100 face as its tens and its units die, 100 being 00 and 0', () => {
    const [tens, units] = shapeOf(100).parts;
    const read = (face) => [tens.text(face), units.text(face)];
    assert.deepEqual([1, 5, 10, 37, 90, 99, 100].map(read), [
      ['00', '1'],
      ['00', '5'],
      ['10', '0'],
      ['30', '7'],
      ['90', '0'],
      ['90', '9'],
      ['00', '0'],
    ]);
  });
});
