// The engine's table rules on a sheet, through arbiter.api: the ops a sheet's buttons run (arbiter.table), and a tap's
// ops taken again when its record changed meanwhile (what a tap costs and what follows it comes with its answer,
// arbiter.api.turn). The page decides none of it: each op goes to arbiter.api.table with the sheet as it is, and its
// answer (or refusal) is saved or shown.

import { h } from '../dom.js';
import { sheetOf } from '../store/schema.js';

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

  /** Take again, op by op on the latest revisions, what a tap paid (arbiter.api.turn's "paid") when its record
   * changed meanwhile (another tab): from `who` and the Scheme, in order. */
  async pay(costs, who, notes) {
    for (const cost of costs) await this.payOne(cost, who, notes);
  }
}
