// A Threat & Luck sheet: ability ratings (one is the Threat Roll's) and counters; Luck needs nothing from it.

import { h, select } from '../../dom.js';

export function use({ s, p, k, fill, fillFor, spec }) {
  const ratings = spec.sheet_choices.find((f) => f.name === 'rating').options.map((o) => o.value);
  return [
    select(
      k('rating'),
      'Ability rating',
      ratings.map((r) => [r, `${r} ${s.ratings[r]}`]),
      p.rating,
      (v) => {
        p.rating = v;
      },
    ),
    fill('threat', 'Fill the Threat Roll'),
    h(
      'button',
      { type: 'button', 'data-k': k('luck'), 'data-fill': 'luck', onclick: () => fillFor('luck', null) },
      'Roll Luck as this character',
    ),
  ];
}
