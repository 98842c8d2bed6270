// The Situations and their Pay the Price marks: the table store is their one owner. The form whose roll offers Pay
// the Price reads them through port.situation(system) and picks through the engine (act refuses an option another
// player marked, naming them); what the roll reports marked is saved here. Who pays is the character rolling that
// procedure, else the name typed next to the list, remembered for the Situation.

import { h, select } from '../dom.js';
import { newId } from '../store/ids.js';
import { RECORDS, declAt } from '../store/schema.js';

const SITUATIONS = declAt(RECORDS.price, 'situations');
const field = (name) => declAt(SITUATIONS, name);
/** Who marked an option, as the page names a mark kept without a name (threat-10: by null). */
export const markedBy = (mark) => mark.by ?? 'someone';

export class Situations {
  constructor(table) {
    this.t = table;
    this.shown = new Map(); // system -> what its Pay the Price list last showed
  }

  price() {
    return this.t.store.get('shared:price');
  }

  current(p = this.price()) {
    return p?.situations.find((s) => s.id === p.current);
  }

  /** The words of each Pay the Price option, from the procedure that publishes them. */
  options() {
    return Object.values(this.t.spec).find((s) => s.extras?.pay_the_price)?.extras.pay_the_price ?? [];
  }

  view() {
    const price = this.price();
    const current = this.current(price);
    if (!price) return null;
    const nameInput = h('input', {
      type: 'text',
      maxlength: field('name').max_len,
      value: current?.name ?? '',
      autocomplete: 'off',
      'data-k': 'sit:name',
    });
    const rename = () => {
      if (nameInput.value === nameInput.defaultValue) return;
      nameInput.defaultValue = nameInput.value;
      this.updateCurrent((s) => {
        s.name = nameInput.value;
      });
    };
    nameInput.addEventListener('change', rename);
    nameInput.addEventListener('blur', rename);
    const options = this.options();
    const marked = current?.marked ?? [];
    return h(
      'div',
      { class: 'situations' },
      h('h4', {}, 'Pay the Price marks, per Situation'),
      h(
        'div',
        { class: 'row' },
        select(
          'sit:pick',
          'Situation',
          price.situations.map((s) => [s.id, s.name || '(unnamed)']),
          price.current,
          (v) =>
            this.updatePrice((p) => {
              p.current = v;
            }),
        ),
        h('label', { class: 'tf grow' }, h('span', {}, 'Name of this Situation'), nameInput),
        h('button', { type: 'button', 'data-k': 'sit:new', onclick: () => this.newSituation() }, 'New Situation'),
      ),
      h(
        'p',
        { 'data-marked': JSON.stringify(marked) },
        marked.length
          ? ['Marked: ', marked.map((m) => `${options[m.option] ?? m.option} (${markedBy(m)})`).join(' · ')]
          : 'Nothing marked in this Situation.',
      ),
    );
  }

  async updatePrice(fn) {
    try {
      await this.t.store.update('shared:price', (p) => {
        fn(p);
        return p;
      });
    } catch (error) {
      this.t.say(error.message, true);
    }
  }

  updateCurrent(fn) {
    return this.updatePrice((p) => {
      const s = this.current(p);
      if (s) fn(s);
    });
  }

  /** A new Situation, the current one from now on: nothing marked. The oldest but the current one makes room. */
  newSituation({ focus = true } = {}) {
    this.updatePrice((p) => {
      const id = newId();
      if (p.situations.length >= SITUATIONS.max_len) {
        p.situations.splice(
          p.situations.findIndex((s) => s.id !== p.current),
          1,
        );
      }
      const name = `Situation ${p.situations.length + 1}`;
      p.situations.push({ ...structuredClone(SITUATIONS.of.default), id, name });
      p.current = id;
    });
    if (focus) this.t.ui.focus = 'sit:name';
  }

  /** The current Situation's marks from now on, as a roll reported them ({option, by} each, in option order). */
  async setMarks(marks) {
    if (JSON.stringify(marks) === JSON.stringify(this.current()?.marked ?? [])) return;
    await this.updateCurrent((s) => {
      s.marked = marks;
    });
  }

  /** What a form's Pay the Price list shows and sends (port.situation): the current Situation, its marks, the name of
   * the character rolling `system` (who pays), else the name typed for the Situation. */
  situation(system) {
    const s = this.current();
    if (!s) return null;
    return {
      name: s.name,
      marked: s.marked,
      player: s.player,
      maxName: field('player').max_len,
      roller: this.t.characters.active(system)?.name.trim() || null,
      setPlayer: (name) => {
        if (name !== s.player)
          this.updateCurrent((x) => {
            x.player = name;
          });
      },
      fresh: () => this.newSituation({ focus: false }),
    };
  }

  /** Redraw the choices of each shown roll that offers Pay the Price when its marks or who pays changed (a name typed
   * there is not redrawn under the player's fingers: only a new Situation brings another one). */
  refresh() {
    for (const proc of this.t.page.built()) {
      // a form not yet built shows no roll
      if (!proc.roll?.choices?.some((c) => c.name === 'pay_the_price')) continue;
      const s = this.t.situationFor(proc.system); // while joined to a live table, the Host’s marks
      const key = JSON.stringify([this.price()?.current, s?.marked, s?.roller]);
      if (this.shown.get(proc.system) === key) continue;
      this.shown.set(proc.system, key);
      proc.renderChoices();
    }
  }
}
