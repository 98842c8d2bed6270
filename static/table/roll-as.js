// "Roll as": choose what on a sheet is relevant to the roll, fill the procedure's form with the request arbiter.api
// makes of it (request_from_sheet), and log that procedure's rolls for the character. What each kind offers is its
// module in sheets/; what may be chosen, and its defaults, are the procedure's published sheet_choices. While the
// form holds what the sheet filled, its rolls are paid with those choices (arbiter.costs names what they pay for:
// the Convictions by id), and the form is filled again when the sheet changes what it fills (a Conviction declared
// for the Scene).

import { h } from '../dom.js';
import { choicesOf, picksOf } from './choices.js';
import { BY_KIND } from '../procedures/sheets.js';
import { SYSTEMS } from '../store/schema.js';
import { SYSTEM_NAME } from '../store/words.js';

export class RollAs {
  constructor(table) {
    this.t = table;
    this.picks = {}; // character id -> what is ticked for its next roll
    this.filled = {}; // system -> {id, choices, request}: the form as the last "Fill the … form" left it
    this.shown = {}; // system -> the "Rolling as" line at the top of its form, and whom it names
    this.loaded = new Map(); // system -> its form's refill from the sheet after this page load (refillAfterLoad)
  }

  view(id, c) {
    const kind = BY_KIND[c.kind];
    const spec = this.t.spec[c.kind];
    const k = (name) => `use:${id}:${name}`;
    const fill = (system, label) =>
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          'data-fill': system,
          'data-k': k(`fill-${system}`),
          onclick: () => this.fillFromSheet(id, system),
        },
        label,
      );
    const body = kind
      ? kind.use({
          s: c.sheet,
          p: (this.picks[id] ??= picksOf(spec.sheet_choices, c.choices?.[c.kind])),
          k,
          fill,
          spec,
          fillFor: (system, request) => this.fillFor(id, system, request),
        })
      : [];
    return h(
      'section',
      { class: 'use', 'aria-label': `Roll as ${c.name}` },
      h('h5', {}, `Roll as ${c.name || 'this character'}`),
      body,
    );
  }

  /** Fill `system`'s form with the request the engine makes of the sheet and what is picked on it; or say on the
   * sheet why it cannot (nothing chosen yet, more than the form holds, a request the roll would refuse). While the
   * engine is asked, the table carries data-filling. */
  async fillFromSheet(id, system) {
    const c = this.t.characters.get(id);
    if (!c) return;
    const { dataset } = this.t.root;
    this.asking = (this.asking ?? 0) + 1;
    dataset.filling = '';
    try {
      const choices = choicesOf(this.picks[id] ?? {});
      const request = await this.t.arbiter.requestFromSheet(system, c.sheet, choices);
      this.fillFor(id, system, request, choices);
      await this.remember(id, system, choices); // a reload fills the form from the sheet the same way
    } catch (error) {
      this.t.setStatus(id, error.message, true, 'use'); // by the Fill tapped
    } finally {
      if (--this.asking === 0) delete dataset.filling;
    }
  }

  /** Fill `system`'s form from the sheet (with what was picked on it, `choices`), show it, and log its rolls for this
   * character. */
  fillFor(id, system, request, choices = null) {
    const proc = this.t.page.procs[system];
    const c = this.t.characters.get(id);
    if (!proc || !c) return;
    if (request) proc.fill(request);
    this.filled[system] = request && choices ? { id, choices, request } : null;
    this.loaded.set(system, Promise.resolve()); // filled now: nothing to fill again from before the load
    proc.form.querySelector('[data-rolling-dropped]')?.remove();
    this.t.characters.setActive(system, id);
    this.t.page.showTab(system);
    this.t.setStatus(
      id,
      request
        ? `The ${SYSTEM_NAME[system]} form is filled; its rolls are logged for ${c.name}.`
        : `${SYSTEM_NAME[system]} rolls are logged for ${c.name}.`,
      false,
      'use',
    );
    proc.form.scrollIntoView({ block: 'start' });
    const roll = proc.form.querySelector('[data-roll]');
    if (roll && !roll.disabled) roll.focus({ preventScroll: true });
  }

  /** The choices the sheet filled `system`'s form from, while `request` (the form's, or a roll's) still holds what
   * they filled and their character rolls it; else null. */
  choicesFor(system, request) {
    const f = this.filled[system];
    if (!f || this.t.characters.active(system)?.id !== f.id) return null;
    return holds(request, f.request) ? f.choices : null;
  }

  /** Keep with character `id` what was picked on its sheet for this roll of `system` (`choices`), so its "Fill"
   * after a reload fills the same request. */
  async remember(id, system, choices) {
    await this.t.store.update(`char:${id}`, async (data) =>
      JSON.stringify(data.choices?.[system]) === JSON.stringify(choices)
        ? data
        : { ...data, choices: { ...data.choices, [system]: choices } },
    );
  }

  /** After a reload (once per form and page load, when the table has opened and the form is built): a form that a
   * character rolls holds that character's sheet as it is now, filled again by the engine from what was last picked
   * on the sheet for it (kept with the character at each Fill and roll), over what the address or the form's defaults
   * put there; where it cannot be, nobody rolls it and the form says why. Resolves once done: a tap waits for it. */
  refillAfterLoad(proc) {
    const { system } = proc;
    if (!this.loaded.has(system)) this.loaded.set(system, this.refill(proc));
    return this.loaded.get(system);
  }

  async refill(proc) {
    const { system } = proc;
    const who = this.t.characters.active(system);
    if (!who) return;
    const choices = who.choices?.[system];
    let request = null;
    let why = 'nothing was picked on the sheet for this form';
    if (choices) {
      try {
        request = await this.t.arbiter.requestFromSheet(system, who.sheet, choices);
      } catch (error) {
        why = error.message;
      }
    }
    if (this.t.characters.active(system)?.id !== who.id) return; // another character, or none, chosen meanwhile
    if (request) {
      proc.fill(request);
      this.filled[system] = { id: who.id, choices, request };
      return;
    }
    this.t.characters.setActive(system, null); // the form is the player's own now, and says so
    const name = who.name || '(unnamed)';
    const line = h(
      'p',
      { class: 'rolling-as', 'data-rolling-dropped': name, role: 'status' },
      `Not rolling as ${name}: the form could not be filled from the sheet again (${why}). Fill it from the sheet to roll as ${name}.`,
    );
    proc.form.querySelector('[data-rolling-dropped]')?.remove();
    const title = proc.form.querySelector(':scope > h2');
    if (title) title.after(line);
    else proc.form.prepend(line);
    this.t.render('characters');
  }

  /** "Rolling as NAME · stop" at the top of each form while a character rolls it (a tap on stop: nobody does). */
  showOnForms() {
    // a form not yet built says it once it is (the table port's built)
    const built = new Map(this.t.page.built().map((proc) => [proc.system, proc]));
    for (const system of SYSTEMS) {
      const proc = built.get(system);
      const who = this.t.characters.active(system);
      const key = who ? `${who.id}\n${who.name}` : null;
      const shown = this.shown[system];
      if (!proc || (shown?.key ?? null) === key) continue;
      shown?.line.remove();
      delete this.shown[system];
      if (!who) continue;
      const name = who.name || '(unnamed)';
      const line = h(
        'p',
        { class: 'rolling-as', 'data-rolling-as': name },
        'Rolling as ',
        h('strong', {}, name),
        ' ',
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            'data-stop-rolling': system,
            'aria-label': `Stop rolling ${SYSTEM_NAME[system]} as ${name}`,
            onclick: () => this.stop(system),
          },
          'stop',
        ),
      );
      const title = proc.form.querySelector(':scope > h2');
      if (title) title.after(line);
      else proc.form.prepend(line);
      this.shown[system] = { key, line };
    }
  }

  /** Nobody rolls `system` now: its rolls are the player's own, the form as it is. */
  stop(system) {
    this.filled[system] = null;
    this.t.characters.setActive(system, null);
    this.t.page.procs[system]?.form.querySelector('[data-roll]')?.focus({ preventScroll: true });
  }

  /** Fill again each form character `id`'s sheet filled and that still holds it, as the sheet fills it now (`known`:
   * system → the request the engine already said the sheet fills now, as a tap's answer brings it). */
  async refresh(id, known = {}) {
    for (const [system, f] of Object.entries(this.filled)) {
      const proc = this.t.page.procs[system];
      const c = this.t.characters.get(id);
      const preset = known[system];
      // the form is still the sheet's: as it filled it, or as a tap's answer already filled it again (its `next`)
      const still = () => this.choicesFor(system, proc.request()) || (preset && holds(proc.request(), preset));
      if (f?.id !== id || !c || !still()) continue;
      try {
        const request = preset ?? (await this.t.arbiter.requestFromSheet(system, c.sheet, f.choices));
        if (this.filled[system] !== f || !still()) continue; // changed meanwhile
        this.filled[system] = { ...f, request };
        if (JSON.stringify(request) !== JSON.stringify(f.request)) proc.fill(request);
      } catch (error) {
        this.t.setStatus(id, error.message, true);
      }
    }
  }
}

/** Whether the form's `request` still holds every field of `filled` (what a sheet filled it with). Pure. */
function holds(request, filled) {
  return Object.entries(filled).every(([k, v]) => JSON.stringify(request?.[k]) === JSON.stringify(v));
}
