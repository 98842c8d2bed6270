// What the whole table shares: the Scheme (one pool of dice for every Ability Test character on this device) and
// the Situations with their Pay the Price marks (situations.js).

import { h } from './dom.js';
import { plural } from './words.js';

/** The procedure whose table keeps the Scheme: the one publishing its ops (scheme_spend_die). Pure. */
export const schemeOf = (spec) => Object.keys(spec)
  .find((id) => spec[id].table_ops.some((op) => op.name === 'scheme_spend_die'));

export class Shared {
  constructor(table) {
    this.t = table;
    this.system = schemeOf(table.spec);
  }

  view() {
    const { store, page } = this.t;
    const scheme = store.get('shared:scheme')?.scheme ?? 0;
    const useDie = () => {
      page.procs[this.system].fill({ scheme_die: true });
      page.showTab(this.system);
      this.t.say('“Scheme die” is ticked on the Ability Test form: the die leaves the Scheme when the Test is rolled.');
    };
    return [
      h('h3', {}, 'Shared by the table'),
      h('div', { class: 'scheme' },
        h('p', { class: 'big', 'data-scheme': scheme }, `The Scheme: ${plural(scheme, 'die', 'dice')}`),
        h('p', { class: 'muted' }, 'One pool for every character on this device. A success with a 1 adds a die; '
          + 'an Ability Test rolled with “Scheme die” ticked takes one; negating a setback takes two.'),
        h('button', { type: 'button', 'data-k': 'scheme:use', disabled: scheme === 0, onclick: useDie },
          'Use a Scheme die on the next Ability Test')),
      this.t.situations.view(),
    ];
  }

  /** Apply the engine's Scheme `op` to the shared Scheme, on its latest revision; its note (or `override`) is said
   * and logged for `who`. True once done. */
  async schemeOp(op, args, who, { override = null } = {}) {
    let note;
    try {
      await this.t.store.update('shared:scheme', async (d) => {
        const result = await this.t.arbiter.table(this.system, op, { scheme: d.scheme }, args);
        note = result.note;
        return { scheme: result.scheme };
      });
    } catch (error) {
      const msg = `The Scheme: ${error.message}`;
      this.t.say(msg, true);
      await this.t.log.note(this.system, who?.id ?? null, msg);
      return false;
    }
    note = override ?? note;
    this.t.say(note);
    await this.t.log.note(this.system, who?.id ?? null, note);
    return true;
  }
}
