// The engine's table rules on a sheet, through arbiter.api: what a roll costs and what follows it (arbiter.costs,
// arbiter.afterRoll), and the ops a sheet's buttons run (arbiter.table). The page decides none of it: each op goes to
// arbiter.api.table with the sheet as it is, and its answer (or refusal) is saved or shown.

import { pick } from './data.js';
import { h } from './dom.js';

export class Rules {
  constructor(table) { this.t = table; }

  /** A button on sheet `id` that runs the engine's `op` on it. */
  button(id, name, label, system, op, args) {
    return h('button', { type: 'button', 'data-op': name, 'data-k': `ops:${id}:${name}`,
      onclick: () => this.charOp(id, system, op, typeof args === 'function' ? args() : args) }, label);
  }

  /** Apply `op` to the sheet (times over, all or nothing) with the engine, on the sheet's latest revision; a refusal
   * is shown on the sheet and, unless `logRefusal` is false, logged. True once done. */
  async charOp(id, system, op, args = null, { times = 1, logAs = system, logRefusal = true } = {}) {
    let notes = [];
    try {
      await this.t.store.update(`char:${id}`, async (data) => {
        notes = [];
        let sheet = data.sheet;
        for (let i = 0; i < times; i++) {
          const result = await this.t.arbiter.table(system, op, sheet, args);
          notes.push(result.note);
          sheet = pick(result, Object.keys(data.sheet));
        }
        return { ...data, sheet };
      });
    } catch (error) {
      this.t.setStatus(id, error.message, true);
      if (logRefusal) await this.t.log.note(logAs, id, `Not done: ${error.message}`);
      return false;
    }
    const note = notes.join('; ');
    this.t.setStatus(id, note);
    await this.t.log.note(logAs, id, note);
    return true;
  }

  /** Run one op arbiter.api named for a roll ({by, system, op, args, times, note?}): on the rolling character's
   * sheet (`who`, or nobody: then not run) or on the shared Scheme. True once done. */
  async payOne(cost, who) {
    if (cost.by === 'scheme') return this.t.shared.schemeOp(cost.op, cost.args, who, { override: cost.note });
    return who ? this.charOp(who.id, cost.system, cost.op, cost.args, { times: cost.times }) : false;
  }

  /** After a roll or a follow-up: take what it costs (after_roll's "pay") from `who` and the Scheme, in order. */
  async pay(costs, who) {
    for (const cost of costs) await this.payOne(cost, who);
  }

  /** Before a roll or a follow-up: what `pay` will take for it (arbiter.costs: Will, Convictions, Exertion, Scheme
   * dice), tried on the active character's sheet and the Scheme as they are now, with the same rules. A message if
   * they cannot pay (the roll is then not made); null if they can. Only a roll made as a character is held to the
   * table's counts: with nobody rolling, the forms stay usable by a table that keeps its Will and Scheme on paper. */
  async cannotPay(system, request, action) {
    const who = this.t.store ? this.t.characters.active(system) : null;
    if (!who) return null;
    const scheme = { scheme: this.t.store.get('shared:scheme')?.scheme ?? 0 };
    for (const { by, system: sys, op, args, times } of await this.t.arbiter.costs(system, request, action)) {
      const [payer, state] = by === 'scheme' ? ['The Scheme', scheme] : [who.name || '(unnamed)', who.sheet];
      try {
        let next = state;
        for (let i = 0; i < times; i++) {
          next = pick(await this.t.arbiter.table(sys, op, next, args), Object.keys(state));
        }
      } catch (error) {
        return `${payer}: ${error.message}`;
      }
    }
    return null;
  }
}
