// One character's sheet: its name, "roll as" (roll-as.js), the engine's ops for its kind (sheets/), and every field
// its kind declares (schema.js), edited field by field. A value is checked against its declaration, and the sheet with
// it against the sheet's limits across fields (Will at most resolve + composure), before it is saved onto the sheet's
// latest revision.

import { at, setAt, toInt } from '../store/data.js';
import { h, intInput } from '../dom.js';
import { newId } from '../store/ids.js';
import { RECORDS, declAt, mostOf, problem, sheetOf } from '../store/schema.js';
import { BY_KIND } from '../procedures/sheets.js';
import { signed } from '../store/words.js';

const keyOf = (id, path) => `c:${id}:${path.map((s) => s.id ?? s).join('.')}`;

export class Sheet {
  constructor(table) {
    this.t = table;
  }

  view(id, c) {
    const status = this.t.ui.status[id];
    const line = h(
      'p',
      { class: `sheet-status${status?.error ? ' error' : ''}`, role: 'status', 'data-sheet-status': '' },
      status?.text ?? '',
    );
    const byUse = status?.near === 'use'; // said by "Roll as", where the tap was (table/index.js setStatus)
    return h(
      'article',
      { class: 'sheet', 'data-sheet': id, 'data-kind': c.kind, 'aria-labelledby': `sheet-${id}` },
      h(
        'h4',
        { id: `sheet-${id}` },
        c.name || '(unnamed)',
        h('span', { class: 'muted' }, ` · ${this.t.characters.kindName(c.kind)}`),
      ),
      h(
        'label',
        { class: 'tf' },
        h('span', {}, 'Name'),
        this.textInput(id, ['name'], c.name, declAt(RECORDS.character, 'name')),
      ),
      this.t.rollAs.view(id, c),
      byUse ? line : null,
      BY_KIND[c.kind]?.ops?.(this.t, id, c) ?? null,
      h('div', { class: 'sheet-fields' }, this.fields(id, c)),
      byUse ? null : line,
      this.t.confirmable(
        `del:${id}`,
        'Delete character…',
        `Delete ${c.name || 'this character'} and its sheet? The log keeps its rolls.`,
        `Delete ${c.name || 'the character'}`,
        () => this.t.characters.remove(id),
      ),
    );
  }

  /** The sheet's fields: its counts side by side first, then its groups and lists. */
  fields(id, c) {
    const fields = sheetOf(c.kind).fields.filter((decl) => decl.name !== 'moved_this_session');
    const view = (decl) => this.field(id, c, ['sheet', decl.name], decl, decl.label);
    const counts = fields.filter((decl) => decl.type === 'int');
    return [
      counts.length ? h('div', { class: 'grid' }, counts.map(view)) : null,
      ...fields.filter((decl) => decl.type !== 'int').map(view),
    ];
  }

  textInput(id, path, value, decl, extra = {}) {
    const el = h('input', {
      type: 'text',
      value,
      maxlength: decl.max_len,
      autocomplete: 'off',
      'data-k': keyOf(id, path),
      ...extra,
    });
    const commit = () => this.commit(el, id, path, decl, (v) => v);
    el.addEventListener('change', commit);
    el.addEventListener('blur', commit);
    return el;
  }

  numberInput(id, path, value, decl, extra = {}) {
    const el = intInput({ min: decl.min, max: decl.max, value, 'data-k': keyOf(id, path), ...extra });
    // checked against the box's own max (data-max): the declared one, or a lower one the sheet's limits set (Will's)
    const limits = { ...decl, max: Number(el.dataset.max) };
    const commit = () => this.commit(el, id, path, limits, toInt);
    el.addEventListener('change', commit);
    el.addEventListener('blur', commit);
    return el;
  }

  /** Save what `el` holds, if it changed and meets `decl` and the sheet's limits; else say what is wrong next to it. */
  commit(el, id, path, decl, parse) {
    if (el.value === el.defaultValue) return;
    const value = parse(el.value);
    const wrong = problem(decl, value, decl.label || 'This') ?? this.across(id, path, value);
    const out = el.closest('label')?.querySelector('output.field-error');
    if (wrong) {
      el.setAttribute('aria-invalid', 'true');
      const msg = wrong.replace(/, got .*$/, '').replace(/^'([^']*)' /, '$1 '); // "Dots must be …": the label, bare
      if (out) out.textContent = msg;
      else el.closest('label')?.append(h('output', { class: 'field-error', role: 'alert' }, msg));
      return;
    }
    el.removeAttribute('aria-invalid');
    out?.remove();
    el.defaultValue = el.value;
    this.patch(id, path, value);
  }

  /** What the sheet's limits across its fields (check_sheet's) say of it with `value` at `path`, as the label of the
   * field they name and their words (a lower Resolve: "'Will (current)' must be from 0 to 3 (resolve + composure)");
   * null when nothing. */
  across(id, path, value) {
    const c = this.t.characters.get(id);
    const next = c && path[0] === 'sheet' ? setAt(structuredClone(c), path, value) : undefined;
    const wrong = next ? problem(sheetOf(c.kind), next.sheet, 'sheet') : null;
    const named = wrong && /^'sheet\.([^'.[]+)' /.exec(wrong)?.[1];
    const label = named && declAt(sheetOf(c.kind), named)?.label;
    return label ? wrong.replace(/^'[^']*' /, `'${label}' `) : wrong;
  }

  async patch(id, path, value) {
    try {
      await this.t.store.update(`char:${id}`, (data) => setAt(data, path, value));
    } catch (error) {
      this.t.setStatus(id, error.message, true);
    }
  }

  field(id, c, path, decl, label) {
    const value = at(c, path) ?? (decl.may_be_absent ? decl.default : undefined); // kept before the field: its default
    switch (decl.type) {
      case 'int': {
        // a field of the sheet itself may be held lower by the sheet's limits (Will: resolve + composure)
        const sheet = sheetOf(c.kind);
        const extra = sheet.fields.includes(decl) ? { max: mostOf(sheet, c.sheet, decl.name) } : {};
        return h('label', { class: 'tf' }, h('span', {}, label), this.numberInput(id, path, value, decl, extra));
      }
      case 'text':
        return h('label', { class: 'tf grow' }, h('span', {}, label), this.textInput(id, path, value, decl));
      case 'bool': {
        const box = h('input', { type: 'checkbox', checked: value === true, 'data-k': keyOf(id, path) });
        box.addEventListener('change', () => this.patch(id, path, box.checked));
        return h('label', { class: 'tf check' }, box, h('span', {}, label));
      }
      case 'record': {
        const counters = path[1] === 'counters';
        return h(
          'fieldset',
          { class: 'sheet-group' },
          h('legend', {}, label),
          h(
            'div',
            { class: 'grid' },
            decl.fields.map((sub) => {
              const k = sub.name;
              const field = this.field(id, c, [...path, k], sub, sub.label || k);
              if (!counters) return field;
              const step = (delta) =>
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'step',
                    'data-k': `c:${id}:${k}:${delta}`,
                    'aria-label': `${sub.label} ${signed(delta)}`,
                    onclick: () => this.adjust(id, [...path, k], delta, sub),
                  },
                  delta > 0 ? '+' : '−',
                );
              return h('div', { class: 'counter' }, field, step(-1), step(1));
            }),
          ),
        );
      }
      // a list of records (skills, items…); a list of ids (the Scene's Convictions) is the ops' to change
      case 'list':
        return decl.of.type === 'record' ? this.list(id, c, path, decl, label, value ?? []) : null;
      default:
        return null;
    }
  }

  /** A list of named entries (skills, traits, items, Convictions): a row each, Remove, and Add. */
  list(id, c, path, decl, label, items) {
    const itemLabel = label.replace(/s$/, '').replace(/^Trait modifier$/, 'Trait');
    const what = (item) => (item.name || item.text ? ` (${item.name || item.text})` : '');
    const row = (item, i) =>
      h(
        'li',
        { class: 'row' },
        decl.of.fields
          .filter((sub) => sub.name !== 'id')
          .map((sub) =>
            this.field(
              id,
              c,
              [...path, { id: item.id }, sub.name],
              sub,
              sub.name === 'name' ? `${itemLabel} ${i + 1}` : sub.label,
            ),
          ),
        h(
          'button',
          {
            type: 'button',
            class: 'remove',
            'data-k': `c:${id}:rm:${item.id}`,
            'aria-label': `Remove ${itemLabel.toLowerCase()} ${i + 1}${what(item)}`,
            onclick: () => this.removeItem(id, path, item.id),
          },
          'Remove',
        ),
      );
    return h(
      'fieldset',
      { class: 'sheet-group list', 'data-list': path.at(-1) },
      h('legend', {}, label),
      h('ol', { class: 'rows' }, items.map(row)),
      h(
        'button',
        {
          type: 'button',
          'data-add': path.at(-1),
          'data-k': `c:${id}:add:${path.at(-1)}`,
          disabled: items.length >= decl.max_len,
          onclick: () => this.addItem(id, path, c.kind),
        },
        `Add ${itemLabel.toLowerCase()}`,
      ),
    );
  }

  /** Add an entry to the list at `path`: the default its kind's sheet declares (systems()' "sheet"), a new id. */
  async addItem(id, path, kind) {
    const list = this.t.spec[kind].sheet.fields.find((f) => f.name === path.at(-1));
    const item = { ...list.of.default, id: newId() };
    const nameKey = 'name' in item ? 'name' : 'text';
    this.t.ui.focus = keyOf(id, [...path, item, nameKey]);
    try {
      await this.t.store.update(`char:${id}`, (data) => {
        at(data, path)?.push(item);
        return data;
      });
    } catch (error) {
      this.t.setStatus(id, error.message, true);
    }
  }

  async removeItem(id, path, itemId) {
    this.t.ui.focus = `c:${id}:add:${path.at(-1)}`;
    await this.t.store
      .update(`char:${id}`, (data) => {
        const list = at(data, path);
        const i = list?.findIndex((x) => x.id === itemId) ?? -1;
        if (i < 0) return undefined;
        list.splice(i, 1);
        return data;
      })
      .catch((error) => this.t.setStatus(id, error.message, true));
  }

  async adjust(id, path, delta, decl) {
    await this.t.store
      .update(`char:${id}`, (data) => {
        const value = at(data, path) + delta;
        if (value < decl.min || value > decl.max) {
          throw new Error(`${decl.label} must be from ${decl.min} to ${decl.max}`);
        }
        return setAt(data, path, value);
      })
      .catch((error) => this.t.setStatus(id, error.message, true));
  }
}
