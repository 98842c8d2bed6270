// One character's sheet: its name, "roll as" (roll-as.js), the engine's ops for its kind (sheets/), and every field
// its kind declares (schema.js), edited field by field. A value is checked against its declaration before it is
// saved, and saved onto the sheet's latest revision.

import { at, setAt, toInt } from './data.js';
import { h, intInput } from './dom.js';
import { newId } from './ids.js';
import { SHEETS, check } from './schema.js';
import { BY_KIND } from './sheets/index.js';
import { KIND_NAME, signed } from './words.js';

const FIELD_LABEL = { ratings: 'Ability ratings', counters: 'Counters', attributes: 'Attributes' };
const keyOf = (id, path) => `c:${id}:${path.map((s) => s.id ?? s).join('.')}`;

export class Sheet {
  constructor(table) { this.t = table; }

  view(id, c) {
    const status = this.t.ui.status[id];
    return h('article', { class: 'sheet', 'data-sheet': id, 'data-kind': c.kind, 'aria-labelledby': `sheet-${id}` },
      h('h4', { id: `sheet-${id}` }, c.name || '(unnamed)', h('span', { class: 'muted' }, ` · ${KIND_NAME[c.kind]}`)),
      h('label', { class: 'tf' }, h('span', {}, 'Name'), this.textInput(id, ['name'], c.name, { t: 'text', max: 80 })),
      this.t.rollAs.view(id, c),
      BY_KIND[c.kind]?.ops?.(this.t, id, c) ?? null,
      h('div', { class: 'sheet-fields' }, this.fields(id, c)),
      h('p', { class: `sheet-status${status?.error ? ' error' : ''}`, role: 'status', 'data-sheet-status': '' },
        status?.text ?? ''),
      this.t.confirmable(`del:${id}`, 'Delete character…',
        `Delete ${c.name || 'this character'} and its sheet? The log keeps its rolls.`,
        `Delete ${c.name || 'the character'}`, () => this.t.characters.remove(id)));
  }

  /** The sheet's fields: its counts side by side first, then its groups and lists. */
  fields(id, c) {
    const fields = Object.entries(SHEETS[c.kind].fields).filter(([key]) => key !== 'moved_this_session');
    const view = ([key, decl]) => this.field(id, c, ['sheet', key], decl, FIELD_LABEL[key] ?? decl.label);
    const counts = fields.filter(([, decl]) => decl.t === 'int');
    return [counts.length ? h('div', { class: 'grid' }, counts.map(view)) : null,
      ...fields.filter(([, decl]) => decl.t !== 'int').map(view)];
  }

  textInput(id, path, value, decl, extra = {}) {
    const el = h('input', { type: 'text', value, maxlength: decl.max, autocomplete: 'off', 'data-k': keyOf(id, path),
      ...extra });
    const commit = () => this.commit(el, id, path, decl, (v) => v);
    el.addEventListener('change', commit);
    el.addEventListener('blur', commit);
    return el;
  }

  numberInput(id, path, value, decl, extra = {}) {
    const el = intInput({ min: decl.min, max: decl.max, value, 'data-k': keyOf(id, path), ...extra });
    const commit = () => this.commit(el, id, path, decl, toInt);
    el.addEventListener('change', commit);
    el.addEventListener('blur', commit);
    return el;
  }

  /** Save what `el` holds, if it changed and meets `decl`; else say what is wrong next to it. */
  commit(el, id, path, decl, parse) {
    if (el.value === el.defaultValue) return;
    const value = parse(el.value);
    const errors = check(value, decl, decl.label || 'This', []);
    const out = el.closest('label')?.querySelector('output.field-error');
    if (errors.length) {
      el.setAttribute('aria-invalid', 'true');
      const msg = errors[0].replace(/, got .*$/, '');
      if (out) out.textContent = msg;
      else el.closest('label')?.append(h('output', { class: 'field-error', role: 'alert' }, msg));
      return;
    }
    el.removeAttribute('aria-invalid');
    out?.remove();
    el.defaultValue = el.value;
    this.patch(id, path, value);
  }

  async patch(id, path, value) {
    try {
      await this.t.store.update(`char:${id}`, async (data) => {
        const next = setAt(data, path, value);
        if (next && data.kind === 'ten_again' && ['will', 'resolve', 'composure'].includes(path[1])) {
          await this.t.rules.keepWillInRange(next.sheet, path[1]);
        }
        return next;
      });
    } catch (error) {
      this.t.setStatus(id, error.message, true);
    }
  }

  field(id, c, path, decl, label) {
    const value = at(c, path);
    switch (decl.t) {
      case 'int': {
        const extra = {};
        if (c.kind === 'ten_again' && path[1] === 'will') {
          const max = this.t.rules.knownWillMax(c.sheet);
          if (max !== undefined) extra.max = max;
        }
        return h('label', { class: 'tf' }, h('span', {}, label), this.numberInput(id, path, value, decl, extra));
      }
      case 'text': return h('label', { class: 'tf grow' }, h('span', {}, label), this.textInput(id, path, value, decl));
      case 'bool': {
        const box = h('input', { type: 'checkbox', checked: value === true, 'data-k': keyOf(id, path) });
        box.addEventListener('change', () => this.patch(id, path, box.checked));
        return h('label', { class: 'tf check' }, box, h('span', {}, label));
      }
      case 'obj': {
        const counters = path[1] === 'counters';
        return h('fieldset', { class: 'sheet-group' }, h('legend', {}, label), h('div', { class: 'grid' },
          Object.entries(decl.fields).map(([k, sub]) => {
            const field = this.field(id, c, [...path, k], sub, sub.label || k);
            if (!counters) return field;
            const step = (delta) => h('button', { type: 'button', class: 'step', 'data-k': `c:${id}:${k}:${delta}`,
              'aria-label': `${sub.label} ${signed(delta)}`, onclick: () => this.adjust(id, [...path, k], delta, sub) },
            delta > 0 ? '+' : '−');
            return h('div', { class: 'counter' }, field, step(-1), step(1));
          })));
      }
      case 'list': return this.list(id, c, path, decl, label, value ?? []);
      default: return null;
    }
  }

  /** A list of named entries (skills, traits, items, Convictions): a row each, Remove, and Add. */
  list(id, c, path, decl, label, items) {
    const itemLabel = label.replace(/s$/, '').replace(/^Trait modifier$/, 'Trait');
    const what = (item) => (item.name || item.text ? ` (${item.name || item.text})` : '');
    const row = (item, i) => h('li', { class: 'row' },
      Object.entries(decl.of.fields).filter(([k]) => k !== 'id').map(([k, sub]) =>
        this.field(id, c, [...path, { id: item.id }, k], sub, k === 'name' ? `${itemLabel} ${i + 1}` : sub.label)),
      h('button', { type: 'button', class: 'remove', 'data-k': `c:${id}:rm:${item.id}`,
        'aria-label': `Remove ${itemLabel.toLowerCase()} ${i + 1}${what(item)}`,
        onclick: () => this.removeItem(id, path, item.id) }, 'Remove'));
    return h('fieldset', { class: 'sheet-group list', 'data-list': path.at(-1) }, h('legend', {}, label),
      h('ol', { class: 'rows' }, items.map(row)),
      h('button', { type: 'button', 'data-add': path.at(-1), 'data-k': `c:${id}:add:${path.at(-1)}`,
        disabled: items.length >= decl.max, onclick: () => this.addItem(id, path, decl.of) },
      `Add ${itemLabel.toLowerCase()}`));
  }

  async addItem(id, path, decl) {
    const item = { id: newId() };
    for (const [k, sub] of Object.entries(decl.fields)) {
      if (k === 'id') continue;
      item[k] = sub.t === 'int' ? Math.min(sub.max, Math.max(sub.min, k === 'value' && sub.min === 0 ? 3 : 0))
        : sub.t === 'bool' ? k === 'trained' : '';
    }
    const nameKey = 'name' in item ? 'name' : 'text';
    this.t.ui.focus = keyOf(id, [...path, item, nameKey]);
    try {
      await this.t.store.update(`char:${id}`, (data) => { at(data, path)?.push(item); return data; });
    } catch (error) {
      this.t.setStatus(id, error.message, true);
    }
  }

  async removeItem(id, path, itemId) {
    this.t.ui.focus = `c:${id}:add:${path.at(-1)}`;
    await this.t.store.update(`char:${id}`, (data) => {
      const list = at(data, path);
      const i = list?.findIndex((x) => x.id === itemId) ?? -1;
      if (i < 0) return undefined;
      list.splice(i, 1);
      return data;
    }).catch((error) => this.t.setStatus(id, error.message, true));
  }

  async adjust(id, path, delta, decl) {
    await this.t.store.update(`char:${id}`, (data) => {
      const value = at(data, path) + delta;
      if (value < decl.min || value > decl.max) {
        throw new Error(`${decl.label} must be from ${decl.min} to ${decl.max}`);
      }
      return setAt(data, path, value);
    }).catch((error) => this.t.setStatus(id, error.message, true));
  }
}
