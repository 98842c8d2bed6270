// What the whole table shares: the Scheme (one pool of dice for every Ability Test character on this device, and
// whether this device tracks it at all), the Scene (scene.js) and the Situations with their Pay the Price marks
// (situations.js).

import { pick } from './data.js';
import { checkbox, h } from './dom.js';
import { RECORDS, declAt } from './schema.js';
import { plural } from './words.js';

const TRACKED = declAt(RECORDS.scheme, 'tracked');

/** The procedure whose table keeps the Scheme: the one publishing its ops (scheme_spend_die). Pure. */
export const schemeOf = (spec) =>
  Object.keys(spec).find((id) => spec[id].table_ops.some((op) => op.name === 'scheme_spend_die'));

export class Shared {
  constructor(table) {
    this.t = table;
    this.system = schemeOf(table.spec);
  }

  scheme() {
    return this.t.store.get('shared:scheme') ?? RECORDS.scheme.default;
  }

  /** Whether this device tracks the Scheme: rolls are then checked against its count and change it. */
  tracked() {
    return this.scheme()[TRACKED.name] !== false;
  }

  view() {
    const { page } = this.t;
    const { scheme } = this.scheme();
    const tracked = this.tracked();
    const useDie = () => {
      page.procs[this.system].fill({ scheme_die: true });
      page.showTab(this.system);
      this.t.say(
        `“Scheme die” is ticked on the Ability Test form${
          this.tracked() ? ': the die leaves the Scheme when the Test is rolled' : ''
        }.`,
      );
    };
    const track = (on) => this.setTracked(on);
    return [
      h('h3', {}, 'Shared by the table'),
      h(
        'div',
        { class: 'scheme', 'data-tracked': String(tracked) },
        h(
          'p',
          { class: 'big', 'data-scheme': scheme },
          tracked ? `The Scheme: ${plural(scheme, 'die', 'dice')}` : 'The Scheme: kept elsewhere',
        ),
        h(
          'p',
          { class: 'muted' },
          tracked
            ? 'One pool for every character on this device. A success with a 1 adds ' +
                'a die; an Ability Test rolled with “Scheme die” ticked takes one; negating a setback takes two.'
            : TRACKED.help,
        ),
        checkbox('scheme:tracked', TRACKED.label, tracked, track),
        h(
          'button',
          { type: 'button', 'data-k': 'scheme:use', disabled: tracked && scheme === 0, onclick: useDie },
          'Use a Scheme die on the next Ability Test',
        ),
      ),
      this.t.scene.view(),
      this.t.situations.view(),
    ];
  }

  async setTracked(on) {
    try {
      await this.t.store.update('shared:scheme', (d) => ({ ...d, [TRACKED.name]: on }));
      this.t.say(
        on
          ? 'The Scheme is tracked on this device: rolls are checked against it and change it.'
          : 'The Scheme is kept elsewhere: this device neither checks rolls against it nor changes it.',
      );
    } catch (error) {
      this.t.say(error.message, true);
    }
  }

  /** Apply the engine's Scheme `op` to the shared Scheme, on its latest revision; its note (or `override`) is said
   * and logged for `who`, or with `notes` (a list) put there for the roll's one log entry. True once done. */
  async schemeOp(op, args, who, { override = null, notes = null } = {}) {
    let note;
    try {
      await this.t.store.update('shared:scheme', async (d) => {
        const result = await this.t.arbiter.table(this.system, op, d, args);
        note = result.note;
        return pick(result, Object.keys(d));
      });
    } catch (error) {
      const msg = `The Scheme: ${error.message}`;
      this.t.say(msg, true);
      if (notes) notes.push(`Not done: ${msg}`);
      else await this.t.log.note(this.system, who?.id ?? null, msg);
      return false;
    }
    note = override ?? note;
    this.t.say(note);
    if (notes) notes.push(note);
    else await this.t.log.note(this.system, who?.id ?? null, note);
    return true;
  }
}
