// How one die looks: its outline, pips and number, and the marks drawn on it (rings, strikes, a starburst), at rest
// or mid-tumble (drawDie). Pure drawing on a 2D context, in units of the die's size; tray.js lays out the dice,
// times their tumble and takes taps.

// Pips on a 3x3 grid (-1, 0, 1), the usual Western layout.
export const PIPS = {
  1: [[0, 0]],
  2: [
    [-1, -1],
    [1, 1],
  ],
  3: [
    [-1, -1],
    [0, 0],
    [1, 1],
  ],
  4: [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ],
  5: [
    [-1, -1],
    [1, -1],
    [0, 0],
    [-1, 1],
    [1, 1],
  ],
  6: [
    [-1, -1],
    [1, -1],
    [-1, 0],
    [1, 0],
    [-1, 1],
    [1, 1],
  ],
};
// Outlines in units of the die size, centred on 0,0. The d10 is its kite face seen head-on,
// flanked by slivers of the neighbouring faces; KITE is the inner kite's lower point.
export const D6 = [
  [-0.5, -0.5],
  [0.5, -0.5],
  [0.5, 0.5],
  [-0.5, 0.5],
];
export const D10 = [
  [0, -0.52],
  [0.52, -0.08],
  [0.34, 0.44],
  [-0.34, 0.44],
  [-0.52, -0.08],
];
export const KITE = [0, 0.3];
// A regular polygon of n corners of radius r, the first straight up (turned by half a step: a flat top).
const polygon = (n, r, half = false) =>
  Array.from({ length: n }, (_, k) => {
    const a = ((k + (half ? 0.5 : 0)) * 2 * Math.PI) / n - Math.PI / 2;
    return [Math.round(r * Math.cos(a) * 1000) / 1000, Math.round(r * Math.sin(a) * 1000) / 1000];
  });
const D12_OUT = polygon(5, 0.55);
const D12_IN = polygon(5, 0.34);
const D20_OUT = polygon(6, 0.54);
const D20_IN = [
  [0, -0.48],
  [0.4, 0.3],
  [-0.4, 0.3],
];
/** How a die of each number of sides is drawn, seen head-on: its outline, its corners' rounding, the faint facet
 * edges around the number (pairs of points, clear of it), and whether it shows pips (a d6) or its number. A die of
 * sides not here (a d3) is drawn as a d10 with its number; a d2 is a coin; a d100 is one die drawn as the two d10 a
 * table rolls for it, `parts`: the tens (00 to 90) and the units (0 to 9), 00 and 0 being 100. */
export const SHAPES = {
  2: { name: 'd2', outline: polygon(16, 0.52), round: 0.05, facets: [] },
  4: {
    name: 'd4',
    outline: [
      [0, -0.56],
      [0.58, 0.44],
      [-0.58, 0.44],
    ],
    round: 0.06,
    facets: [],
  },
  6: { name: 'd6', outline: D6, round: 0.17, facets: [], pips: true },
  8: {
    name: 'd8',
    outline: [
      [0, -0.54],
      [0.5, 0],
      [0, 0.54],
      [-0.5, 0],
    ],
    round: 0.06,
    facets: [
      [
        [-0.5, 0],
        [0, 0.28],
      ],
      [
        [0, 0.28],
        [0.5, 0],
      ],
      [
        [0, 0.28],
        [0, 0.54],
      ],
    ],
  },
  10: {
    name: 'd10',
    outline: D10,
    round: 0.07,
    facets: [
      [D10[4], KITE],
      [KITE, D10[1]],
      [KITE, [KITE[0], D10[2][1]]],
    ],
  },
  12: {
    name: 'd12',
    outline: D12_OUT,
    round: 0.07,
    facets: [...D12_IN.map((p, k) => [p, D12_IN[(k + 1) % 5]]), ...D12_IN.map((p, k) => [p, D12_OUT[k]])],
  },
  20: {
    name: 'd20',
    outline: D20_OUT,
    round: 0.07,
    facets: [
      ...D20_IN.map((p, k) => [p, D20_IN[(k + 1) % 3]]),
      ...D20_IN.map((p, k) => [p, D20_OUT[2 * k]]),
      ...D20_IN.map((p, k) => [p, D20_OUT[2 * k + 1]]),
      ...D20_IN.map((p, k) => [p, D20_OUT[(2 * k + 5) % 6]]),
    ],
  },
};
SHAPES[100] = {
  name: 'd100',
  outline: [
    [-0.56, -0.36],
    [0.56, -0.36],
    [0.56, 0.34],
    [-0.56, 0.34],
  ], // what its marks ring
  round: 0.1,
  facets: [],
  parts: [
    { ...SHAPES[10], x: -0.28, k: 0.56, text: (face) => `${Math.floor((face % 100) / 10)}0` },
    { ...SHAPES[10], x: 0.28, k: 0.56, text: (face) => String(face % 10) },
  ],
};

/** The shape a die of `sides` is drawn as (SHAPES; a d10's for sides it has none for). */
export function shapeOf(sides) {
  return SHAPES[sides] ?? SHAPES[10];
}

export function roundedPoly(ctx, pts, r) {
  const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  ctx.beginPath();
  ctx.moveTo(...mid(pts.at(-1), pts[0]));
  pts.forEach((p, k) => ctx.arcTo(p[0], p[1], ...mid(p, pts[(k + 1) % pts.length]), r));
  ctx.closePath();
}

// --- one die, where the tray laid it out (its box x, y, s), at a point of its tumble ---
const FLICKER_MS = 70; // a tumbling die shows a new random face this often
const FACE_AT = 0.8; // from here on a tumbling die shows its real face, so it lands on it without a jump

/** Die `d` in the colours `c`, `p` of the way through its tumble at `t` ms (1: landed; a tumbling one drops in,
 * bounces and spins, its face flickering); one that `waiting` for the engine is faded. */
export function drawDie(ctx, c, d, p, t, waiting) {
  if (p <= 0) return; // a later-wave die that has not arrived yet
  const landed = p >= 1,
    s = d.s,
    m = d.marks;
  const has = (k) => landed && m.has(k); // marks are outcomes, shown once the die is at rest
  let lift = has('selected') ? 3 : 0,
    rot = 0,
    scale = 1,
    alpha = 1,
    face = d.face;
  if (!landed) {
    // Drops in, bounces twice with decaying height, and spins down to exactly 0 rotation.
    const q = 1 - p;
    lift = s * 0.5 * Math.abs(Math.cos(p * 2.5 * Math.PI)) * q * q;
    rot = d.spin * q * q * q;
    scale = 1 + 0.12 * q * q;
    alpha = waiting ? 0.6 : Math.min(1, p / 0.15);
    if (p < FACE_AT) face = 1 + Math.floor(noise(d.seed, Math.floor(t / FLICKER_MS)) * d.sides);
  }
  if (has('dim')) alpha *= 0.4;
  if (has('cancelled')) alpha *= 0.5;
  const removed = has('removed');
  const body = removed ? c.removedBg : m.has('will') ? c.willBg : c.bg;
  const shape = shapeOf(d.sides);
  const outline = shape.outline;
  const pts = (k) => outline.map(([x, y]) => [x * s * k, y * s * k]);
  // the bodies drawn: the die, or a d100's two d10 (each at x, k of the die's size, showing text(face))
  const parts = shape.parts ?? [{ ...shape, x: 0, k: 1, text: String }];
  const placed = (q) => q.outline.map(([x, y]) => [(q.x + x * q.k) * s, y * q.k * s]);
  ctx.save();
  ctx.translate(d.x + s / 2, d.y + s / 2 - lift);
  ctx.rotate(rot);
  ctx.scale(scale, scale);
  ctx.globalAlpha = alpha;
  // Body, with a shadow that grows and softens as the die rises.
  ctx.shadowColor = c.shadow;
  ctx.shadowBlur = 3 + lift * 0.5;
  ctx.shadowOffsetY = 1.5 + lift * 0.4;
  ctx.fillStyle = body;
  for (const q of parts) {
    roundedPoly(ctx, placed(q), s * q.k * q.round);
    ctx.fill();
  }
  ctx.shadowColor = 'transparent';
  ctx.strokeStyle = c.edge;
  ctx.lineWidth = 1;
  for (const q of parts) {
    roundedPoly(ctx, placed(q), s * q.k * q.round);
    ctx.stroke();
  }
  const ink = removed ? c.removedFg : c.fg;
  if (m.has('will')) {
    // a Will die: a second, inset outline, so it differs by shape and not just its tint
    ctx.strokeStyle = ink;
    ctx.globalAlpha = alpha * 0.45;
    roundedPoly(ctx, pts(0.8), s * 0.1);
    ctx.stroke();
    ctx.globalAlpha = alpha;
  }
  // Strikes go under the face, and the struck face gets a halo of the body colour: the die reads as
  // struck out while its face stays legible (a removed 1 is still a 1).
  const struck = removed || has('cancelled');
  if (removed) strike(ctx, s, c.strike, [[-1, -1, 1, 1]]);
  if (has('cancelled')) {
    // the cross at full strength, so the faded die still reads as struck
    ctx.globalAlpha = alpha / 0.5;
    strike(ctx, s, c.strike, [
      [-1, -1, 1, 1],
      [1, -1, -1, 1],
    ]);
    ctx.globalAlpha = alpha;
  }
  if (shape.pips) drawPips(ctx, face, s, ink, struck && body);
  else {
    for (const q of parts) {
      ctx.save();
      ctx.translate(q.x * s, 0);
      drawNumber(ctx, face, s * q.k, ink, c.edge, struck && body, q.facets, q.text(face));
      ctx.restore();
    }
  }
  if (has('kept')) ring(ctx, outline, s, 2, 3, c.mark, []);
  if (has('selected')) ring(ctx, outline, s, has('kept') ? 5.5 : 3, 2, c.focus, [4, 3]);
  if (has('exploded')) starburst(ctx, s * 0.42, -s * 0.42, Math.max(8, s * 0.2), c.mark, c.bg);
  if (has('new')) dot(ctx, -s * 0.42, -s * 0.42, Math.max(3.5, s * 0.08), c.mark, c.bg); // came in a later wave
  if (has('botch') || has('fumble')) {
    // a solid ring in the strike colour and a warning badge at the top right
    ring(ctx, outline, s, 3, 3, c.strike, []);
    warning(ctx, s * 0.42, -s * 0.42, Math.max(8, s * 0.2), c.strike, c.bg);
  }
  ctx.restore();
  if (d.label) {
    ctx.fillStyle = c.label;
    ctx.font = '500 11px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(d.label, d.x + s / 2, d.y + s + 3);
  }
}

// `halo`, when given, outlines the ink in the body colour so it stands clear of a strike beneath it.
export function drawPips(ctx, face, s, ink, halo) {
  ctx.fillStyle = ink;
  ctx.strokeStyle = halo;
  ctx.lineWidth = 3;
  for (const [x, y] of PIPS[face]) {
    ctx.beginPath();
    ctx.arc(x * s * 0.26, y * s * 0.26, s * 0.085, 0, 2 * Math.PI);
    if (halo) ctx.stroke();
    ctx.fill();
  }
}

export function drawNumber(ctx, face, s, ink, edge, halo, facets = SHAPES[10].facets, text = String(face)) {
  // The facet edges around the face, faint, for a bit of depth.
  ctx.beginPath();
  for (const [[x0, y0], [x1, y1]] of facets) {
    ctx.moveTo(x0 * s, y0 * s);
    ctx.lineTo(x1 * s, y1 * s);
  }
  ctx.strokeStyle = edge;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.fillStyle = ink;
  ctx.font = `700 ${Math.round(s * (text.length > 1 ? 0.3 : 0.34))}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  // Centre the digits' ink, not the em box, in the kite.
  const y = -s * 0.05 + ctx.measureText(text).actualBoundingBoxAscent / 2;
  if (halo) {
    ctx.strokeStyle = halo;
    ctx.lineWidth = 4;
    ctx.lineJoin = 'round';
    ctx.strokeText(text, 0, y);
  }
  ctx.fillText(text, 0, y);
}

// An outline `off` px outside the die's shape.
export function ring(ctx, outline, s, off, width, color, dash) {
  const k = (s + 2 * off) / s;
  ctx.save();
  ctx.setLineDash(dash);
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  roundedPoly(
    ctx,
    outline.map(([x, y]) => [x * s * k, y * s * k]),
    s * 0.18,
  );
  ctx.stroke();
  ctx.restore();
}

// Strike lines corner to corner across the face.
export function strike(ctx, s, color, lines) {
  const e = s * 0.36;
  ctx.beginPath();
  for (const [x0, y0, x1, y1] of lines) {
    ctx.moveTo(x0 * e, y0 * e);
    ctx.lineTo(x1 * e, y1 * e);
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(2.5, s * 0.075);
  ctx.lineCap = 'round';
  ctx.stroke();
}

// The "exploded" badge: a starburst with a circular arrow, drawn rather than typed so no font is needed for "↻".
export function starburst(ctx, x, y, r, fill, ink) {
  ctx.beginPath();
  for (let k = 0; k < 20; k++) {
    const a = (k * Math.PI) / 10 - Math.PI / 2,
      rr = k % 2 ? r * 0.72 : r;
    ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
  }
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.strokeStyle = ink;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  const ar = r * 0.38,
    end = 1.35 * Math.PI; // clockwise from the top right round to the top left
  ctx.beginPath();
  ctx.arc(x, y, ar, -0.3 * Math.PI, end);
  ctx.lineWidth = Math.max(1.3, r * 0.15);
  ctx.stroke();
  const ex = x + ar * Math.cos(end),
    ey = y + ar * Math.sin(end),
    h = r * 0.3;
  ctx.beginPath(); // arrowhead pointing along the clockwise tangent
  ctx.moveTo(ex + h * -Math.sin(end), ey + h * Math.cos(end));
  ctx.lineTo(ex + h * 0.8 * Math.cos(end), ey + h * 0.8 * Math.sin(end));
  ctx.lineTo(ex - h * 0.8 * Math.cos(end), ey - h * 0.8 * Math.sin(end));
  ctx.closePath();
  ctx.fillStyle = ink;
  ctx.fill();
}

// The "new" dot: a small notch-dot (at the top left) with an outline of the body colour.
export function dot(ctx, x, y, r, fill, edge) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.strokeStyle = edge;
  ctx.lineWidth = 1.5;
  ctx.stroke();
}

// The badge of a die that makes a botch or a fumble: a warning triangle with an exclamation mark, drawn (no font).
export function warning(ctx, x, y, r, fill, ink) {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r * 0.95, y + r * 0.7);
  ctx.lineTo(x - r * 0.95, y + r * 0.7);
  ctx.closePath();
  ctx.lineJoin = 'round';
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.strokeStyle = ink;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  ctx.beginPath(); // the "!": a bar and a dot
  ctx.moveTo(x, y - r * 0.45);
  ctx.lineTo(x, y + r * 0.15);
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(1.5, r * 0.2);
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x, y + r * 0.42, Math.max(0.9, r * 0.1), 0, 2 * Math.PI);
  ctx.fillStyle = ink;
  ctx.fill();
}

// --- a die as the tray holds it, and its flicker while it tumbles ---
// 'botch' and 'fumble': a die that makes the roll's botch or fumble (drawn alike, named apart)
const MARKS = new Set([
  'removed',
  'cancelled',
  'kept',
  'exploded',
  'new',
  'selected',
  'will',
  'dim',
  'botch',
  'fumble',
]);

/** A die of show()'s list, checked: its face is one of its sides', its marks known ones. */
export function normalise(d, i) {
  const sides = d.sides ?? 6;
  // a d6 shows pips, any other die its number, in the shape of its sides (SHAPES)
  if (!Number.isInteger(sides) || sides < 2) throw new RangeError(`die ${i}: sides must be 2 or more, not ${d.sides}`);
  if (!Number.isInteger(d.face) || d.face < 1 || d.face > sides) {
    throw new RangeError(`die ${i}: ${d.face} is not a face of a d${sides}`);
  }
  const marks = new Set(d.marks ?? []);
  for (const k of marks) if (!MARKS.has(k)) throw new RangeError(`die ${i}: unknown mark "${k}"`);
  const moves = typeof d.moves === 'boolean' ? d.moves : undefined; // undefined: show() decides
  // `pick`: a follow-up can pick this die (a tap on it does something): it keeps a 44 px tap box, and is always shown
  const pick = d.pick === true;
  return { face: d.face, sides, marks, group: d.group ?? '', label: d.label ?? '', key: d.key ?? i, moves, pick, i };
}

// A cheap integer hash to [0, 1): the flicker face for (roll, tick) stays put between frames of one tick.
export function noise(a, b) {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return ((h ^ (h >>> 12)) >>> 0) / 2 ** 32;
}
