// The views' parts: what every procedure's view (<id>/view.js) and the generic one draw with, from what arbiter.api
// returned: a probability in words, labelled odds bars, the dice of one of the engine's lists with its marks, a
// choice's button with what it says, the chance after a follow-up (asked of the engine as the player picks) and the
// what-ifs. They name no procedure and compare no face.
import { h } from '../dom.js';

/** A probability for people: one decimal, and never "0%" or "100%" for what can still happen or fail. */
export function percent(p) {
  if (p === 0) return '0%';
  if (p === 1) return '100%';
  if (p < 0.001) return '<0.1%';
  if (p > 0.999) return '>99.9%';
  return `${(p * 100).toFixed(1)}%`;
}

export const title = (s) => s.charAt(0).toUpperCase() + s.slice(1).replaceAll('_', ' ');

/** One labelled bar per entry of `probs` (label → p), in the given order; exact "p/q" kept for tests and tooltips. */
export function bars(probs, exact, label = title, caption = null) {
  const rows = Object.entries(probs).map(([key, p]) =>
    h(
      'div',
      { class: 'odds-row', 'data-key': key, 'data-p': p, 'data-exact': exact?.[key] },
      h('span', { class: 'label' }, label(key)),
      h('span', { class: 'bar', 'aria-hidden': 'true' }, widthSpan(p)),
      h('span', { class: 'pct' }, percent(p)),
    ),
  );
  return caption ? [h('p', { class: 'muted' }, caption), ...rows] : rows;
}

export function widthSpan(p, cls = '') {
  const span = h('span', cls ? { class: cls } : {});
  span.style.width = `${(p * 100).toFixed(3)}%`;
  return span;
}

/** The dice of one of the engine's lists, each with the marks the engine gave it (`marks`: one list per die), of the
 * procedure's sides (systems()' `waiting_dice.sides`). The page compares no face: the marks say what a die means. */
export const dieFaces = (faces, marks, spec, group) =>
  faces.map((face, i) => ({ face, sides: spec.waiting_dice.sides, marks: [...marks[i]], group }));

/** A choice the roll offers with its action: a button that takes it (its odds inside, `odds`), disabled with the
 * reason when `why` (a refusal, {words}) says the table cannot pay for it; what the choice says before the tap
 * follows (`says`), and a choice whose odds' note is muted (no gain) looks it, still enabled. */
export const offer = (choice, why, act, c, odds, ...more) =>
  h(
    'div',
    { class: 'choice', 'data-choice': choice, 'data-note': c.odds?.note?.tone },
    h('button', { type: 'button', disabled: Boolean(why), onclick: () => act() }, c.label, odds),
    ...says(c),
    ...more,
    why ? h('span', { class: 'field-error', 'data-refusal': '' }, why.words) : null,
  );

/** What a choice says before the tap, in the engine's words: what taking it ends (`ends`: the follow-ups it closes),
 * and the note on its odds (`note`). */
export const says = (c, note = c.odds?.note) => [
  c.ends ? h('span', { class: 'choice-ends', 'data-ends': '' }, c.ends) : null,
  noteLine(note),
];

/** A follow-up's note ({words, tone}: "muted" when it cannot raise the chance it is taken for, "warn" when it can
 * only lower it), or nothing: the engine's words, its tone the class. The follow-up stays allowed. */
const noteLine = (note) =>
  note ? h('span', { class: `choice-note ${note.tone}`, 'data-note': note.tone }, note.words) : null;

// --- odds between the choices: the headline outcome is the first of the engine's `outcomes` (its odds' order) ----
/** The headline [key, p, exact] of odds in the engine's shape. */
const headline = (odds) => {
  const [key, p] = Object.entries(odds.outcomes)[0];
  return [key, p, odds.exact.outcomes[key]];
};

/** odds()' what-ifs, one line each: its label (the engine's), the headline's chance with it, and the change from
 * the odds without it in percentage points ("Expend a Will (+3 dice): 73.0% (+32.0)"). */
export function whatIfs(odds) {
  if (!odds.what_if?.length) return [];
  const [, now] = headline(odds);
  return [
    h('h3', {}, 'What if'),
    h(
      'ul',
      { class: 'what-if' },
      odds.what_if.map((w) => {
        const [key, p, exact] = headline(w);
        const points = (p - now) * 100;
        return h(
          'li',
          { 'data-what-if': JSON.stringify(w.change), 'data-key': key, 'data-p': p, 'data-exact': exact },
          `${w.label}: ${percent(p)} (${points >= 0 ? '+' : '−'}${Math.abs(points).toFixed(1)})`,
        );
      }),
    ),
  ];
}

/** "success 41.0% → 73.0%": the roll as it stands (`roll.standing`) against `after` (odds_after's answer), in a
 * span whose room is kept while the answer is awaited (`after` null: `waiting` is shown). */
export function chanceLine(roll, after, words, waiting = '…') {
  const [key, now] = headline(roll.standing);
  const span = h('span', { class: 'choice-odds', 'data-odds-after': '' });
  fillChance(span, key, now, after, words, waiting);
  return span;
}

function fillChance(span, key, now, after, words, waiting) {
  const p = after ? headline(after)[1] : null;
  span.textContent = `${words(key)} ${percent(now)} → ${after ? percent(p) : waiting}`;
  if (after) Object.assign(span.dataset, { key, p, exact: headline(after)[2], action: JSON.stringify(after.action) });
  else for (const k of ['key', 'p', 'exact', 'action']) delete span.dataset[k];
}

/** The chance after `action` in `slot` of `ui`, asked of the engine unless `ui` holds it already; an answer for an
 * action no longer picked (a newer pick, or a new roll: a new `ui`) is dropped. Its note (odds_after's `note`) is
 * put in `noteBox`, when one is given. */
export function liveChance(roll, ui, slot, action, oddsAfter, words, noteBox = null) {
  const key = JSON.stringify(action);
  const known = ui.after?.[slot]?.key === key ? ui.after[slot].odds : null;
  const span = chanceLine(roll, known, words);
  ui.wanted = { ...ui.wanted, [slot]: key };
  ui.spans = { ...ui.spans, [slot]: span };
  ui.notes = { ...ui.notes, [slot]: noteBox };
  fillNote(noteBox, known?.note);
  if (!known && oddsAfter) {
    oddsAfter(action).then(
      (odds) => {
        if (ui.wanted[slot] !== key) return; // stale: another pick, or another roll's ui
        ui.after = { ...ui.after, [slot]: { key, odds: { ...odds, action } } };
        fillChance(ui.spans[slot], headline(roll.standing)[0], headline(roll.standing)[1], ui.after[slot].odds, words);
        fillNote(ui.notes[slot], odds.note);
      },
      () => {
        if (ui.wanted[slot] === key) ui.spans[slot].textContent = '';
      },
    );
  }
  return span;
}

/** `box` holds the note (or nothing, hidden) of the odds shown. */
export function fillNote(box, note) {
  if (!box) return;
  box.replaceChildren(...[noteLine(note)].filter(Boolean));
  box.hidden = !note;
}
