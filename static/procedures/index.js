// Views: how each procedure's roll JSON becomes dice marks, words, odds bars and follow-up controls: VIEWS, the one
// map of the page's code by procedure. The rules stay in Python; these functions only present what arbiter.api
// returned, with the numbers it publishes (`spec`: the procedure's systems() entry).
//
//   view.dice(roll, ui, spec) -> [{face, sides, marks, label?, group?, pick?}]   view.tap?(roll, ui, index)
//   (marks: the engine's for each die, the roll's `marks` lists, and the page's own 'selected' for a die tapped;
//    pick: a tap on the die does something now, view.tap's: it keeps a 44 px tap box and is always drawn)
//   view.choices(roll, ui, {act, redraw, spec, situation, refusal, oddsAfter}) -> elements
//   view.odds(odds, request, spec) -> elements
//   (situation: the table's Situation for Pay the Price, port.situation(system); null without the table;
//    refusal(choice): why the table cannot pay for a choice that names its action ({words, left: how much the payer
//    has left, when the engine says}), or null: then shown disabled, or offered no more than is left;
//    oddsAfter(action): a Promise of arbiter.api.odds_after for the shown roll and `action`)
// A procedure without a view here gets generic-view.js's, drawn from its roll JSON alone.
import { withGeneric } from './generic-view.js';

import { h } from '../dom.js';

/** A probability for people: one decimal, and never "0%" or "100%" for what can still happen or fail. */
export function percent(p) {
  if (p === 0) return '0%';
  if (p === 1) return '100%';
  if (p < 0.001) return '<0.1%';
  if (p > 0.999) return '>99.9%';
  return `${(p * 100).toFixed(1)}%`;
}

const title = (s) => s.charAt(0).toUpperCase() + s.slice(1).replaceAll('_', ' ');

/** One labelled bar per entry of `probs` (label → p), in the given order; exact "p/q" kept for tests and tooltips. */
function bars(probs, exact, label = title, caption = null) {
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

function widthSpan(p, cls = '') {
  const span = h('span', cls ? { class: cls } : {});
  span.style.width = `${(p * 100).toFixed(3)}%`;
  return span;
}

/** The dice of one of the engine's lists, each with the marks the engine gave it (`marks`: one list per die), of the
 * procedure's sides (systems()' `waiting_dice.sides`). The page compares no face: the marks say what a die means. */
const dieFaces = (faces, marks, spec, group) =>
  faces.map((face, i) => ({ face, sides: spec.waiting_dice.sides, marks: [...marks[i]], group }));

/** A choice the roll offers with its action: a button that takes it (its odds inside, `odds`), disabled with the
 * reason when `why` (a refusal, {words}) says the table cannot pay for it; what the choice says before the tap
 * follows (`says`), and a choice whose odds' note is muted (no gain) looks it, still enabled. */
const offer = (choice, why, act, c, odds, ...more) =>
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
const says = (c, note = c.odds?.note) => [
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
function whatIfs(odds) {
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
function chanceLine(roll, after, words, waiting = '…') {
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
function liveChance(roll, ui, slot, action, oddsAfter, words, noteBox = null) {
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
function fillNote(box, note) {
  if (!box) return;
  box.replaceChildren(...[noteLine(note)].filter(Boolean));
  box.hidden = !note;
}

// --- threat (002) ---------------------------------------------------------------------------------------------
const threat = {
  dice(roll, ui, spec) {
    // the engine marks the die each threat takes; the page adds the die picked to reassign
    const owner = new Map();
    roll.assignment.forEach((list, t) => list.forEach((d) => owner.set(d, t)));
    return dieFaces(roll.dice, roll.marks, spec).map((die, i) => {
      const t = owner.get(i);
      if (ui.pickedDie === i) die.marks.push('selected');
      // a tap picks the die to reassign while the roll offers that: its 44 px tap box kept (dice.js' `pick`)
      return { ...die, label: t === undefined ? '' : `T${t + 1}`, pick: canAssign(roll) };
    });
  },
  tap(roll, ui, index) {
    // a die goes to another threat, while the roll offers reassigning
    if (canAssign(roll)) ui.pickedDie = ui.pickedDie === index ? null : index;
  },
  choices(roll, ui, { act, spec, situation, refusal = () => null }) {
    const out = [];
    const list = h('ol', { class: 'threat-list', 'data-threats': '' });
    roll.threats.forEach((t, i) => {
      const words = t.die === null ? 'no die: it comes to pass' : `die ${t.die}: ${t.outcome}`;
      const body = [
        h('span', { class: 'name' }, `T${i + 1} ${t.name || '(unnamed threat)'}`),
        t.desperate ? ' (Desperate)' : '',
        h('span', {}, ` — ${words}`),
        t.text ? h('div', { class: 'muted' }, t.text) : null,
      ];
      const move = () => {
        const assign = roll.assignment.map((l) => l.filter((d) => d !== ui.pickedDie));
        assign[i].push(ui.pickedDie);
        act({ assign });
      };
      list.append(
        h(
          'li',
          { 'data-outcome': t.outcome },
          ui.pickedDie === null
            ? body
            : h(
                'button',
                { type: 'button', onclick: move, 'aria-label': `Give die ${ui.pickedDie + 1} to ${t.name}` },
                body,
              ),
        ),
      );
    });
    if (canAssign(roll)) {
      out.push(
        h(
          'p',
          { class: 'muted', 'data-reassign-hint': '' },
          ui.pickedDie === null
            ? 'To reassign, tap a die, then the threat it goes to (a threat takes its highest die).'
            : `Die ${ui.pickedDie + 1} (${roll.dice[ui.pickedDie]}) picked: now tap its threat.`,
        ),
      );
    }
    out.push(list);
    out.push(payThePrice(roll, ui, act, spec, situation, refusal));
    return out;
  },
  odds(odds, request) {
    return odds.threats.map((p, i) => {
      const name = request.threats?.[i]?.name || `Threat ${i + 1}`;
      return h(
        'div',
        { class: 'odds-row stack', 'data-key': `threat-${i}` },
        h('span', { class: 'label' }, name),
        h(
          'span',
          { class: 'bar', 'aria-hidden': 'true' },
          widthSpan(p.happens),
          widthSpan(p.lessened, 's2'),
          widthSpan(p.avoided, 's3'),
        ),
        h(
          'span',
          { class: 'legend' },
          `happens ${percent(p.happens)} · lessened ${percent(p.lessened)} · avoided ${percent(p.avoided)}`,
        ),
      );
    });
  },
};

/** Whether the roll offers reassigning its dice (the engine's `assign` choice: not with one threat, nor once a Price
 * is paid). */
const canAssign = (roll) => roll.choices.some((c) => c.name === 'assign');

/** Pay the Price, when the roll's choices offer it (a threat not Desperate got a 4 or 5, and its Price is not paid
 * yet). The Situation's marks, and who pays, are the table's (`situation`, null without it): an option marked by
 * another player stays offered, and the engine refuses it, naming who marked it; an option the one rolling cannot
 * pay on their sheet (`refusal`: one per option, from the choice's `actions`) is disabled, with the reason. */
function payThePrice(roll, ui, act, { extras }, situation, refusal) {
  const offer = roll.choices.find((c) => c.name === 'pay_the_price');
  if (!offer) return null;
  const marked = situation?.marked ?? [];
  const roller = situation?.roller ?? null;
  const player = roller
    ? null
    : h('input', {
        type: 'text',
        value: situation?.player ?? '',
        autocomplete: 'off',
        maxlength: situation?.maxName,
        'data-price-player': '',
      });
  player?.addEventListener('change', () => situation?.setPlayer(player.value));
  const missing = roller
    ? null
    : h('output', { class: 'field-error', role: 'alert', hidden: true }, 'Name who pays the Price first.');
  const pick = (option) => {
    const by = roller ?? player.value.trim();
    if (!by) {
      missing.hidden = false;
      player.focus();
      return;
    }
    act({ pay_the_price: option, by, marked });
  };
  const refused = refusal(offer) ?? [];
  const items = extras.pay_the_price.map((words, i) => {
    const mark = marked.find((m) => m.option === i);
    const why = refused[i];
    return h(
      'li',
      {},
      h(
        'button',
        {
          type: 'button',
          'aria-pressed': String(Boolean(mark)),
          'data-option': i,
          disabled: Boolean(why),
          onclick: () => pick(i),
        },
        words,
      ),
      mark
        ? h('span', { class: 'muted', 'data-marked-by': mark.by ?? '' }, ` — marked by ${mark.by ?? 'someone'}`)
        : null,
      why ? [' ', h('span', { class: 'field-error', 'data-refusal': '' }, why.words)] : null,
    );
  });
  const details = h(
    'details',
    { class: 'price', open: ui.priceOpen || roll.pay_the_price ? true : null },
    h('summary', {}, offer.label, says(offer)), // what paying ends (the reassigning), said before it opens
    h('p', { class: 'muted' }, extras.pay_the_price_rule),
    roller
      ? h('p', { 'data-price-by': roller }, `Paid by ${roller}, who rolls this.`)
      : h('label', { class: 'tf' }, h('span', {}, 'Who pays the Price'), player),
    missing,
    h('ol', { class: 'price-list' }, items),
    situation
      ? h(
          'p',
          { class: 'muted' },
          `Marks kept for the Situation “${situation.name || '(unnamed)'}”. `,
          h('button', { type: 'button', onclick: () => situation.fresh() }, 'New Situation'),
        )
      : null,
  );
  details.addEventListener('toggle', () => {
    ui.priceOpen = details.open;
  });
  return details;
}

// --- luck (002) -------------------------------------------------------------------------------------------------
const luck = {
  dice: (roll, ui, spec) => dieFaces(roll.dice, roll.marks, spec), // the result's die kept, as the engine marks it
  choices: () => [],
  odds: (odds, request, { extras }) =>
    bars(
      odds.outcomes,
      odds.exact.outcomes,
      (k) => extras.outcome_labels[k] ?? k,
      'Higher results are better outcomes.',
    ),
};

export const VIEWS = withGeneric({ threat, luck });
export { bars, chanceLine, dieFaces, offer, title };

// --- ability_test (004) -----------------------------------------------------------------------------------------
const ability_test = {
  dice(roll, ui, spec) {
    // the engine's marks; the page adds the dice picked to reroll
    const scheme =
      roll.scheme_roll === null ? [] : dieFaces([roll.scheme_roll], [roll.scheme_marks], spec, 'Scheme die (+Ability)');
    // picked before the reroll (a rerolled, new die is never picked: the reroll is once per Test)
    // while the reroll is offered, a tap picks a difficulty die: its 44 px tap box kept (dice.js' `pick`)
    const pick = roll.choices.some((c) => c.name === 'reroll');
    const dice = dieFaces(roll.dice, roll.marks, spec, 'Difficulty dice').map((die, i) =>
      ui.selected.has(i) ? { ...die, marks: ['selected', ...die.marks], pick } : { ...die, pick },
    );
    return [...scheme, ...dice];
  },
  tap(roll, ui, index) {
    const i = index - (roll.scheme_roll !== null ? 1 : 0);
    const reroll = roll.choices.find((c) => c.name === 'reroll');
    if (i < 0 || !reroll) return;
    if (ui.selected.has(i)) ui.selected.delete(i);
    else if (ui.selected.size < reroll.max) ui.selected.add(i);
  },
  choices(roll, ui, { act, redraw, refusal = () => null, oddsAfter }) {
    const out = [];
    for (const c of roll.choices) {
      if (c.name === 'reroll') {
        const picked = [...ui.selected].sort((a, b) => a - b);
        if (c.odds) ui.after = { reroll: { key: JSON.stringify(c.odds.action), odds: c.odds }, ...ui.after };
        // the note of the dice picked (odds_after's), else the choice's own (of its suggestion, or of none)
        const noteBox = h('span', { class: 'choice-says', hidden: true });
        const chance = picked.length
          ? liveChance(roll, ui, 'reroll', { reroll: picked }, oddsAfter, title, noteBox)
          : h('span', { class: 'choice-odds muted' }, 'tap dice to see the chance');
        if (!picked.length) ui.wanted = { ...ui.wanted, reroll: null };
        out.push(
          h(
            'div',
            { class: 'choice', 'data-choice': 'reroll', 'data-note': picked.length ? null : c.odds?.note?.tone },
            h('span', {}, `${c.label}: tap the difficulty dice to reroll (${picked.length}/${c.max} picked).`),
            // a suggestion of no dice is none: the button is left out, the reroll stays open (ability_test-10)
            c.suggested.length
              ? h(
                  'button',
                  {
                    type: 'button',
                    'data-picks': '', // picks dice for the reroll below: it rolls nothing itself
                    onclick: () => {
                      ui.selected = new Set(c.suggested);
                      redraw();
                    },
                  },
                  `Pick the best (${c.suggested.map((i) => roll.dice[i]).join(', ')})`,
                  c.odds ? chanceLine(roll, c.odds, title) : null,
                )
              : null,
            h(
              'button',
              {
                type: 'button',
                class: 'primary',
                disabled: picked.length === 0,
                onclick: () => act({ reroll: picked }),
              },
              picked.length ? `Reroll ${picked.length} ${picked.length === 1 ? 'die' : 'dice'}` : 'Reroll',
              chance,
            ),
            picked.length ? noteBox : says(c),
          ),
        );
      } else if (c.name === 'exert') {
        // the one rolling pays: never more offered than they have left, as the engine said; none left, refused
        const why = refusal(c);
        const max = Math.min(c.max, why?.left ?? c.max);
        const none = Boolean(why) && !(why.left >= c.min);
        const wanted = ui.exert ?? c.exert_needed;
        const input = h('input', {
          type: 'number',
          min: c.min,
          max,
          step: 1,
          disabled: none,
          value: Number(wanted) > max ? max : wanted,
          'aria-label': 'Exertion to spend',
        });
        if (c.odds) ui.after = { exert: { key: JSON.stringify(c.odds.action), odds: c.odds }, ...ui.after };
        const button = h('button', { type: 'button', onclick: () => act({ exert: Number(input.value) }) });
        const note = h('span', { class: 'field-error', 'aria-live': 'polite' });
        const typedNote = h('span', { class: 'choice-says', hidden: true }); // the note of the amount typed (no gain yet)
        // As the player types: the chance of what is typed, or why it cannot be spent (Exert then waits). No redraw,
        // so the box keeps its focus and the first tap on Exert spends what it holds.
        const check = () => {
          const amount = Number(input.value);
          const ok = !none && input.value.trim() !== '' && Number.isInteger(amount) && amount >= c.min && amount <= max;
          if (!ok) ui.wanted = { ...ui.wanted, exert: null }; // an answer for an earlier amount is stale
          if (!ok) fillNote(typedNote, null);
          button.disabled = !ok;
          button.replaceChildren(
            'Exert',
            ok
              ? liveChance(roll, ui, 'exert', { exert: amount }, oddsAfter, title, typedNote)
              : h('span', { class: 'choice-odds' }),
          );
          const words =
            none || (why && amount > max) ? why.words : ok ? '' : `Exertion to spend must be from ${c.min} to ${max}`;
          Object.assign(note, { textContent: words, hidden: !words });
          note.toggleAttribute('data-refusal', Boolean(words));
        };
        input.addEventListener('input', () => {
          ui.exert = input.value;
          check();
        });
        check();
        out.push(
          h(
            'div',
            { class: 'choice', 'data-choice': 'exert' },
            h('span', {}, `Spend Exertion: ${c.exert_needed} would turn this into a success.`),
            input,
            button,
            note,
            typedNote,
          ),
        );
      } else if (c.name === 'negate_setback') {
        out.push(
          offer('negate_setback', refusal(c), () => act(c.action), c, c.odds ? chanceLine(roll, c.odds, title) : null),
        );
      }
    }
    return out;
  },
  odds: (odds) => [
    ...bars(odds.outcomes, odds.exact.outcomes),
    ...bars({ scheme_gain: odds.scheme_gain, setback: odds.setback }, odds.exact, (k) =>
      k === 'scheme_gain' ? 'Earn a Scheme die' : 'Setback',
    ),
    ...whatIfs(odds),
  ],
};
VIEWS.ability_test = ability_test;

// --- arbitration (000) ------------------------------------------------------------------------------------------
const TIER_LABEL = {
  outstanding: 'Success (Outstanding)',
  exceptional: 'Success (Exceptional)',
  good: 'Success (Good)',
  fair: 'Success (Fair)',
  mediocre: 'Success (Mediocre)',
  failure: 'Failure',
  fumble: 'Fumble',
};
const arbitration = {
  dice(roll, ui, spec) {
    // 1s removed, the rest kept, a fumble's dice: as the engine marks them
    if (!roll.defender) return dieFaces(roll.dice, roll.marks, spec);
    return [
      ...dieFaces(roll.dice, roll.marks, spec, 'Aggressor'),
      ...dieFaces(roll.defender.dice, roll.defender.marks, spec, 'Defender'),
    ];
  },
  choices: (roll) =>
    roll.ones > 0
      ? [
          h(
            'p',
            { class: 'muted' },
            `${roll.ones} × 1 removed: the Host may introduce ${roll.ones} consequence${roll.ones === 1 ? '' : 's'} ` +
              '(quirks, flaws, unexpected twists).',
          ),
        ]
      : [],
  odds: (odds, request) =>
    bars(
      odds.outcomes,
      odds.exact.outcomes,
      (k) => TIER_LABEL[k] ?? title(k),
      request.opposed ? 'The aggressor’s result after the defender’s roll:' : null,
    ),
};

// --- two_dice (001) ---------------------------------------------------------------------------------------------
const two_dice = {
  dice(roll, ui, spec) {
    // snake-eyes and double sixes kept, snake-eyes a fumble: as the engine marks them
    if (!roll.target) return dieFaces(roll.dice, roll.marks, spec);
    return [
      ...dieFaces(roll.dice, roll.marks, spec, 'Actor'),
      ...dieFaces(roll.target.dice, roll.target.marks, spec, 'Target'),
    ];
  },
  choices: (roll, ui, { spec }) => {
    const out = [];
    for (const [side, s] of [
      ['', roll.special],
      ['Target: ', roll.target?.special],
    ]) {
      if (s === 'snake-eyes') out.push(h('p', { class: 'muted' }, side + spec.extras.snake_eyes));
      if (s === 'double sixes') out.push(h('p', { class: 'muted' }, side + spec.extras.double_sixes));
    }
    return out;
  },
  odds: (odds, request, spec) =>
    bars(
      odds.outcomes,
      odds.exact.outcomes,
      (k) =>
        ({
          success: `Success (${spec.extras.target}+)`,
          failure: 'Failure',
          actor: 'Actor wins',
          target: 'Target wins (ties)',
        })[k] ?? title(k),
    ),
};
Object.assign(VIEWS, { arbitration, two_dice });

// --- ten_again (003) --------------------------------------------------------------------------------------------
/** One side's dice, Will's and the 10s' re-rolls, marked by the engine (successes kept, 1s and what they ate
 * cancelled, 10s exploded, a botch's 1s, Will's and re-rolled dice new). */
function tenAgainSide(side, group, spec) {
  const base = dieFaces([...side.dice, ...side.will_dice], side.marks, spec, group).map((die, i) => ({
    ...die,
    key: `${group}:${i}`,
  })); // a die keeps its key when Will's dice join
  const rerolls = dieFaces(side.rerolls, side.reroll_marks, spec, group).map((die, k) => ({
    ...die,
    key: `${group}:again ${k}`,
  }));
  return [...base, ...rerolls];
}

const CHANCE_WORDS = { success: 'success', actor: 'actor wins' }; // the headline's key, in a follow-up's words
const ten_again = {
  dice(roll, ui, spec) {
    if (!roll.target) return tenAgainSide(roll, undefined, spec);
    return [...tenAgainSide(roll, 'Actor', spec), ...tenAgainSide(roll.target, 'Target', spec)];
  },
  choices: (roll, ui, { act, refusal = () => null }) =>
    roll.choices
      .filter((c) => c.name === 'spend_will')
      .map((c) =>
        offer(
          `spend_will-${c.side}`,
          refusal(c),
          () => act(c.action),
          c,
          c.odds ? chanceLine(roll, c.odds, (k) => CHANCE_WORDS[k] ?? k) : null,
          h('span', { class: 'muted' }, 'Before declaring your successes: the three dice join this roll.'),
        ),
      ),
  odds(odds, request) {
    const label = (k) =>
      ({
        success: `Success (${request.required}+ successes)`,
        failure: 'Failure',
        botch: 'Botch',
        actor: 'Actor has successes left',
        target: 'Target has successes left',
        tie: 'Tie (none left)',
      })[k] ?? title(k);
    const top = (dist) =>
      Object.fromEntries(
        Object.entries(dist)
          .filter(([, p]) => p >= 0.0005)
          .slice(0, 12),
      );
    const out = [...bars(odds.outcomes, odds.exact.outcomes, label)];
    out.push(
      h('h3', {}, request.opposed ? 'Actor’s successes' : 'Successes'),
      ...bars(top(odds.successes), odds.exact.successes, (k) => `${k}`),
    );
    if (odds.target_successes) {
      out.push(
        h('h3', {}, 'Target’s successes'),
        ...bars(top(odds.target_successes), odds.exact.target_successes, (k) => `${k}`),
      );
    }
    out.push(...whatIfs(odds));
    return out;
  },
};
VIEWS.ten_again = ten_again;
