// The generic view: how a procedure without a view of its own in PROCEDURE_VIEWS (index.js) is shown, from what its
// roll JSON and systems() declare, so a new procedure needs no JavaScript. Its dice: the engine's `faces` (each die's sides,
// face, group and marks, as every roll publishes them); its choices: each one carrying an `action` a button that takes it,
// with the chance after it when the engine gives the choice its `odds`, and what the choice says (what it ends, its
// odds' note); its odds: a bar per outcome of odds(), labelled as the procedure's extras.outcome_labels say (else by
// their keys). Its words (outcome, steps) are the page's for any roll (roll/outcome.js).
import { bars, chanceLine, offer, title } from './view-parts.js';

export const generic = {
  dice: (roll) => roll.faces.map((d) => ({ face: d.face, sides: d.sides, marks: [...d.marks], group: d.group })),
  choices: (roll, ui, { act, refusal = () => null }) =>
    (roll.choices ?? [])
      .filter((c) => c.action)
      .map((c) => offer(c.name, refusal(c), () => act(c.action), c, c.odds ? chanceLine(roll, c.odds, title) : null)),
  odds: (odds, request, { extras }) =>
    bars(odds.outcomes, odds.exact.outcomes, (k) => extras.outcome_labels?.[k] ?? title(k)),
};

/** `views` (system → view) where a procedure without a view of its own gets the generic one. */
export const withGeneric = (views) =>
  new Proxy(views, {
    get: (own, system) => (typeof system !== 'string' || Object.hasOwn(own, system) ? own[system] : generic),
  });
