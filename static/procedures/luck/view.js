// Luck's view (002): its die as the engine marks the result's, and its outcomes' odds, higher being better.
import { bars, dieFaces } from '../view-parts.js';

export const luck = {
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
