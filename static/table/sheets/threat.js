// A Threat & Luck sheet: ability ratings (one is the Threat Roll's) and counters; Luck needs nothing from it.

import { h, select } from '../dom.js';
import { THREAT_RATINGS } from '../schema.js';

export const picks = () => ({ rating: THREAT_RATINGS[0] });

/** The Threat Roll's request for the chosen rating. */
export const request = (s, p) => ({ rating: s.ratings[p.rating] });

export function use({ s, p, k, fill, fillFor }) {
  return [
    select(k('rating'), 'Ability rating', THREAT_RATINGS.map((r) => [r, `${r} ${s.ratings[r]}`]), p.rating,
      (v) => { p.rating = v; }),
    fill('threat', 'Fill the Threat Roll', () => request(s, p)),
    h('button', { type: 'button', 'data-k': k('luck'), 'data-fill': 'luck', onclick: () => fillFor('luck', null) },
      'Roll Luck as this character'),
  ];
}
