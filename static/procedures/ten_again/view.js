// Ten again's view (003): each side's dice with Will's and the 10s' re-rolls, Spend Will with its odds, and the
// odds of the outcome and of each number of successes.
import { h } from '../../dom.js';
import { bars, chanceLine, dieFaces, offer, title, whatIfs } from '../view-parts.js';

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
export const ten_again = {
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
