// How lucky the table has been: the log's luck (each roll's, kept at roll time) summed up by
// arbiter.api.luck_summary per character and procedure: the number of rolls, the mean percentile (50 is average),
// successes against the expected, and a small canvas chart of each roll's percentile, the running mean and the band
// chance alone keeps it in 9 times in 10; the same in words for screen readers. Python computes, this only draws.

import { h } from './dom.js';
import { SYSTEM_NAME } from './words.js';

const WIDTH = 320; // the chart's size in CSS px (it shrinks with the log on a narrow screen)
const HEIGHT = 96;
const DOT = 2.5;
const pct = (p) => (p * 100).toFixed(1); // a percentile, 0 to 100
const colour = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export class LuckView {
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
    const entries = kept.map(([, e]) => ({ time: e.time, character: e.character, system: e.system, luck: e.luck }));
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

/** One character's rolls of one procedure: numbers, chart, words. */
function group(g) {
  const who = g.character ? g.character.name || '(unnamed)' : 'Nobody';
  const name = `${who} · ${SYSTEM_NAME[g.system]}`;
  const rolls = `${g.rolls} ${g.rolls === 1 ? 'roll' : 'rolls'}`;
  const numbers =
    `${rolls} · mean luck ${pct(g.mean_percentile)} (50 is average) · ${g.successes} ` +
    `${g.successes === 1 ? 'success' : 'successes'}, ${g.expected_successes.toFixed(1)} expected`;
  const words =
    `${name}: ${rolls}, mean luck ${pct(g.mean_percentile)} of 100, where 50 is average luck and chance ` +
    `alone keeps the mean of ${rolls} between ${pct(g.band[0])} and ${pct(g.band[1])} 9 times in 10; ` +
    `${g.successes} successes against ${g.expected_successes.toFixed(1)} expected. Each roll's luck, oldest first: ` +
    `${g.points.map((p) => pct(p.percentile)).join(', ')}.`;
  const canvas = h('canvas', { class: 'luck-chart', role: 'img', 'aria-label': words, width: WIDTH, height: HEIGHT });
  draw(canvas, g.points);
  return h(
    'figure',
    {
      class: 'luck-group',
      'data-luck-group': `${g.character?.id ?? '-'}:${g.system}`,
      'data-rolls': g.rolls,
      'data-mean': g.mean_percentile,
      'data-expected': g.expected_successes,
      'data-successes': g.successes,
      'data-band': JSON.stringify(g.band),
    },
    h('figcaption', {}, h('strong', {}, who), ` · ${SYSTEM_NAME[g.system]}`),
    h('p', { class: 'luck-numbers' }, numbers),
    canvas,
  );
}

/** Each roll's percentile (dots), the running mean (a line) and its band (shaded), left to right, oldest first. */
function draw(canvas, points) {
  const ratio = devicePixelRatio || 1;
  canvas.width = WIDTH * ratio;
  canvas.height = HEIGHT * ratio;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.scale(ratio, ratio);
  const x = (i) => (points.length === 1 ? WIDTH / 2 : 2 * DOT + (i * (WIDTH - 4 * DOT)) / (points.length - 1));
  const y = (p) => DOT + (1 - p) * (HEIGHT - 2 * DOT);
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
  ctx.moveTo(0, y(0.5));
  ctx.lineTo(WIDTH, y(0.5));
  ctx.stroke();
  ctx.setLineDash([]);
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
