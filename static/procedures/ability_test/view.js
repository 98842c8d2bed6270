// The Ability Test's view (004): the Scheme die and the difficulty dice (a tap picks dice to reroll), the reroll,
// Exertion and the Setback's negation with their odds as the player picks or types, and the odds with the Scheme's
// gain, the Setback and the what-ifs.
import { h } from '../../dom.js';
import { bars, chanceLine, dieFaces, fillNote, liveChance, offer, says, title, whatIfs } from '../view-parts.js';

export const ability_test = {
  dice(roll, ui, spec) {
    // the engine's marks; the page adds the dice picked to reroll
    const scheme =
      roll.scheme_roll === null ? [] : dieFaces([roll.scheme_roll], [roll.scheme_marks], spec, 'Scheme die (+Ability)');
    // picked before the reroll (a rerolled, new die is never picked: the reroll is once per Test)
    // while the reroll is offered, a tap picks a difficulty die: its 44 px tap box kept (dice/tray.js' `pick`)
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
