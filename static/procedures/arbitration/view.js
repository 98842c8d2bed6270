// Arbitration's view (000): the dice (an opposed roll's by side), the 1s removed as the Host's consequences, and the
// odds of each tier.
import { h } from '../../dom.js';
import { bars, dieFaces, title } from '../view-parts.js';

const TIER_LABEL = {
  outstanding: 'Success (Outstanding)',
  exceptional: 'Success (Exceptional)',
  good: 'Success (Good)',
  fair: 'Success (Fair)',
  mediocre: 'Success (Mediocre)',
  failure: 'Failure',
  fumble: 'Fumble',
};
export const arbitration = {
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
