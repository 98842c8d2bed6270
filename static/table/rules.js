// The engine's table rules on a sheet, through arbiter.table: what a roll costs and who pays it (costsOf), the ops
// a sheet's buttons run, Will's maximum, Will rolls and spending XP. The page decides none of it: each op goes to
// arbiter.api.table with the sheet as it is, and its answer (or refusal) is saved or shown.

import { pick } from './data.js';
import { h } from './dom.js';
import { newId } from './ids.js';
import { plural } from './words.js';

/** What a roll or a follow-up costs, in the order it is paid: the one list `pay` pays after the dice and
 * `cannotPay` tries before them. Each is an `arbiter.api.table` op on the rolling character's sheet
 * (`by: 'character'`) or on the shared Scheme (`by: 'scheme'`). Pure. */
export function costsOf(system, request, action) {
  const out = [];
  const character = (op, args = null, times = 1) => out.push({ by: 'character', system, op, args, times });
  const scheme = (op) => out.push({ by: 'scheme', system: 'ability_test', op, args: null, times: 1 });
  if (system === 'ten_again') {
    const spent = action ? action.spend_will === true && (action.side ?? 'actor') === 'actor' : request?.will === true;
    if (spent) character('spend_will');
  } else if (system === 'ability_test' && !action) {
    const n = request?.convictions?.length ?? 0;
    if (n) character('activate_conviction', null, n);
    if (request?.scheme_die) scheme('scheme_spend_die');
  } else if (system === 'ability_test') {
    if ('exert' in action) character('exert', { amount: action.exert });
    else if ('negate_setback' in action) scheme('scheme_negate_setback');
  }
  return out;
}

export class Rules {
  constructor(table) {
    this.t = table;
    this.willMaxes = {}; // "resolve,composure" -> the engine's maximum Will
    this.willAsked = new Map(); // "resolve,composure" -> the pending question
  }

  /** A button on sheet `id` that runs the engine's `op` on it. */
  button(id, name, label, system, op, args) {
    return h('button', { type: 'button', 'data-op': name, 'data-k': `ops:${id}:${name}`,
      onclick: () => this.charOp(id, system, op, typeof args === 'function' ? args() : args) }, label);
  }

  /** Apply `op` to the sheet (times over, all or nothing) with the engine, on the sheet's latest revision. */
  async charOp(id, system, op, args = null, { times = 1, logAs = system } = {}) {
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
      await this.t.log.note(logAs, id, `Not done: ${error.message}`);
      return false;
    }
    const note = notes.join('; ');
    this.t.setStatus(id, note);
    await this.t.log.note(logAs, id, note);
    return true;
  }

  /** After a roll or a follow-up: take what it costs from `who` (the rolling character, or null) and the Scheme. */
  async pay(system, request, action, who) {
    for (const cost of costsOf(system, request, action)) {
      if (cost.by === 'scheme') await this.t.shared.schemeOp(cost.op, cost.args, who);
      else if (who) await this.charOp(who.id, cost.system, cost.op, cost.args, { times: cost.times });
    }
  }

  /** Before a roll or a follow-up: what `pay` will take for it (Will, Convictions, Exertion, Scheme dice), tried
   * on the active character's sheet and the Scheme as they are now, with the same rules. A message if they cannot
   * pay (the roll is then not made); null if they can. Only a roll made as a character is held to the table's
   * counts: with nobody rolling, the forms stay usable by a table that keeps its Will and Scheme on paper. */
  async cannotPay(system, request, action) {
    const who = this.t.store ? this.t.characters.active(system) : null;
    if (!who) return null;
    const scheme = { scheme: this.t.store.get('shared:scheme')?.scheme ?? 0 };
    for (const { by, system: sys, op, args, times } of costsOf(system, request, action)) {
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

  /** Will stays from 0 to the engine's maximum: a lower maximum lowers it; typing more is refused. */
  async keepWillInRange(sheet, changed) {
    const max = await this.willMax(sheet);
    if (sheet.will <= max) return;
    if (changed === 'will') {
      throw new Error(`Will (current) must be from 0 to ${max}, the maximum (resolve + composure); not saved`);
    }
    sheet.will = max;
  }

  /** The engine's maximum Will for this Resolve and Composure (asked once per pair). */
  async willMax(sheet) {
    const key = `${sheet.resolve},${sheet.composure}`;
    if (!(key in this.willMaxes)) {
      if (!this.willAsked.has(key)) {
        const state = { resolve: sheet.resolve, composure: sheet.composure };
        const asked = this.t.arbiter.table('ten_again', 'will_max', state)
          .then(({ max }) => { this.willMaxes[key] = max; });
        asked.catch(() => this.willAsked.delete(key));
        this.willAsked.set(key, asked);
      }
      await this.willAsked.get(key);
    }
    return this.willMaxes[key];
  }

  /** The maximum Will if the engine has said it already, else undefined. */
  knownWillMax(sheet) { return this.willMaxes[`${sheet.resolve},${sheet.composure}`]; }

  /** The maximum Will if known; else undefined, and the sheets are drawn again once the engine has said it. */
  willMaxNow(sheet) {
    const key = `${sheet.resolve},${sheet.composure}`;
    if (!(key in this.willMaxes) && !this.willAsked.has(key)) {
      this.willMax(sheet).then(() => this.t.render('characters'), () => {});
    }
    return this.willMaxes[key];
  }

  async willRoll(id) {
    const c = this.t.characters.get(id);
    try {
      const request = await this.t.arbiter.table('ten_again', 'will_roll', c.sheet, null);
      this.t.rollAs.fillFor(id, 'ten_again', request);
      this.t.setStatus(id,
        `Will roll: ${plural(request.pool, 'die', 'dice')}, the Will left. Roll it on the d10 form.`);
    } catch (error) {
      this.t.setStatus(id, error.message, true);
    }
  }

  /** Spend XP on `what` ("new_skill", "new_item", "skill:<id>", "item:<id>" or "attr:<name>") at the engine's price. */
  async spendXp(id, what, name, unique) {
    const [target, key] = what.split(':');
    name = name.trim();
    if (target.startsWith('new_') && !name) {
      this.t.setStatus(id, `Name the new ${target === 'new_skill' ? 'Skill' : 'Item'} first.`, true);
      return;
    }
    let note;
    try {
      await this.t.store.update(`char:${id}`, async (data) => {
        const s = data.sheet;
        let kind;
        let current = 0;
        let apply;
        if (target === 'new_skill') {
          kind = 'new_skill';
          apply = () => s.skills.push({ id: newId(), name: name.slice(0, 80), level: 1, focused: false, masteries: 0 });
        } else if (target === 'new_item') {
          kind = 'new_item';
          apply = () => s.items.push({ id: newId(), name: name.slice(0, 80), unique, level: 1 });
        } else if (target === 'skill') {
          const sk = s.skills.find((x) => x.id === key);
          if (!sk) throw new Error('That Skill is no longer on the sheet.');
          kind = sk.focused ? 'advance_focused_skill' : 'advance_skill';
          current = sk.level;
          apply = () => { sk.level += 1; };
        } else if (target === 'item') {
          const it = s.items.find((x) => x.id === key);
          if (!it) throw new Error('That Item is no longer on the sheet.');
          kind = it.unique ? 'advance_unique_item' : 'advance_standard_item';
          current = it.level;
          apply = () => { it.level += 1; };
        } else {
          kind = 'advance_attribute';
          current = s.attributes[key];
          apply = () => { s.attributes[key] += 1; };
        }
        const result = await this.t.arbiter.table('ability_test', 'xp_spend', { xp: s.xp }, { kind, current });
        note = result.note;
        s.xp = result.xp;
        apply();
        return data;
      });
    } catch (error) {
      this.t.setStatus(id, error.message, true);
      return;
    }
    this.t.setStatus(id, note);
    await this.t.log.note('ability_test', id, note);
  }
}
