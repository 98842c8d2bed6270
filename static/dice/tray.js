// Arbiter's canvas dice tray. It knows nothing about the rules, only faces and marks: the engine decides
// what a die means, a procedure's view turns that into marks, and this module lays out, tumbles and reports taps (how
// each die looks is draw.js').
// Everything is laid out in CSS pixels and drawn on a backing store sized by devicePixelRatio.

import { D6, roundedPoly, drawDie, normalise, shapeOf } from './draw.js';

const TUMBLE_MS = 700; // about 0.7 s: reads as a roll without keeping the table waiting (at full speed)
const WAVE_GAP_MS = 350; // "new" dice start this long after the first wave lands, so they read as a second roll
const STAGGER_MS = 90; // small random start offsets so thirty dice do not move in lockstep
const MAX_SIZE = 56; // CSS px: a die's size in a tray of few dice
const MIN_SIZE = 36; // CSS px; 36 and its gap make a 44 px tap box, 30 dice in 5 rows at 360 px
const SMALL_SIZE = 28; // CSS px: the least a die is drawn, when no follow-up can pick any die of the tray
const TAP = 44; // CSS px: a die a follow-up can pick (`pick`) has a tap box (the die and half the gap each side,
// _hit) of at least this
const ROOM = 0.6; // of the view's height: the most the tray takes before its dice are drawn smaller
const MOST_SHOWN = 20; // up to this many dice the tray shows them all; past it, those that count (COUNTS)
/** The marks that make a die count (the engine's: a success kept, a die cancelled or cancelling, a 10 that exploded,
 * a botch's or fumble's die) or that the page gave it (picked): past MOST_SHOWN dice, only these and the dice a
 * follow-up can pick are drawn, and the tray says how many more there are. */
const COUNTS = ['kept', 'cancelled', 'exploded', 'botch', 'fumble', 'selected'];
const MORE_H = 20; // the line under a group saying how many of its dice are not shown
const PAD = 10; // room round the tray for rings, badges and a selected die's raise
const GROUP_H = 24; // a group's label row
const GROUP_SEP = 8; // extra space before a group
const CAPTION_H = 14; // a die's caption
/** The dice's speeds: the longest a landing may take, in ms from show() to the last die at rest, a second wave
 * included. Full tumbles as timed above; Quick is the same tumble, faster, to land within 400 ms, less a 60 Hz frame
 * (the frame that draws the landing comes up to one frame after it); Off lands at once. */
export const SPEEDS = { full: Infinity, quick: 400 - 16, off: 0 };
const gapFor = (s) => Math.max(8, Math.round(s * 0.2), TAP - s); // >= 8 so neighbours' rings never overlap
const smallGap = (s) => Math.max(8, Math.round(s * 0.2)); // dice no follow-up can pick: no 44 px tap box

// Used when the page sets no --die-* custom properties on the canvas (see dice.css).
const FALLBACK = {
  light: {
    bg: '#fffdf7',
    fg: '#1f2328',
    edge: 'rgba(0,0,0,.25)',
    mark: '#1d5fd6',
    strike: '#b42318',
    removedBg: '#d6d6d3',
    removedFg: '#6e6e6e',
    willBg: '#e6dcff',
    shadow: 'rgba(0,0,0,.3)',
    focus: '#0b57d0',
  },
  dark: {
    bg: '#30333a',
    fg: '#f3f3f3',
    edge: 'rgba(255,255,255,.28)',
    mark: '#8ab4ff',
    strike: '#ff8a80',
    removedBg: '#3b3c3f',
    removedFg: '#9a9a9a',
    willBg: '#47397a',
    shadow: 'rgba(0,0,0,.75)',
    focus: '#a8c7fa',
  },
};
const VARS = {
  bg: '--die-bg',
  fg: '--die-fg',
  edge: '--die-edge',
  mark: '--die-mark',
  strike: '--die-strike',
  removedBg: '--die-removed-bg',
  removedFg: '--die-removed-fg',
  willBg: '--die-will-bg',
  shadow: '--die-shadow',
  focus: '--die-focus',
  label: '--die-label',
};

export class DiceTray {
  constructor(canvas, { onTap } = {}) {
    this.canvas = canvas;
    this.onTap = onTap;
    this.dice = []; // normalised dice, each with its layout box (x, y, s, row)
    this.labels = []; // group labels and "N more" lines: {text, x, y, more?}
    this.focus = -1; // die index under the keyboard focus ring
    this.keyboard = false; // the ring shows only while the keyboard is in use, not after a tap
    this.anim = null; // {t0, end, tumble, raf, timer, resolve} while tumbling
    this.moved = []; // the dice the last show() moved
    this.width = this.height = 0;
    canvas.setAttribute('role', 'img');
    if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;
    this.dark = matchMedia('(prefers-color-scheme: dark)');
    this.dark.addEventListener('change', () => {
      this._readColors();
      this._draw();
    });
    this._watchDpr();
    // The tray's height follows its width, so laying out inside the observer's callback would resize what it
    // observes in the same frame: WebKit and Firefox then report a "ResizeObserver loop" error. Lay out on the next
    // frame.
    new ResizeObserver(() => {
      cancelAnimationFrame(this.resizeFrame);
      this.resizeFrame = requestAnimationFrame(() => this._layout());
    }).observe(canvas);
    canvas.addEventListener('pointerdown', (e) => this._pointerDown(e));
    canvas.addEventListener('click', (e) => this._click(e));
    canvas.addEventListener('keydown', (e) => this._key(e));
    canvas.addEventListener('focus', () => {
      if (canvas.matches(':focus-visible')) {
        this.keyboard = true;
        if (this.focus < 0 && this.dice.length) this.focus = this._shown(0, 1);
      }
      this._draw();
    });
    canvas.addEventListener('blur', () => this._draw());
    canvas.addEventListener('pointermove', (e) => {
      canvas.style.cursor = this.onTap && !this.anim && this._hit(e) >= 0 ? 'pointer' : '';
    });
    this.c = null; // colours, read at the first layout
    // No layout here: the ResizeObserver's first call sizes and draws the tray once the page is laid out anyway,
    // so building a tray never forces a layout of its own while the page loads.
    this._landed();
  }

  /** The canvas's 2D context, made at the first drawing (a frame's task, not the one that builds the tray). */
  get ctx() {
    return (this.context ??= this.canvas.getContext('2d'));
  }

  /** Show these dice, tumbling at `speed` (a name of SPEEDS) unless told not to; resolves with the faces once landed.
   * Only dice that move tumble (`moved`, until the next show): one that says so (`moves`), else with `changed` one new
   * to the tray (no die had its `key`, by default its index), on another face, or newly marked "new" (rolled again:
   * maybe on the same face). The canvas's `data-tumble-ms` says how long the landing was planned to take (0: at once). */
  show(dice, { animate = true, changed = false, speed = 'full' } = {}) {
    if (this.anim?.waiting) {
      // waiting dice make way
      cancelAnimationFrame(this.anim.raf);
      this.anim = null;
    }
    const before = new Map(this.dice.map((d) => [d.key, d]));
    this.skip(); // a new roll supersedes one still tumbling; its promise resolves now
    this._set(dice);
    for (const d of this.dice) {
      const was = before.get(d.key);
      d.moves ??= !changed || !was || was.face !== d.face || (d.marks.has('new') && !was.marks.has('new'));
    }
    const moving = this.dice.filter((d) => d.moves);
    this.moved = moving;
    const within = SPEEDS[speed] ?? SPEEDS.full;
    if (!animate || !moving.length || within <= 0) {
      this.canvas.dataset.tumbleMs = '0';
      this._landed();
      return Promise.resolve(this.faces());
    }
    // First wave: every moving die not marked "new". Second wave: the "new" ones, after the first has landed.
    const second = moving.some((d) => !d.marks.has('new')) ? STAGGER_MS + TUMBLE_MS + WAVE_GAP_MS : 0;
    for (const d of this.dice) {
      d.start = d.moves ? (d.marks.has('new') ? second : 0) + Math.random() * STAGGER_MS : -Infinity; // still: landed
      d.spin = (Math.random() < 0.5 ? -1 : 1) * (1.5 + Math.random() * 1.5) * Math.PI;
      d.seed = (Math.random() * 2 ** 31) | 0;
    }
    // The same tumble, waves and all, played faster to land within the speed's time (Full: as timed)
    const k = Math.min(1, within / (Math.max(...moving.map((d) => d.start)) + TUMBLE_MS));
    for (const d of moving) d.start *= k;
    const tumble = TUMBLE_MS * k;
    const end = Math.max(...moving.map((d) => d.start)) + tumble;
    this.canvas.dataset.tumbleMs = String(Math.round(end));
    delete this.canvas.dataset.faces; // set only at landing, so a test can wait for state=landed and compare
    this.canvas.dataset.state = 'rolling';
    this.canvas.dataset.moving = moving.map((d) => d.i).join(' '); // which dice tumble, for a test to read
    this.canvas.setAttribute('aria-label', `Rolling ${moving.length} ${moving.length === 1 ? 'die' : 'dice'}`);
    return new Promise((resolve) => {
      const a = (this.anim = { t0: performance.now(), end, tumble, resolve });
      const frame = (now) => {
        if (this.anim !== a) return;
        if (now - a.t0 >= end) return this._landed();
        this._draw(now - a.t0);
        a.raf = requestAnimationFrame(frame);
      };
      a.raf = requestAnimationFrame(frame);
      // requestAnimationFrame sleeps in a hidden tab; the roll must still land and resolve.
      a.timer = setTimeout(() => this.anim === a && this._landed(), end + 250);
    });
  }

  /** Tumble these dice until show() puts the real ones in their place (a roll asked before the engine could answer):
   * their faces mean nothing, so they are faded and a tap does not land them; at speed 'off', one still frame. */
  wait(dice, { speed = 'full' } = {}) {
    this.skip();
    this._set(dice);
    for (const d of this.dice) Object.assign(d, { spin: Math.PI / 6, seed: (Math.random() * 2 ** 31) | 0 });
    delete this.canvas.dataset.faces;
    this.canvas.dataset.state = 'rolling';
    this.canvas.setAttribute('aria-label', `Rolling ${this.dice.length} ${this.dice.length === 1 ? 'die' : 'dice'}`);
    const a = (this.anim = { t0: performance.now(), waiting: true, resolve: () => {} });
    const frame = (now) => {
      if (this.anim !== a) return;
      this._draw(now - a.t0);
      if (SPEEDS[speed] !== 0) a.raf = requestAnimationFrame(frame);
    };
    a.raf = requestAnimationFrame(frame);
  }

  /** Jump to the landed state now (not dice that wait: they have no faces to land on). */
  skip() {
    if (this.anim && !this.anim.waiting) this._landed();
  }

  /** Redraw with new marks (e.g. a selection toggled), without animation. */
  update(dice) {
    this.skip();
    this._set(dice);
    this._landed();
  }

  clear() {
    this.skip();
    this._set([]);
    this._landed();
  }

  faces() {
    return this.dice.map((d) => d.face);
  }

  _set(dice) {
    this.dice = dice.map(normalise);
    // past MOST_SHOWN dice, one that neither counts nor can be picked is left out of the drawing (still in faces())
    const many = this.dice.length > MOST_SHOWN;
    for (const d of this.dice) d.hidden = many && !d.pick && !COUNTS.some((m) => d.marks.has(m));
    this.focus = Math.min(this.focus, this.dice.length - 1);
    this._readColors();
    this._layout(true);
  }

  _landed() {
    const a = this.anim;
    this.anim = null;
    if (a) {
      cancelAnimationFrame(a.raf);
      clearTimeout(a.timer);
    }
    this.canvas.dataset.faces = JSON.stringify(this.faces());
    // each die's sides, and the shape it is drawn as (a d20 as a d20), for a test to read
    this.canvas.dataset.sides = JSON.stringify(this.dice.map((d) => d.sides));
    this.canvas.dataset.shapes = JSON.stringify(this.dice.map((d) => shapeOf(d.sides).name));
    delete this.canvas.dataset.moving;
    this.canvas.dataset.state = this.dice.length ? 'landed' : 'empty';
    this.canvas.setAttribute('aria-label', this._describe());
    this._draw();
    a?.resolve(this.faces());
  }

  // "4 dice: 1 (removed), 3, 6, 6", with groups as "Actor: 3, 5; Target: 6".
  _describe() {
    const n = this.dice.length;
    if (!n) return 'No dice';
    const say = (d) => {
      const notes = [d.label, ...[...d.marks].filter((m) => m !== 'dim')].filter(Boolean);
      return notes.length ? `${d.face} (${notes.join(', ')})` : `${d.face}`;
    };
    const parts = groupsOf(this.dice).map((g) => (g.name ? `${g.name}: ` : '') + g.dice.map(say).join(', '));
    return `${n} ${n === 1 ? 'die' : 'dice'}: ${parts.join('; ')}`;
  }

  _readColors() {
    const cs = getComputedStyle(this.canvas);
    const fallback = FALLBACK[this.dark.matches ? 'dark' : 'light'];
    this.c = {};
    for (const [k, v] of Object.entries(VARS)) this.c[k] = cs.getPropertyValue(v).trim() || fallback[k] || cs.color;
  }

  // ResizeObserver does not fire when only devicePixelRatio changes (zoom, a move to another screen).
  _watchDpr() {
    matchMedia(`(resolution: ${devicePixelRatio}dppx)`).addEventListener(
      'change',
      () => {
        this._layout(true);
        this._watchDpr();
      },
      { once: true },
    );
  }

  // Wrap the shown dice into rows (one run of rows per group, under its label, with a line saying how many of the
  // group's dice are not shown) and size the canvas to fit them: the largest dice that keep the tray to a few rows and
  // within ROOM of the view's height, down to MIN_SIZE when a follow-up can pick a die (its 44 px tap box), else to
  // SMALL_SIZE. Past that the tray grows: it never hides a die that counts, and it never scrolls within itself.
  _layout(force = false) {
    const w = this.canvas.getBoundingClientRect().width;
    if (!w || (!force && w === this.width)) return; // hidden, or only our own height change
    if (!this.c) this._readColors();
    const groups = groupsOf(this.dice);
    const pick = this.dice.some((d) => d.pick && !d.hidden);
    const gapOf = pick ? gapFor : smallGap;
    const least = pick ? MIN_SIZE : SMALL_SIZE;
    const perRow = (s) => Math.max(1, Math.floor((w - 2 * PAD + gapOf(s)) / (s + gapOf(s))));
    const rows = (s) => groups.reduce((n, g) => n + Math.ceil(g.shown.length / perRow(s)), 0);
    // Many dice shrink a little (never below MIN_SIZE) to keep the tray to a few rows, then (never below `least`) to
    // keep it within ROOM of the view; past that they wrap.
    let s = MAX_SIZE;
    while (s > MIN_SIZE && rows(s) > groups.length + 2) s -= 2;
    const room = ROOM * (innerHeight || Infinity);
    while (s > least && this._place(groups, w, s, gapOf(s), perRow(s)) > room) s -= 2;
    const h = this._place(groups, w, s, gapOf(s), perRow(s));
    const dpr = devicePixelRatio || 1;
    this.width = w;
    this.height = h;
    this.canvas.style.height = `${h}px`;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    // where each die is drawn (CSS px from the canvas's corner; null: not shown), and how many are not shown
    this.canvas.dataset.boxes = JSON.stringify(this.dice.map((d) => (d.hidden ? null : [d.x, d.y, d.s])));
    const more = this.dice.filter((d) => d.hidden).length;
    if (more) this.canvas.dataset.more = String(more);
    else delete this.canvas.dataset.more;
    this._draw();
  }

  /** Lay the shown dice of `groups` out at size `s` (`gap` between them, `n` to a row); the tray's height. */
  _place(groups, w, s, gap, n) {
    const labelled = groups.some((g) => g.name);
    this.gap = gap;
    let y = PAD,
      row = 0;
    this.labels = [];
    for (const g of groups) {
      if (g.name) {
        // the label sits nearer its own dice than the group above, with room for a raised die's rings
        if (row) y += GROUP_SEP;
        this.labels.push({ text: g.name, x: PAD, y: y + 7 });
        y += GROUP_H;
      }
      for (let k = 0; k < g.shown.length; k += n, row++) {
        const line = g.shown.slice(k, k + n);
        const cap = line.some((d) => d.label) ? CAPTION_H : 0; // only rows with captions make room for them
        // Centred rows look best for one handful; labelled groups align left under their label.
        let x = labelled ? PAD : (w - line.length * s - (line.length - 1) * gap) / 2;
        for (const d of line) {
          Object.assign(d, { x, y, s, row, cap });
          x += s + gap;
        }
        y += s + cap + gap;
      }
      const more = g.dice.length - g.shown.length;
      if (more) {
        const text =
          more === 1 ? '1 more die, not shown: it does not count' : `${more} more dice, not shown: none counts`;
        this.labels.push({ text, x: PAD, y: y + MORE_H / 2 - (g.shown.length ? gap / 2 : 0), more: true });
        y += MORE_H;
        row++;
      }
    }
    for (const d of this.dice) if (d.hidden) Object.assign(d, { x: -1, y: -1, s: 0, row: -1, cap: 0 });
    return this.dice.length ? y - gap + PAD : MAX_SIZE + 2 * PAD; // an empty tray keeps one row's height
  }

  _draw(t = Infinity) {
    // A tray that never held dice draws nothing (sizing clears a canvas): no 2D context while the page loads.
    if (!this.width || (!this.context && !this.dice.length)) return;
    const { ctx, canvas, c } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(canvas.width / this.width, 0, 0, canvas.height / this.height, 0, 0);
    ctx.fillStyle = c.label;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    for (const l of this.labels) {
      ctx.font = l.more ? '400 12px system-ui, sans-serif' : '600 13px system-ui, sans-serif';
      ctx.fillText(l.text, l.x, l.y);
    }
    for (const d of this.dice) if (!d.hidden) drawDie(ctx, c, d, this._progress(d, t), t, Boolean(this.anim?.waiting));
    const f = this.dice[this.focus];
    if (f && !this.anim && this.keyboard && document.activeElement === canvas) {
      const lift = f.marks.has('selected') ? 3 : 0,
        o = this.gap / 2 + 1;
      ctx.strokeStyle = c.focus;
      ctx.lineWidth = 2;
      const ring = D6.map(([x, y]) => [f.x + f.s / 2 + x * (f.s + 2 * o), f.y + f.s / 2 - lift + y * (f.s + 2 * o)]);
      roundedPoly(ctx, ring, 8);
      ctx.stroke();
    }
  }

  /** How far die `d` is through its tumble at `t` ms: at most 0 before a later wave's die comes in, 1 once landed;
   * a die that waits for the engine swings to and fro mid-tumble. */
  _progress(d, t) {
    if (this.anim?.waiting) return 0.3 + 0.25 * Math.abs(((t / TUMBLE_MS) % 2) - 1);
    return this.anim ? (t - d.start) / this.anim.tumble : 1;
  }

  // Pointer coordinates are CSS px from the canvas's corner; the layout is in CSS px too, so the DPR never enters.
  _hit(e) {
    const r = this.canvas.getBoundingClientRect();
    const x = ((e.clientX - r.left) * this.width) / r.width,
      y = ((e.clientY - r.top) * this.height) / r.height;
    const g = this.gap / 2; // half the gap each side: no dead zones between dice
    return this.dice.findIndex(
      (d) => !d.hidden && x >= d.x - g && x < d.x + d.s + g && y >= d.y - g && y < d.y + d.s + d.cap + g,
    );
  }

  _pointerDown() {
    this.keyboard = false;
    if (this.anim) {
      this.skip();
      this.skippedAt = performance.now();
    }
  }

  _click(e) {
    if (this.anim || performance.now() - (this.skippedAt ?? -1e9) < 600) return; // that tap only skipped the roll
    const i = this._hit(e);
    if (i < 0) return;
    this.focus = i;
    this.onTap?.(i);
  }

  _key(e) {
    this.keyboard = true;
    if (this.anim) {
      if (e.key === 'Enter' || e.key === ' ' || e.key === 'Escape') {
        e.preventDefault();
        this.skip();
      }
      return;
    }
    const n = this.dice.length,
      f = this.focus;
    if (!n) return;
    let next;
    switch (e.key) {
      case 'ArrowRight':
        next = f + 1;
        break;
      case 'ArrowLeft':
        next = f - 1;
        break;
      case 'ArrowDown':
      case 'ArrowUp':
        next = this._vertical(f, e.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = n - 1;
        break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        if (f >= 0) {
          this.onTap?.(f);
        } else {
          this.focus = 0;
          this._draw();
        }
        return;
      default:
        return;
    }
    e.preventDefault();
    // a die not shown is stepped over, the way the key went (Home and End: to the first and last shown)
    const step = e.key === 'ArrowLeft' || e.key === 'End' ? -1 : 1;
    this.focus = this._shown(f < 0 ? 0 : Math.max(0, Math.min(n - 1, next)), step);
    this._draw();
  }

  /** The first shown die from index `i` on, going `step` (then the other way at the end); -1 when none is shown. */
  _shown(i, step) {
    for (const dir of [step, -step]) {
      for (let k = i; k >= 0 && k < this.dice.length; k += dir) if (!this.dice[k].hidden) return k;
    }
    return -1;
  }

  // The die in the next row up or down whose centre is nearest this one's, or stay put at the edge.
  _vertical(f, dir) {
    const here = this.dice[f];
    if (!here) return 0;
    let best = f,
      dist = Infinity;
    for (const d of this.dice) {
      if (d.hidden || d.row !== here.row + dir || Math.abs(d.x - here.x) >= dist) continue;
      best = d.i;
      dist = Math.abs(d.x - here.x);
    }
    return best;
  }
}

// Groups in order of first appearance; dice keep their own indexes.
function groupsOf(dice) {
  const groups = [];
  for (const d of dice) {
    let g = groups.find((g) => g.name === d.group);
    if (!g) groups.push((g = { name: d.group, dice: [], shown: [] }));
    g.dice.push(d);
    if (!d.hidden) g.shown.push(d);
  }
  return groups;
}
