// Two dice's view (001): the dice (an opposed roll's by side), snake-eyes and double sixes in the procedure's words,
// and the odds.
import { h } from '../../dom.js';
import { bars, dieFaces, title } from '../view-parts.js';

export const two_dice = {
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
