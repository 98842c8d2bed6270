// Characters: the list on this device, creating one, picking the one whose sheet is open, deleting one, and who
// rolls each procedure in this tab ("Rolling as", kept in sessionStorage: a second tab may roll as someone else).

import { h } from '../dom.js';
import { nowIso } from '../store/ids.js';
import { KINDS, RECORDS, declAt, newSheet } from '../store/schema.js';
import { SYSTEM_NAME } from '../store/words.js';
import { notices } from '../port.js';

const ACTIVE_KEY = 'arbiter.table.active'; // sessionStorage: who rolls each procedure, in this tab
const NAME_MAX = declAt(RECORDS.character, 'name').max_len;

function readActive() {
  try {
    const a = JSON.parse(sessionStorage.getItem(ACTIVE_KEY));
    return a && typeof a === 'object' ? a : {};
  } catch {
    return {};
  }
}

export class Characters {
  constructor(table) {
    this.t = table;
    this.rolling = readActive(); // system -> character id
    this.selected = null; // the character whose sheet is open
    this.newKind = null; // the kind the player picked for a new character; else the tab's (currentKind)
    this.createError = null;
    this.twin = null; // a new character named as one already here, waiting for the player to say so: {kind, name}
    // The kind follows the tab shown: a pick in the select holds until the tab changes.
    notices.addEventListener('tab', () => {
      this.newKind = null;
      const select = document.getElementById('new-char-kind');
      if (select) select.value = this.currentKind();
    });
  }

  /** [id, data] of every character, in id order. */
  list() {
    return this.t.store.list('char:');
  }

  get(id) {
    return id ? this.t.store.get(`char:${id}`) : undefined;
  }

  /** The name of a kind of sheet, as its procedure declares it. */
  kindName(kind) {
    return this.t.spec[kind]?.sheet?.label ?? kind;
  }

  /** The kind of sheet that rolls `system` (Luck's is the Threat sheet), as systems() declares it. */
  kindOf(system) {
    return this.t.spec[system]?.kind;
  }

  /** {id, ...data} of who rolls `system` in this tab, if that character still exists and is of the right kind. */
  active(system) {
    const id = this.rolling[system];
    const c = this.get(id);
    return c && c.kind === this.kindOf(system) ? { id, ...c } : null;
  }

  /** `id` rolls `system` in this tab from now on (null: nobody does). */
  setActive(system, id) {
    if (id) this.rolling[system] = id;
    else delete this.rolling[system];
    try {
      sessionStorage.setItem(ACTIVE_KEY, JSON.stringify(this.rolling));
    } catch {
      /* private mode: this tab only */
    }
    this.t.render('characters');
    this.t.page.port.recheck(); // who pays for a shown roll's choices changed
  }

  /** The procedure of the tab shown, for a new character's kind. */
  currentKind() {
    const tab = document.querySelector('nav.tabs a[aria-selected="true"]')?.dataset.tab;
    return KINDS.includes(tab) ? tab : KINDS[0];
  }

  view() {
    const chars = this.list();
    if (this.selected && !chars.some(([id]) => id === this.selected)) this.selected = null;
    const kindSelect = h(
      'select',
      { id: 'new-char-kind', 'data-k': 'new:kind' },
      KINDS.map((k) =>
        h('option', { value: k, selected: k === (this.newKind ?? this.currentKind()) }, this.kindName(k)),
      ),
    );
    kindSelect.addEventListener('change', () => {
      this.newKind = kindSelect.value;
    });
    const nameInput = h('input', {
      type: 'text',
      id: 'new-char-name',
      maxlength: NAME_MAX,
      autocomplete: 'off',
      'data-k': 'new:name',
      required: true,
    });
    const create = h(
      'form',
      {
        class: 'row create',
        'data-create': 'character',
        novalidate: true,
        onsubmit: (event) => {
          event.preventDefault();
          this.create(kindSelect.value, nameInput.value);
        },
      },
      h('label', { class: 'tf' }, h('span', {}, 'Kind'), kindSelect),
      h('label', { class: 'tf grow' }, h('span', {}, 'Name'), nameInput),
      h('button', { type: 'submit', 'data-k': 'new:create' }, 'Create character'),
      this.createError ? h('output', { class: 'field-error', role: 'alert' }, this.createError) : null,
    );
    const twin = this.twin ? this.viewTwin(this.twin) : null;

    const rolling = Object.entries(this.rolling)
      .map(([system, id]) => [system, id, this.get(id)])
      .filter(([system, , c]) => c && c.kind === this.kindOf(system));
    const pick = (id) => {
      this.selected = this.selected === id ? null : id;
      this.t.render('characters');
    };
    const list = h(
      'ul',
      { class: 'char-list', 'aria-label': 'Characters on this device' },
      chars.map(([id, c]) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              'aria-pressed': String(id === this.selected),
              'data-char': id,
              'data-k': `pick:${id}`,
              onclick: () => pick(id),
            },
            c.name || '(unnamed)',
            h('span', { class: 'muted' }, ` ${this.kindName(c.kind)}`),
          ),
        ),
      ),
    );
    const stop = (system, c) =>
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          'data-k': `stop:${system}`,
          'aria-label': `Stop logging ${SYSTEM_NAME[system]} rolls for ${c.name}`,
          onclick: () => this.setActive(system, null),
        },
        'stop',
      );
    return [
      h('h3', {}, 'Characters'),
      create,
      twin,
      rolling.length
        ? h(
            'p',
            { class: 'rolling', 'data-rolling': '' },
            'Rolling as: ',
            rolling.map(([system, , c], i) => [
              i ? ' · ' : '',
              `${SYSTEM_NAME[system]}: `,
              h('strong', {}, c.name || '(unnamed)'),
              ' ',
              stop(system, c),
            ]),
          )
        : null,
      chars.length
        ? list
        : h(
            'p',
            { class: 'muted' },
            'No characters yet: create one, fill in its sheet, ' + 'and it fills the forms for you.',
          ),
      this.selected ? this.t.sheet.view(this.selected, this.get(this.selected)) : null,
    ];
  }

  /** The step that asks before a second character of the same name: a real step in the page, Cancel focused. */
  viewTwin({ kind, name }) {
    const question = `There is already a character named ${name} on this device. Create another ${name}?`;
    const answer = (yes) => {
      this.twin = null;
      this.t.ui.focus = 'new:name';
      if (yes) this.create(kind, name, true);
      else this.t.render('characters');
    };
    return h(
      'div',
      { class: 'confirm', role: 'group', 'aria-label': question, 'data-twin': '' },
      h('p', {}, question),
      h(
        'button',
        { type: 'button', 'data-confirm': '', 'data-k': 'new:twin:yes', onclick: () => answer(true) },
        `Create another ${name}`,
      ),
      h('button', { type: 'button', 'data-k': 'new:twin:no', onclick: () => answer(false) }, 'Cancel'),
    );
  }

  /** Create a character of `kind` named `name`; one named as a character already here only once the player said so
   * (`twinOk`). */
  async create(kind, name, twinOk = false) {
    name = name.trim();
    if (!name) {
      this.createError = 'Name the character first.';
      this.t.ui.focus = 'new:name';
      this.t.render('characters');
      return;
    }
    this.createError = null;
    const same = (c) => c.name.trim().toLocaleLowerCase() === name.slice(0, NAME_MAX).toLocaleLowerCase();
    if (!twinOk && this.list().some(([, c]) => same(c))) {
      this.twin = { kind, name };
      this.t.ui.focus = 'new:twin:no';
      this.t.render('characters');
      return;
    }
    this.twin = null;
    try {
      const data = { kind, name: name.slice(0, NAME_MAX), created: nowIso(), sheet: newSheet(kind) };
      const id = await this.t.store.create('char:', data);
      this.selected = id;
      this.t.ui.focus = `c:${id}:name`;
      this.t.render('characters');
      const what = this.kindName(kind);
      this.t.say(`${name}: ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what} character, saved on this device.`);
    } catch (error) {
      this.createError = error.message;
      this.t.render('characters');
    }
  }

  async remove(id) {
    const c = this.get(id);
    await this.t.store.remove(`char:${id}`);
    for (const [system, who] of Object.entries(this.rolling)) if (who === id) this.setActive(system, null);
    this.t.say(`${c?.name ?? 'The character'} was deleted.`);
  }
}
