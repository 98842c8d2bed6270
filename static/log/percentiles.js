// How lucky the table has been (not the luck procedure: that is procedures/luck/): the log's luck (each roll's, kept at
// roll time) summed up by arbiter.api.luck_summary per character and procedure: the number of rolls, the mean
// percentile (50 is average), successes against the expected, rolls luckier and less lucky than average, and a small
// canvas chart of each roll's percentile, the running mean and the band chance alone keeps it in 9 times in 10, with
// its axes and a legend; the figures in words under it, for everyone and for screen readers. Python computes, this only
// draws.

import { h } from '../dom.js';
import { SYSTEM_NAME } from '../store/words.js';

const WIDTH = 320; // the chart's size in CSS px (it shrinks with the log on a narrow screen)
const HEIGHT = 128;
const DOT = 2.5;
const FONT = 12; // the axes' numbers, in CSS px (the tabs' hints' size)
const AXIS_Y = 32; // room left of the chart for the luck axis' numbers (up to 100)
const AXIS_X = 20; // room below it for the roll axis' numbers
const TICK = 4;
const pct = (p) => (p * 100).toFixed(1); // a percentile, 0 to 100
const colour = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export class PercentilesView {
  constructor(table) {
    this.t = table;
    this.shown = { key: null, summary: null }; // the last answer, for the entries it was asked for
    this.asked = null;
    this.failed = null;
    this.seen = null; // the observer waiting for the view to be on screen before asking
    // the chart's colours follow the page's scheme
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.t.render('log'));
  }

  /** The luck of the log `entries` the filters let through ([id, entry], newest first). */
  view(entries) {
    const kept = entries.filter(([, e]) => e.luck).reverse(); // oldest first
    const key = kept.length ? `${kept.length}:${kept[0][0]}:${kept.at(-1)[0]}` : '';
    const box = h(
      'section',
      { class: 'luck', 'data-luck': '', 'aria-label': 'How lucky the table has been' },
      h('h4', {}, 'How lucky the table has been'),
    );
    if (!kept.length) {
      box.append(h('p', { class: 'muted' }, 'No rolls yet with their luck.'));
      return box;
    }
    // asked once the view is on screen: a roll far from it costs the engine nothing more (one request per tap)
    this.seen?.disconnect();
    if (this.shown.key !== key && this.asked !== key) {
      this.seen = new IntersectionObserver((changes) => {
        if (!changes.some((c) => c.isIntersecting)) return;
        this.seen.disconnect();
        if (this.asked !== key) this.ask(key, kept);
      });
      this.seen.observe(box);
    }
    if (this.shown.key !== key) {
      box.append(
        h(
          'p',
          { class: 'muted luck-wait', 'data-luck-wait': '' },
          this.failed ? `Could not work out the luck: ${this.failed}` : 'Working out the luck…',
        ),
      );
      return box;
    }
    box.dataset.luckReady = key;
    box.append(...this.shown.summary.groups.map((g) => group(g)));
    return box;
  }

  ask(key, kept) {
    this.asked = key;
    const entries = kept.map(([, e]) => ({
      time: e.time,
      character: e.character,
      system: e.system,
      luck: e.luck,
      ...(e.source ? { source: e.source } : {}), // app dice and table dice are kept apart
    }));
    this.t.arbiter.luckSummary(entries).then(
      (summary) => {
        if (this.asked !== key) return; // the log changed meanwhile: a newer answer is coming
        this.shown = { key, summary };
        this.failed = null;
        this.t.render('log');
      },
      (error) => {
        if (this.asked !== key) return;
        this.failed = error.message;
        this.t.render('log');
      },
    );
  }
}

/** Where the mean stands against its band (luck_summary's "standing"), in words. */
const STANDING = {
  below: 'below that band: less lucky than chance alone gives 9 times in 10',
  within: 'inside that band',
  above: 'above that band: luckier than chance alone gives 9 times in 10',
};

/** One character's rolls of one procedure: numbers, a chart with its axes and legend, and the figures in words. */
function group(g) {
  const who = g.character ? g.character.name || '(unnamed)' : 'Nobody';
  const rolls = `${g.rolls} ${g.rolls === 1 ? 'roll' : 'rolls'}`;
  // the group's own dice typed in (issue 21) are a group apart from the app's, said in its title
  const what = `${SYSTEM_NAME[g.system]}${g.source === 'table' ? ' · table dice' : ''}`;
  const numbers =
    `${rolls} · mean luck ${pct(g.mean_percentile)} (50 is average) · ${g.successes} ` +
    `${g.successes === 1 ? 'success' : 'successes'}, ${g.expected_successes.toFixed(1)} expected`;
  const even = g.rolls - g.luckier - g.unluckier;
  const words =
    `${who} · ${what}: ${rolls}, ${g.luckier} luckier than average and ${g.unluckier} less lucky` +
    `${even ? `, ${even} exactly average` : ''}. Mean luck ${pct(g.mean_percentile)} of 100, where 50 is average; ` +
    `chance alone keeps the mean of ${rolls} between ${pct(g.band[0])} and ${pct(g.band[1])} 9 times in 10, and ` +
    `this mean is ${STANDING[g.standing]}. ${g.successes} ${g.successes === 1 ? 'success' : 'successes'} against ` +
    `${g.expected_successes.toFixed(1)} expected.`;
  const each = `Chart of each roll's luck, oldest first: ${g.points.map((p) => pct(p.percentile)).join(', ')}.`;
  const canvas = h('canvas', { class: 'luck-chart', role: 'img', 'aria-label': each, width: WIDTH, height: HEIGHT });
  draw(canvas, g.points);
  return h(
    'figure',
    {
      class: 'luck-group',
      'data-luck-group': `${g.character?.id ?? '-'}:${g.system}${g.source === 'table' ? ':table' : ''}`,
      'data-source': g.source,
      'data-rolls': g.rolls,
      'data-mean': g.mean_percentile,
      'data-expected': g.expected_successes,
      'data-successes': g.successes,
      'data-luckier': g.luckier,
      'data-unluckier': g.unluckier,
      'data-standing': g.standing,
      'data-band': JSON.stringify(g.band),
    },
    h('figcaption', {}, h('strong', {}, who), ` · ${what}`),
    h('p', { class: 'luck-numbers' }, numbers),
    h(
      'div',
      { class: 'luck-plot' },
      h('span', { class: 'luck-axis-y' }, 'Luck of each roll, 0 to 100'),
      canvas,
      h('span', { class: 'luck-axis-x' }, 'Rolls, oldest to newest →'),
    ),
    legend(),
    h('p', { class: 'luck-words', 'data-luck-words': '' }, words),
  );
}

/** What each mark of the chart is, drawn in the chart's own colours (table.css). */
function legend() {
  const key = (mark, text) => h('li', {}, h('span', { class: `luck-key ${mark}`, 'aria-hidden': 'true' }), text);
  return h(
    'ul',
    { class: 'luck-legend', 'aria-label': 'Legend' },
    key('roll', "a roll's luck"),
    key('mean', 'the mean so far'),
    key('band', 'where chance alone keeps the mean 9 times in 10'),
    key('average', 'average luck, 50'),
  );
}

/** Each roll's percentile (dots), the running mean (a line) and its band (shaded), left to right, oldest first, over
 * a luck axis (0, 50 and 100) and a roll axis (the first roll, the middle one, the last). */
function draw(canvas, points) {
  const ratio = devicePixelRatio || 1;
  canvas.width = WIDTH * ratio;
  canvas.height = HEIGHT * ratio;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.scale(ratio, ratio);
  const [top, bottom, left, right] = [FONT / 2, HEIGHT - AXIS_X, AXIS_Y, WIDTH - FONT];
  const x = (i) =>
    points.length === 1 ? (left + right) / 2 : left + 2 * DOT + (i * (right - left - 2 * DOT)) / (points.length - 1);
  const y = (p) => top + (1 - p) * (bottom - top);
  ctx.fillStyle = colour('--line');
  ctx.beginPath();
  points.forEach((p, i) => ctx.lineTo(x(i), y(p.high)));
  for (let i = points.length - 1; i >= 0; i--) ctx.lineTo(x(i), y(points[i].low));
  ctx.closePath();
  const [first] = points;
  if (points.length === 1) ctx.fillRect(x(0) - DOT * 2, y(first.high), DOT * 4, y(first.low) - y(first.high));
  else ctx.fill();
  ctx.strokeStyle = colour('--muted');
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(left, y(0.5));
  ctx.lineTo(right, y(0.5));
  ctx.stroke();
  ctx.setLineDash([]);
  axes(ctx, { top, bottom, left, right, x, y, n: points.length });
  ctx.strokeStyle = colour('--fg');
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  points.forEach((p, i) => ctx.lineTo(x(i), y(p.mean)));
  ctx.stroke();
  ctx.fillStyle = colour('--bar');
  for (const [i, p] of points.entries()) {
    ctx.beginPath();
    ctx.arc(x(i), y(p.percentile), DOT, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** The luck axis (left: 0, 50, 100) and the roll axis (below: the first roll, the middle one and the last, counted
 * from 1), their lines, ticks and numbers in the page's muted colour. */
function axes(ctx, { top, bottom, left, right, x, y, n }) {
  ctx.strokeStyle = colour('--muted');
  ctx.fillStyle = colour('--muted');
  ctx.lineWidth = 1;
  ctx.font = `${FONT}px ${getComputedStyle(document.body).fontFamily}`;
  ctx.beginPath();
  ctx.moveTo(left, top);
  ctx.lineTo(left, bottom);
  ctx.lineTo(right, bottom);
  ctx.stroke();
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  const luck = [0, 0.5, 1].map((p) => [p, String(Math.round(p * 100))]);
  for (const [p, label] of luck) {
    ctx.beginPath();
    ctx.moveTo(left - TICK, y(p));
    ctx.lineTo(left, y(p));
    ctx.stroke();
    ctx.fillText(label, left - TICK * 1.5, y(p));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const rolls = [...new Set([0, Math.floor((n - 1) / 2), n - 1])];
  for (const i of rolls) {
    ctx.beginPath();
    ctx.moveTo(x(i), bottom);
    ctx.lineTo(x(i), bottom + TICK);
    ctx.stroke();
    const label = String(i + 1);
    const half = ctx.measureText(label).width / 2;
    ctx.fillText(label, Math.min(Math.max(x(i), half), WIDTH - half), bottom + TICK * 1.5);
  }
  // the numbers drawn on each axis, for a test to read
  ctx.canvas.dataset.axisLuck = luck.map(([, label]) => label).join(' ');
  ctx.canvas.dataset.axisRolls = rolls.map((i) => i + 1).join(' ');
}
