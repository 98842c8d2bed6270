// "Are my dice fair?" (issue 21): the group's own dice, typed in on the face pad, gathered from the log per character
// and die kind by arbiter.api.fairness_summary (a contest's other side and the Narrator's Scheme die left out) and
// tested there against a fair die (Pearson's chi-square). This only draws its answer: the words, a bar for each face
// against the count a fair die gives (a mark on each bar, the legend's), and about how many faces would find a die
// that favours one face (a figure the engine looks up: fairness_power.py). Python computes.

import { h } from '../dom.js';

export class FairnessView {
  constructor(table) {
    this.t = table;
    this.shown = { key: null, summary: null }; // the last answer, for the entries it was asked for
    this.asked = null;
    this.failed = null;
    this.seen = null; // the observer waiting for the view to be on screen before asking
  }

  /** The fairness of the table dice among the log `entries` the filters let through ([id, entry], newest first). */
  view(entries) {
    const kept = entries.filter(([, e]) => e.source === 'table' && e.own?.length).reverse(); // oldest first
    const key = kept.length ? `${kept.length}:${kept[0][0]}:${kept.at(-1)[0]}` : '';
    const box = h(
      'section',
      { class: 'fairness', 'data-fairness': '', 'aria-label': 'Are my dice fair?' },
      h('h4', {}, 'Are my dice fair?'),
    );
    if (!kept.length) {
      box.append(h('p', { class: 'muted' }, 'No table dice yet: choose “Table dice” by Roll and type in your own.'));
      return box;
    }
    // asked once the view is on screen, as the luck is (one request per tap: a roll far from it costs nothing more)
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
      const wait = this.failed ? `Could not test the dice: ${this.failed}` : 'Testing the dice…';
      box.append(h('p', { class: 'muted', 'data-fairness-wait': '' }, wait));
      return box;
    }
    box.dataset.fairnessReady = key;
    box.append(...this.shown.summary.groups.map((g) => group(g)));
    return box;
  }

  ask(key, kept) {
    this.asked = key;
    const entries = kept.map(([, e]) => ({ character: e.character, system: e.system, source: e.source, own: e.own }));
    this.t.arbiter.fairnessSummary(entries).then(
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

/** One character's faces of one die: the words, a bar per face against a fair die's count, the faces it takes. */
function group(g) {
  const f = g.fairness;
  const who = g.character ? g.character.name || '(unnamed)' : 'Nobody';
  const most = Math.max(f.expected, ...f.counts);
  const share = (count) => String(count / most);
  const bars = f.counts.map((count, i) => {
    const face = i + 1;
    const bar = h('span', { class: 'fair-bar', 'aria-hidden': 'true' });
    bar.style.setProperty('--share', share(count));
    const mark = h('span', { class: 'fair-expected', 'aria-hidden': 'true' }); // a fair die's count, on every bar
    mark.style.setProperty('--share', share(f.expected));
    return h(
      'li',
      { 'data-face': face, 'data-count': count, ...(f.named.includes(face) ? { 'data-named': '' } : {}) },
      h('span', { class: 'fair-face' }, String(face)),
      h('span', { class: 'fair-track' }, bar, mark),
      h('span', { class: 'fair-count' }, `${count}`),
    );
  });
  return h(
    'figure',
    {
      class: 'fairness-group',
      'data-fairness-group': `${g.character?.id ?? '-'}:d${g.sides}`,
      'data-n': f.n,
      'data-enough': String(f.enough),
      ...(f.enough ? { 'data-p': f.p_value, 'data-unfair': String(f.unfair) } : {}),
    },
    h('figcaption', {}, h('strong', {}, who), ` · d${g.sides}, table dice`),
    h('p', { class: 'fairness-words', 'data-fairness-words': '' }, f.words),
    h(
      'ol',
      {
        class: 'fair-bars',
        'aria-label': `Each face's count; a fair die gives ${f.expected.toFixed(1)} of each`,
      },
      bars,
    ),
    h(
      'p',
      { class: 'muted fair-legend' },
      h('span', { class: 'fair-expected', 'aria-hidden': 'true' }),
      ` a fair die: ${f.expected.toFixed(1)} of each face`,
    ),
    h(
      'p',
      { class: 'muted', 'data-faces-to-find': f.faces_to_find_a_loaded_die, 'data-power': f.power },
      `About ${f.faces_to_find_a_loaded_die} faces in all would show, at least ${Math.round(f.power_wanted * 100)}% ` +
        'of the time, a die whose one face comes up twice as often as each other face.',
    ),
  );
}
