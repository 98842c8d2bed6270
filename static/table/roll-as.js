// "Roll as": choose what on a sheet is relevant to the roll, fill the procedure's form with it, and log that
// procedure's rolls for the character. What each kind offers, and the request it makes, is its module in sheets/.

import { h } from './dom.js';
import { BY_KIND } from './sheets/index.js';
import { SYSTEM_NAME } from './words.js';

export class RollAs {
  constructor(table) {
    this.t = table;
    this.picks = {}; // character id -> what is ticked for its next roll
  }

  view(id, c) {
    const kind = BY_KIND[c.kind];
    const k = (name) => `use:${id}:${name}`;
    const fillOrSay = (system, make) => {
      const out = make();
      if (typeof out === 'string') this.t.setStatus(id, out, true); else this.fillFor(id, system, out);
    };
    const fill = (system, label, make) => h('button', { type: 'button', class: 'primary', 'data-fill': system,
      'data-k': k(`fill-${system}`), onclick: () => fillOrSay(system, make) }, label);
    const body = kind ? kind.use({
      s: c.sheet, p: (this.picks[id] ??= kind.picks()), k, fill,
      fillFor: (system, request) => this.fillFor(id, system, request),
      limit: (name) => this.limit(c.kind, name),
    }) : [];
    return h('section', { class: 'use', 'aria-label': `Roll as ${c.name}` },
      h('h5', {}, `Roll as ${c.name || 'this character'}`), body);
  }

  /** The most entries `system`'s form holds in its list field `name`, as arbiter.api declares it. */
  limit(system, name) { return this.t.spec[system].fields.find((f) => f.name === name).max_len; }

  /** Fill `system`'s form from the sheet, show it, and log its rolls for this character. */
  fillFor(id, system, request) {
    const proc = this.t.page.procs[system];
    const c = this.t.characters.get(id);
    if (!proc || !c) return;
    if (request) proc.fill(request);
    this.t.characters.setActive(system, id);
    this.t.page.showTab(system);
    this.t.setStatus(id, request ? `The ${SYSTEM_NAME[system]} form is filled; its rolls are logged for ${c.name}.`
      : `${SYSTEM_NAME[system]} rolls are logged for ${c.name}.`);
    proc.form.scrollIntoView({ block: 'start' });
    const roll = proc.form.querySelector('[data-roll]');
    if (roll && !roll.disabled) roll.focus({ preventScroll: true });
  }
}
