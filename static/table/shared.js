// What the whole table shares: the Scheme (one pool of dice for every Ability Test character on this device, and
// whether this device tracks it at all), the Scene (scene.js) and the Situations with their Pay the Price marks
// (situations.js).

import { pick, toInt } from '../store/data.js';
import { checkbox, h, intInput } from '../dom.js';
import { RECORDS, declAt } from '../store/schema.js';
import { plural } from '../store/words.js';

const TRACKED = declAt(RECORDS.scheme, 'tracked');
const COUNT = declAt(RECORDS.scheme, 'scheme'); // its limits are the record's, as arbiter.api declares it

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
          this.t.live?.scheme()
            ? ': the die leaves the Host’s Scheme when the Test is rolled'
            : this.tracked()
              ? ': the die leaves the Scheme when the Test is rolled'
              : ''
        }.`,
      );
    };
    const track = (on) => this.setTracked(on);
    // the die a tap would take: on a player's phone joined to a live table, from the Host's Scheme (../live/sync.js)
    const hosts = this.t.live?.scheme();
    const empty = hosts ? hosts[TRACKED.name] !== false && hosts[COUNT.name] === 0 : tracked && scheme === 0;
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
        tracked ? this.byHand(scheme) : null,
        checkbox('scheme:tracked', TRACKED.label, tracked, track),
        h(
          'button',
          { type: 'button', 'data-k': 'scheme:use', disabled: empty, onclick: useDie },
          'Use a Scheme die on the next Ability Test',
        ),
        empty
          ? h(
              'p',
              { class: 'muted', 'data-scheme-why': '' },
              hosts ? 'The Host’s Scheme has no die to use.' : 'The Scheme has no die to use: add one above.',
            )
          : null,
      ),
      this.t.scene.view(),
      this.t.situations.view(),
    ];
  }

  /** The Scheme's count set by hand (a table starting with dice in it, a count kept on paper until now): − and +,
   * and the number itself, within the record's declared limits; a button that cannot act says why. */
  byHand(scheme) {
    const { min, max } = COUNT;
    const box = intInput({ min, max, value: scheme, 'data-k': 'scheme:count', 'aria-label': COUNT.label });
    box.addEventListener('change', () => this.setCount(box.value));
    // a button that cannot act says why, in words beside it (a tooltip is no use to a thumb)
    const step = (by, label, why) => [
      h(
        'button',
        {
          type: 'button',
          'data-k': `scheme:${by > 0 ? 'plus' : 'minus'}`,
          'aria-label': label,
          disabled: Boolean(why),
          onclick: () => this.setCount(scheme + by),
        },
        by > 0 ? '+' : '−',
      ),
      why ? h('span', { class: 'muted', 'data-why': by > 0 ? 'plus' : 'minus' }, why) : null,
    ];
    return h(
      'div',
      { class: 'row scheme-count' },
      ...step(-1, 'One die fewer in the Scheme', scheme <= min ? 'No die to take: the Scheme is empty' : null),
      box,
      ...step(1, 'One die more in the Scheme', scheme >= max ? `The Scheme holds at most ${max} dice` : null),
    );
  }

  /** Set the Scheme's count by hand: kept if the record's declaration allows it, else why not, in its words. */
  async setCount(value) {
    try {
      const scheme = typeof value === 'number' ? value : toInt(value);
      await this.t.store.update('shared:scheme', (d) => ({ ...d, scheme, set: true })); // set here now
      const note = `The Scheme set by hand: ${plural(scheme, 'die', 'dice')}`;
      this.t.say(note);
      await this.t.log.note(this.system, null, note);
    } catch (error) {
      this.t.say(error.message, true);
      this.t.render('shared');
    }
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
        return { ...pick(result, Object.keys(d)), set: true }; // changed on this device: set here now
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
