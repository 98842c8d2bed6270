// What the whole table shares: the Scheme (one pool of dice for every Ability Test character on this device) and
// the Situations with their Pay the Price marks, kept in step with the key the Threat form reads.

import { h, select } from './dom.js';
import { newId } from './ids.js';
import { LEGACY_PRICE_KEY, legacyMarks } from './migrations.js';
import { plural } from './words.js';

const sorted = (marks) => JSON.stringify([...marks].sort((a, b) => a - b));

export class Shared {
  constructor(table) { this.t = table; }

  view() {
    const { store, page } = this.t;
    const scheme = store.get('shared:scheme')?.scheme ?? 0;
    const price = store.get('shared:price');
    const current = price?.situations.find((s) => s.id === price.current);
    const options = this.t.spec.threat.extras.pay_the_price;
    const nameInput = h('input', { type: 'text', maxlength: 80, value: current?.name ?? '', autocomplete: 'off',
      'data-k': 'sit:name' });
    const rename = () => {
      if (nameInput.value === nameInput.defaultValue) return;
      nameInput.defaultValue = nameInput.value;
      this.updatePrice((p) => {
        const s = p.situations.find((x) => x.id === p.current);
        if (s) s.name = nameInput.value.slice(0, 80);
      });
    };
    nameInput.addEventListener('change', rename);
    nameInput.addEventListener('blur', rename);
    const useDie = () => {
      page.procs.ability_test.fill({ scheme_die: true });
      page.showTab('ability_test');
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
      price ? h('div', { class: 'situations' },
        h('h4', {}, 'Pay the Price marks, per Situation'),
        h('div', { class: 'row' },
          select('sit:pick', 'Situation', price.situations.map((s) => [s.id, s.name || '(unnamed)']), price.current,
            (v) => this.updatePrice((p) => { p.current = v; })),
          h('label', { class: 'tf grow' }, h('span', {}, 'Name of this Situation'), nameInput),
          h('button', { type: 'button', 'data-k': 'sit:new', onclick: () => this.newSituation() }, 'New Situation')),
        h('p', { 'data-marked': JSON.stringify(current?.marked ?? []) }, current?.marked.length
          ? ['Marked: ', current.marked.map((i) => options[i]).join(' · ')]
          : 'Nothing marked in this Situation.')) : null,
    ];
  }

  // --- the Situations and their marks ---
  async updatePrice(fn) {
    try {
      await this.t.store.update('shared:price', (p) => { fn(p); return p; });
    } catch (error) {
      this.t.say(error.message, true);
    }
  }

  newSituation() {
    this.updatePrice((p) => {
      const id = newId();
      if (p.situations.length >= 100) p.situations.splice(p.situations.findIndex((s) => s.id !== p.current), 1);
      p.situations.push({ id, name: `Situation ${p.situations.length + 1}`, marked: [] });
      p.current = id;
    });
    this.t.ui.focus = 'sit:name';
  }

  currentMarks() {
    const p = this.t.store.get('shared:price');
    return p?.situations.find((s) => s.id === p.current)?.marked ?? [];
  }

  async setMarks(marks) {
    const next = [...new Set(marks)].sort((a, b) => a - b);
    if (JSON.stringify(next) === sorted(this.currentMarks())) return;
    await this.updatePrice((p) => {
      const s = p.situations.find((x) => x.id === p.current);
      if (s) s.marked = next;
    });
  }

  /** The threat form reads the current Situation's marks from localStorage: keep that key in step with the store. */
  mirrorPrice() {
    const want = sorted(this.currentMarks());
    let have = null;
    try { have = localStorage.getItem(LEGACY_PRICE_KEY); } catch { return; }
    if (have !== null && sorted(legacyMarks()) === want) return;
    try { localStorage.setItem(LEGACY_PRICE_KEY, want); } catch { return; }
    const threat = this.t.page.procs.threat;
    if (threat?.roll) threat.renderChoices();
  }

  /** The threat form changed the marks itself: bring them into the store. */
  pullPrice() {
    const marks = legacyMarks();
    if (sorted(marks) !== sorted(this.currentMarks())) this.t.enqueue(() => this.setMarks(marks));
  }

  // --- the Scheme ---
  async schemeOp(op, args, who, { override = null } = {}) {
    let note;
    try {
      await this.t.store.update('shared:scheme', async (d) => {
        const result = await this.t.arbiter.table('ability_test', op, { scheme: d.scheme }, args);
        note = result.note;
        return { scheme: result.scheme };
      });
    } catch (error) {
      const msg = `The Scheme: ${error.message}`;
      this.t.say(msg, true);
      await this.t.log.note('ability_test', who?.id ?? null, msg);
      return false;
    }
    note = override ?? note;
    this.t.say(note);
    await this.t.log.note('ability_test', who?.id ?? null, note);
    return true;
  }

  /** A success with a 1 adds a die to the Scheme, once per roll and its follow-ups; a reroll can take it back. */
  async schemeGain(roll, who, chain) {
    if (roll.scheme_gain && !chain.earned) {
      chain.earned = await this.schemeOp('scheme_add', { roll }, who);
    } else if (!roll.scheme_gain && chain.earned) {
      // a reroll (Masteries) took back the 1 that earned the die
      const override = 'A reroll took back the 1 on a success: the die it earned leaves the Scheme again';
      if (await this.schemeOp('scheme_spend_die', null, who, { override })) chain.earned = false;
    }
  }
}
