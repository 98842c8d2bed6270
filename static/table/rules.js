// The engine's table rules on a sheet, through arbiter.api: what a roll costs and what follows it (arbiter.costs,
// arbiter.afterRoll), and the ops a sheet's buttons run (arbiter.table). The page decides none of it: each op goes to
// arbiter.api.table with the sheet as it is, and its answer (or refusal) is saved or shown.

import { pick } from './data.js';
import { h } from './dom.js';
import { RECORDS, sheetOf } from './schema.js';

/** `sheet` (of `kind`) after an op answered `result`: the declared fields the answer holds replace the sheet's (an
 * answer also holds a note, what it charged…; a field a sheet kept before it was declared comes with it). */
export const sheetAfter = (kind, sheet, result) => ({
  ...sheet,
  ...Object.fromEntries(
    sheetOf(kind)
      .fields.filter((f) => Object.hasOwn(result, f.name))
      .map((f) => [f.name, result[f.name]]),
  ),
});

export class Rules {
  constructor(table) {
    this.t = table;
  }

  /** A button on sheet `id` that runs the engine's `op` on it. */
  button(id, name, label, system, op, args) {
    return h(
      'button',
      {
        type: 'button',
        'data-op': name,
        'data-k': `ops:${id}:${name}`,
        onclick: () => this.charOp(id, system, op, typeof args === 'function' ? args() : args),
      },
      label,
    );
  }

  /** Apply `op` to the sheet (times over, all or nothing) with the engine, on the sheet's latest revision; a refusal
   * is shown on the sheet and, unless `logRefusal` is false, logged. With `notes` (a list), what was done or refused
   * goes there instead of the log (a roll's one entry says it). True once done. */
  async charOp(id, system, op, args = null, { times = 1, logAs = system, logRefusal = true, notes = null } = {}) {
    let said = [];
    try {
      await this.t.store.update(`char:${id}`, async (data) => {
        said = [];
        let sheet = data.sheet;
        for (let i = 0; i < times; i++) {
          const result = await this.t.arbiter.table(system, op, sheet, args);
          said.push(result.note);
          sheet = sheetAfter(data.kind, sheet, result);
        }
        return { ...data, sheet };
      });
    } catch (error) {
      this.t.setStatus(id, error.message, true);
      if (notes) notes.push(`Not done: ${error.message}`);
      else if (logRefusal) await this.t.log.note(logAs, id, `Not done: ${error.message}`);
      return false;
    }
    const note = said.filter(Boolean).join('; ');
    this.t.setStatus(id, note);
    if (notes) notes.push(note);
    else await this.t.log.note(logAs, id, note);
    return true;
  }

  /** Whether a cost of a roll ({by, …}) is the table's to take here: the Scheme's while this device tracks it, the
   * character's when one rolls (with nobody rolling, their counts are the player's own). */
  applies(cost, who) {
    return cost.by === 'scheme' ? this.t.shared.tracked() : Boolean(who);
  }

  /** Run one op arbiter.api named for a roll ({by, system, op, args, times, note?}): on the rolling character's
   * sheet (`who`) or on the shared Scheme, when it applies; its note goes to `notes`. True once done. */
  async payOne(cost, who, notes) {
    if (!this.applies(cost, who)) return false;
    if (cost.by === 'scheme') return this.t.shared.schemeOp(cost.op, cost.args, who, { override: cost.note, notes });
    return this.charOp(who.id, cost.system, cost.op, cost.args, { times: cost.times, notes });
  }

  /** After a roll or a follow-up: take what it costs (after_roll's "pay") from `who` and the Scheme, in order. */
  async pay(costs, who, notes) {
    for (const cost of costs) await this.payOne(cost, who, notes);
  }

  /** Before a roll or a follow-up: what `pay` will take for it (arbiter.costs: Will, Convictions, Exertion, Scheme
   * dice), tried in order on the active character's sheet and the Scheme as they are now, with the same rules. If
   * they cannot pay (the roll is then not made), {words, left}: why, in a player's words, and how much the payer has
   * left when the engine says (RulesError.left: "has 2 Exertion left"; else null); null if they can. The Scheme is
   * held to its count whoever rolls, while this device tracks it; a character's counts only when the roll is made as
   * that character. */
  async cannotPay(system, request, action) {
    if (!this.t.store) return null;
    const who = this.t.characters.active(system);
    const choices = action ? null : this.t.rollAs.choicesFor(system, request);
    const states = { character: who?.sheet, scheme: this.t.store.get('shared:scheme') };
    for (const cost of await this.t.arbiter.costs(system, request, action, choices)) {
      if (!this.applies(cost, who)) continue;
      const { by, system: sys, op, args, times } = cost;
      try {
        for (let i = 0; i < times; i++) {
          const result = await this.t.arbiter.table(sys, op, states[by], args);
          states[by] =
            by === 'scheme' ? pick(result, Object.keys(states.scheme)) : sheetAfter(who.kind, states.character, result);
        }
      } catch (error) {
        // in a player's words: "Rook has no Will left", said of whoever pays
        const holder = by === 'scheme' ? RECORDS.scheme.label : who.name || '(unnamed)';
        const words = error.holder ? `${holder} ${error.says}` : `${holder}: ${error.message}`;
        return { words, left: error.left ?? null };
      }
    }
    return null;
  }
}
