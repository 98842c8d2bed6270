// The table's state on this device: character sheets that fill the forms, the Scheme every character shares, Pay
// the Price marks per Situation, ongoing d10 struggles and a log of every roll, all kept by store.js. Every rule
// (Will, nights of rest, XP costs, Exertion, Convictions, the Scheme, struggles and their odds) is arbiter.api.table's:
// this module keeps and shows state. Whatever a player typed is shown as text, never parsed as HTML.
//
//   startTable(window.arbiterPage, arbiter, SPEC)   // renders into <section id="table">; sets data-ready when loaded

import { h as element, percent } from './procedures.js';
import {
  ABILITY_ATTRIBUTES, APP, KINDS, LEGACY_PRICE_KEY, SCHEMA, SHEETS, SYSTEMS, THREAT_RATINGS, Store, check, legacyMarks,
  newId, newSheet, parseTableFile,
} from './store.js';

const KIND_NAME = { arbitration: 'Arbitration', two_dice: 'Two dice', threat: 'Threat & Luck', ten_again: 'd10 pool', ability_test: 'Ability Test' };
const SYSTEM_NAME = { arbitration: 'Arbitration', two_dice: 'Two dice', threat: 'Threat Roll', luck: 'Luck Roll', ten_again: 'd10 pool', ability_test: 'Ability Test' };
const KIND_OF = { arbitration: 'arbitration', two_dice: 'two_dice', threat: 'threat', luck: 'threat', ten_again: 'ten_again', ability_test: 'ability_test' };
const STATUS_TEXT = { ongoing: 'ongoing', done: 'done: the target is reached', aborted: 'aborted by a botch: start again from scratch' };
const FIELD_LABEL = { ratings: 'Ability ratings', counters: 'Counters', attributes: 'Attributes' };
const TYPE1 = ABILITY_ATTRIBUTES.slice(0, 4);
const TYPE2 = ABILITY_ATTRIBUTES.slice(4);
const ACTIVE_KEY = 'arbiter.table.active'; // sessionStorage: who rolls each procedure, in this tab
const LOG_PAGE = 50;
const ODDS_DELAY_MS = 250;
const DEFAULT_ODDS_TURNS = 5;

/** procedures.js's element builder (strings become text nodes, never HTML), taking children nested at any depth. */
const h = (tag, attrs = {}, ...children) => element(tag, attrs, ...children.flat(Infinity));
const nowIso = () => new Date().toISOString();
const plural = (n, one, more = `${one}s`) => `${n} ${n === 1 ? one : more}`;
const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
const pick = (obj, keys) => Object.fromEntries(keys.map((k) => [k, obj[k]]));
const toInt = (text) => (/^\s*[+-]?\d{1,9}\s*$/.test(String(text)) ? Number(text) : String(text));
const fmtTime = (iso) => { const d = new Date(iso); return Number.isNaN(d.getTime()) ? iso : d.toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' }); };

/** Walk `path` (keys, or {id} for a list entry) in `data`; undefined when something on the way is gone. */
function at(data, path) {
  let node = data;
  for (const seg of path) {
    if (node === undefined || node === null) return undefined;
    node = typeof seg === 'object' ? node.find?.((x) => x.id === seg.id) : node[seg];
  }
  return node;
}

function setAt(data, path, value) {
  const parent = at(data, path.slice(0, -1));
  if (parent === undefined || parent === null) return undefined; // removed meanwhile, perhaps in another tab
  parent[path.at(-1)] = value;
  return data;
}

/** The declaration for `path` inside a sheet of `kind`. */
function declAt(kind, path) {
  let decl = SHEETS[kind];
  for (const seg of path) decl = typeof seg === 'object' ? decl.of : decl.fields[seg];
  return decl;
}

/** Replace `container`'s children, keeping focus (and a half-typed value) on the element with the same data-k. */
function swap(container, nodes) {
  const active = document.activeElement;
  let key = null;
  let typed = null;
  let selection = null;
  if (active && container.contains(active) && active.dataset.k) {
    key = active.dataset.k;
    if (active.matches('input[type=text], textarea')) {
      if (active.value !== active.defaultValue) typed = active.value;
      selection = [active.selectionStart, active.selectionEnd, active.selectionDirection];
    }
  }
  container.replaceChildren(...nodes.flat().filter(Boolean));
  if (key) {
    const el = container.querySelector(`[data-k="${CSS.escape(key)}"]`);
    if (el) {
      if (typed !== null) el.value = typed;
      el.focus({ preventScroll: true });
      // a redraw while typing must not move the caret or drop a selection (typing would then add, not replace)
      if (selection && el.setSelectionRange && selection[0] !== null) el.setSelectionRange(...selection);
    }
  }
}

/** A whole-number field: a text input (so a redraw can keep its caret and selection), a numeric keyboard where no
 * minus sign is needed, and ArrowUp/ArrowDown stepping within min..max. */
function intInput(attrs) {
  const { min, max } = attrs;
  const el = h('input', { type: 'text', inputmode: min >= 0 ? 'numeric' : 'text', pattern: min >= 0 ? '[0-9]*' : '-?[0-9]*',
    autocomplete: 'off', spellcheck: 'false', 'data-min': min, 'data-max': max, ...attrs, min: null, max: null });
  el.classList.add('int');
  el.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const v = toInt(el.value);
    if (!Number.isInteger(v)) return;
    event.preventDefault();
    el.value = String(Math.min(Number(el.dataset.max), Math.max(Number(el.dataset.min), v + (event.key === 'ArrowUp' ? 1 : -1))));
  });
  return el;
}

function facesOf(roll) {
  const side = (s) => [...(s.dice ?? []), ...(s.will_dice ?? []), ...(s.rerolls ?? [])];
  let faces;
  switch (roll.system) {
    case 'arbitration': faces = [...roll.dice, ...(roll.defender?.dice ?? [])]; break;
    case 'two_dice': faces = [...roll.dice, ...(roll.target?.dice ?? [])]; break;
    case 'ten_again': faces = [...side(roll), ...(roll.target ? side(roll.target) : [])]; break;
    case 'ability_test': faces = [...(roll.scheme_roll !== null && roll.scheme_roll !== undefined ? [roll.scheme_roll] : []), ...roll.dice]; break;
    default: faces = [...(roll.dice ?? [])];
  }
  return faces.filter((f) => Number.isInteger(f) && f >= 1 && f <= 10).slice(0, 500);
}

/** A request for people: "pool 3, will, required 1"; what is off, empty or null is left out. */
function requestText(value) {
  const nested = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? `{${requestText(v)}}` : requestText(v));
  if (Array.isArray(value)) return `[${value.map(nested).join(', ')}]`;
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .filter(([, v]) => v !== false && v !== null && v !== '' && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => (v === true ? k : `${k} ${nested(v)}`))
      .join(', ');
  }
  return String(value);
}

function jsonOrNull(value, max) {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(value);
  return text.length <= max ? JSON.parse(text) : null;
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** One CSV cell: quoted, quotes doubled, and a leading = + - @ defused so a spreadsheet never runs it. */
function csvCell(value) {
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replaceAll('"', '""')}"`;
}

function readActive() {
  try { const a = JSON.parse(sessionStorage.getItem(ACTIVE_KEY)); return a && typeof a === 'object' ? a : {}; } catch { return {}; }
}

/** What a roll or a follow-up costs, in the order it is paid: the one list `onRoll` pays after the dice and
 * `cannotPay` tries before them. Each is an `arbiter.api.table` op on the rolling character's sheet
 * (`by: 'character'`) or on the shared Scheme (`by: 'scheme'`). */
function costsOf(system, request, action) {
  const out = [];
  const character = (op, args = null, times = 1) => out.push({ by: 'character', system, op, args, times });
  const scheme = (op) => out.push({ by: 'scheme', system: 'ability_test', op, args: null, times: 1 });
  if (system === 'ten_again') {
    const spent = action ? action.spend_will === true && (action.side ?? 'actor') === 'actor' : request?.will === true;
    if (spent) character('spend_will');
  } else if (system === 'ability_test' && !action) {
    const n = request?.convictions?.length ?? 0;
    if (n) character('activate_conviction', null, n);
    if (request?.scheme_die) scheme('scheme_spend_die');
  } else if (system === 'ability_test') {
    if ('exert' in action) character('exert', { amount: action.exert });
    else if ('negate_setback' in action) scheme('scheme_negate_setback');
  }
  return out;
}

export function startTable(page, arbiter, spec) {
  const root = document.getElementById('table');
  if (!root || !page) return null;
  const table = new Table(root, page, arbiter, spec);
  table.start().catch((error) => table.fatal(error));
  return table;
}

class Table {
  constructor(root, page, arbiter, spec) {
    Object.assign(this, { root, page, arbiter, spec });
    this.store = null;
    this.active = readActive();
    this.selected = null;
    this.ui = {
      status: {}, pick: {}, confirm: null, focus: null, logLimit: LOG_PAGE, filter: { character: '', system: '' },
      importReport: null, importFile: null, odds: {}, oddsTurns: {}, willMax: {}, tableStatus: null, dismissed: new Set(),
      newStruggle: null, createError: null,
    };
    this.chains = {}; // system -> {earned}: a roll and its follow-ups earn the Scheme at most one die
    this.counted = new WeakSet(); // d10 rolls already added to a struggle
    this.dirty = new Set();
    this.queue = new Promise((resolve) => { this.unblock = resolve; }); // roll events wait for the store
  }

  async start() {
    const part = (name, label) => h('section', { class: 'table-part', 'data-part': name, 'aria-label': label });
    this.parts = {
      alerts: h('div', { class: 'table-alerts', 'data-part': 'alerts' }),
      status: h('p', { class: 'table-status', role: 'status', 'data-table-status': '' }),
      characters: part('characters', 'Characters'),
      shared: part('shared', 'Shared by the table'),
      struggles: part('struggles', 'Ongoing struggles'),
      log: part('log', 'Roll log'),
      save: part('save', 'Save and restore'),
    };
    this.root.querySelector('[data-table-wait]')?.remove();
    this.root.append(...Object.values(this.parts));
    document.addEventListener('arbiter:roll', (event) => this.enqueue(() => this.onRoll(event.detail)));
    this.page.guards?.push((system, request, action) => this.cannotPay(system, request, action));

    this.store = await Store.open();
    this.store.subscribe((ids) => this.changed(ids));
    this.unblock();
    this.mirrorPrice();
    // procedures.js changes the marks itself ("New Situation (unmark all)"): pick that up after any click there
    this.page.procs.threat?.form.addEventListener('click', () => setTimeout(() => this.pullPrice(), 0));
    const d10 = this.page.procs.ten_again?.form;
    d10?.addEventListener('input', () => this.scheduleOdds());
    d10?.addEventListener('change', () => this.scheduleOdds());
    this.render('alerts', 'characters', 'shared', 'struggles', 'log', 'save');
    this.flush();
    this.root.dataset.ready = '';
  }

  fatal(error) {
    console.warn(error);
    this.root.append(h('p', { class: 'field-error', role: 'alert' }, `The table could not start: ${error.message}`));
  }

  enqueue(fn) {
    this.queue = this.queue.then(fn).catch((error) => this.say(error.message, true));
    return this.queue;
  }

  // --- rendering ---------------------------------------------------------------------------------------------------
  render(...names) {
    for (const n of names) this.dirty.add(n);
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => this.flush(), 0);
    }
  }

  renderAll() { this.render('alerts', 'characters', 'shared', 'struggles', 'log', 'save'); }

  flush() {
    this.scheduled = false;
    if (!this.store) return;
    const views = { alerts: () => this.viewAlerts(), characters: () => this.viewCharacters(), shared: () => this.viewShared(),
      struggles: () => this.viewStruggles(), log: () => this.viewLog(), save: () => this.viewSave() };
    for (const name of this.dirty) swap(this.parts[name], views[name]());
    this.dirty.clear();
    this.parts.status.textContent = this.ui.tableStatus?.text ?? '';
    this.parts.status.classList.toggle('error', Boolean(this.ui.tableStatus?.error));
    if (this.ui.focus) {
      this.root.querySelector(`[data-k="${CSS.escape(this.ui.focus)}"]`)?.focus();
      this.ui.focus = null;
    }
  }

  changed(ids) {
    const all = ids === 'all';
    const has = (prefix) => all || [...ids].some((id) => id.startsWith(prefix));
    if (has('char:')) this.render('characters', 'struggles', 'log');
    if (has('shared:')) this.render('shared');
    if (has('shared:price')) this.mirrorPrice();
    if (has('struggle:')) this.render('struggles');
    if (has('log:')) this.render('log');
    if (has('aside:')) this.render('save');
    if (all) this.render('alerts', 'save');
  }

  /** The table's own line: what the last op did, or why it was refused. */
  say(text, error = false) {
    this.ui.tableStatus = { text, error };
    this.parts.status.textContent = text;
    this.parts.status.classList.toggle('error', error);
  }

  setStatus(charId, text, error = false) {
    this.ui.status[charId] = { text, error };
    this.render('characters');
  }

  /** A button that asks first: a real step in the page, keyboard operable, Cancel focused. */
  confirmable(key, label, question, yesLabel, onYes) {
    if (this.ui.confirm === key) {
      return h('div', { class: 'confirm', role: 'group', 'aria-label': question },
        h('p', {}, question),
        h('button', { type: 'button', class: 'danger', 'data-confirm': '', 'data-k': `${key}:yes`,
          onclick: () => { this.ui.confirm = null; this.renderAll(); Promise.resolve().then(onYes).catch((error) => this.say(error.message, true)); } }, yesLabel),
        h('button', { type: 'button', 'data-k': `${key}:no`, onclick: () => { this.ui.confirm = null; this.ui.focus = key; this.renderAll(); } }, 'Cancel'));
    }
    return h('button', { type: 'button', 'data-k': key, onclick: () => { this.ui.confirm = key; this.ui.focus = `${key}:no`; this.renderAll(); } }, label);
  }

  // --- alerts: storage that could not be used -----------------------------------------------------------------------
  viewAlerts() {
    return this.store.problems.map((p, i) => (this.ui.dismissed.has(i) ? null : h('div', { class: 'banner table-alert', role: 'alert', 'data-problem': p.kind },
      h('p', {}, p.message),
      p.details ? h('details', {}, h('summary', {}, 'What could not be read'), h('ul', {}, p.details.map((d) => h('li', {}, d)))) : null,
      p.aside && this.store.records.has(p.aside) ? h('button', { type: 'button', 'data-k': `alert:${i}:dl`, onclick: () => this.downloadAside(p.aside) }, 'Download the kept copy') : null,
      h('button', { type: 'button', 'data-k': `alert:${i}:x`, onclick: () => { this.ui.dismissed.add(i); this.render('alerts'); } }, 'Dismiss'))));
  }

  // --- characters ------------------------------------------------------------------------------------------------
  characters() { return this.store.list('char:'); }

  character(id) { return id ? this.store.get(`char:${id}`) : undefined; }

  currentKind() {
    const tab = document.querySelector('nav.tabs a[aria-selected="true"]')?.dataset.tab;
    return KINDS.includes(tab) ? tab : 'arbitration';
  }

  viewCharacters() {
    const chars = this.characters();
    if (this.selected && !chars.some(([id]) => id === this.selected)) this.selected = null;
    const kindSelect = h('select', { id: 'new-char-kind', 'data-k': 'new:kind' },
      KINDS.map((k) => h('option', { value: k, selected: k === (this.ui.newKind ?? this.currentKind()) }, KIND_NAME[k])));
    kindSelect.addEventListener('change', () => { this.ui.newKind = kindSelect.value; });
    const nameInput = h('input', { type: 'text', id: 'new-char-name', maxlength: 80, autocomplete: 'off', 'data-k': 'new:name', required: true });
    const create = h('form', { class: 'row create', 'data-create': 'character', novalidate: true,
      onsubmit: (event) => { event.preventDefault(); this.createCharacter(kindSelect.value, nameInput.value); } },
    h('label', { class: 'tf' }, h('span', {}, 'Kind'), kindSelect),
    h('label', { class: 'tf grow' }, h('span', {}, 'Name'), nameInput),
    h('button', { type: 'submit', 'data-k': 'new:create' }, 'Create character'),
    this.ui.createError ? h('output', { class: 'field-error', role: 'alert' }, this.ui.createError) : null);

    const rolling = Object.entries(this.active).map(([system, id]) => [system, id, this.character(id)])
      .filter(([system, , c]) => c && c.kind === KIND_OF[system]);
    const list = h('ul', { class: 'char-list', 'aria-label': 'Characters on this device' }, chars.map(([id, c]) => h('li', {},
      h('button', { type: 'button', 'aria-pressed': String(id === this.selected), 'data-char': id, 'data-k': `pick:${id}`,
        onclick: () => { this.selected = this.selected === id ? null : id; this.render('characters'); } },
      c.name || '(unnamed)', h('span', { class: 'muted' }, ` ${KIND_NAME[c.kind]}`)))));
    return [
      h('h3', {}, 'Characters'),
      create,
      rolling.length ? h('p', { class: 'rolling', 'data-rolling': '' }, 'Rolling as: ', rolling.map(([system, id, c], i) => [i ? ' · ' : '',
        `${SYSTEM_NAME[system]}: `, h('strong', {}, c.name || '(unnamed)'), ' ',
        h('button', { type: 'button', class: 'link', 'data-k': `stop:${system}`, 'aria-label': `Stop logging ${SYSTEM_NAME[system]} rolls for ${c.name}`,
          onclick: () => this.setActive(system, null) }, 'stop')])) : null,
      chars.length ? list : h('p', { class: 'muted' }, 'No characters yet: create one, fill in its sheet, and it fills the forms for you.'),
      this.selected ? this.viewSheet(this.selected, this.character(this.selected)) : null,
    ];
  }

  async createCharacter(kind, name) {
    name = name.trim();
    if (!name) { this.ui.createError = 'Name the character first.'; this.ui.focus = 'new:name'; this.render('characters'); return; }
    this.ui.createError = null;
    try {
      const id = await this.store.create('char:', { kind, name: name.slice(0, 80), created: nowIso(), sheet: newSheet(kind) });
      this.selected = id;
      this.ui.newKind = kind;
      this.ui.focus = `c:${id}:name`;
      this.render('characters');
      this.say(`${name}: a ${KIND_NAME[kind]} character, saved on this device.`);
    } catch (error) {
      this.ui.createError = error.message;
      this.render('characters');
    }
  }

  setActive(system, id) {
    if (id) this.active[system] = id; else delete this.active[system];
    try { sessionStorage.setItem(ACTIVE_KEY, JSON.stringify(this.active)); } catch { /* private mode: this tab only */ }
    this.render('characters');
  }

  /** [id, data] of who rolls `system` in this tab, if that character still exists and is of the right kind. */
  activeChar(system) {
    const id = this.active[system];
    const c = this.character(id);
    return c && c.kind === KIND_OF[system] ? { id, ...c } : null;
  }

  viewSheet(id, c) {
    const status = this.ui.status[id];
    return h('article', { class: 'sheet', 'data-sheet': id, 'data-kind': c.kind, 'aria-labelledby': `sheet-${id}` },
      h('h4', { id: `sheet-${id}` }, c.name || '(unnamed)', h('span', { class: 'muted' }, ` · ${KIND_NAME[c.kind]}`)),
      h('label', { class: 'tf' }, h('span', {}, 'Name'), this.textInput(id, ['name'], c.name, { t: 'text', max: 80 })),
      this.viewUse(id, c),
      this.viewOps(id, c),
      h('div', { class: 'sheet-fields' }, this.sheetFields(id, c)),
      h('p', { class: `sheet-status${status?.error ? ' error' : ''}`, role: 'status', 'data-sheet-status': '' }, status?.text ?? ''),
      this.confirmable(`del:${id}`, 'Delete character…', `Delete ${c.name || 'this character'} and its sheet? The log keeps its rolls.`,
        `Delete ${c.name || 'the character'}`, () => this.deleteCharacter(id)));
  }

  /** The sheet's fields: its counts side by side first, then its groups and lists. */
  sheetFields(id, c) {
    const fields = Object.entries(SHEETS[c.kind].fields).filter(([key]) => key !== 'moved_this_session');
    const view = ([key, decl]) => this.editField(id, c, ['sheet', key], decl, FIELD_LABEL[key] ?? decl.label);
    const counts = fields.filter(([, decl]) => decl.t === 'int');
    return [counts.length ? h('div', { class: 'grid' }, counts.map(view)) : null, ...fields.filter(([, decl]) => decl.t !== 'int').map(view)];
  }

  async deleteCharacter(id) {
    const c = this.character(id);
    await this.store.remove(`char:${id}`);
    for (const [system, who] of Object.entries(this.active)) if (who === id) this.setActive(system, null);
    this.say(`${c?.name ?? 'The character'} was deleted.`);
  }

  // --- editing a sheet, field by field ---
  textInput(id, path, value, decl, extra = {}) {
    const el = h('input', { type: 'text', value, maxlength: decl.max, autocomplete: 'off', 'data-k': `c:${id}:${path.map((s) => s.id ?? s).join('.')}`, ...extra });
    const commit = () => this.commit(el, id, path, decl, (v) => v);
    el.addEventListener('change', commit);
    el.addEventListener('blur', commit);
    return el;
  }

  numberInput(id, path, value, decl, extra = {}) {
    const el = intInput({ min: decl.min, max: decl.max, value, 'data-k': `c:${id}:${path.map((s) => s.id ?? s).join('.')}`, ...extra });
    const commit = () => this.commit(el, id, path, decl, toInt);
    el.addEventListener('change', commit);
    el.addEventListener('blur', commit);
    return el;
  }

  commit(el, id, path, decl, parse) {
    if (el.value === el.defaultValue) return;
    const value = parse(el.value);
    const errors = check(value, decl, decl.label || 'This', []);
    const out = el.closest('label')?.querySelector('output.field-error');
    if (errors.length) {
      el.setAttribute('aria-invalid', 'true');
      const msg = errors[0].replace(/, got .*$/, '');
      if (out) out.textContent = msg; else el.closest('label')?.append(h('output', { class: 'field-error', role: 'alert' }, msg));
      return;
    }
    el.removeAttribute('aria-invalid');
    out?.remove();
    el.defaultValue = el.value;
    this.patch(id, path, value);
  }

  async patch(id, path, value) {
    try {
      await this.store.update(`char:${id}`, async (data) => {
        const next = setAt(data, path, value);
        if (next && data.kind === 'ten_again' && ['will', 'resolve', 'composure'].includes(path[1])) await this.keepWillInRange(next.sheet, path[1]);
        return next;
      });
    } catch (error) {
      this.setStatus(id, error.message, true);
    }
  }

  /** Will stays from 0 to the engine's maximum: a lower maximum lowers it; typing more is refused. */
  async keepWillInRange(sheet, changed) {
    const max = await this.willMax(sheet);
    if (sheet.will <= max) return;
    if (changed === 'will') throw new Error(`Will (current) must be from 0 to ${max}, the maximum (resolve + composure); not saved`);
    sheet.will = max;
  }

  /** The engine's maximum Will for this Resolve and Composure (asked once per pair). */
  async willMax(sheet) {
    const key = `${sheet.resolve},${sheet.composure}`;
    if (!(key in this.ui.willMax)) {
      this.willAsked ??= new Map();
      if (!this.willAsked.has(key)) {
        const asked = this.arbiter.table('ten_again', 'will_max', { resolve: sheet.resolve, composure: sheet.composure })
          .then(({ max }) => { this.ui.willMax[key] = max; });
        asked.catch(() => this.willAsked.delete(key));
        this.willAsked.set(key, asked);
      }
      await this.willAsked.get(key);
    }
    return this.ui.willMax[key];
  }

  editField(id, c, path, decl, label) {
    const value = at(c, path);
    switch (decl.t) {
      case 'int': {
        const extra = {};
        if (c.kind === 'ten_again' && path[1] === 'will') {
          const max = this.ui.willMax[`${c.sheet.resolve},${c.sheet.composure}`];
          if (max !== undefined) extra.max = max;
        }
        return h('label', { class: 'tf' }, h('span', {}, label), this.numberInput(id, path, value, decl, extra));
      }
      case 'text': return h('label', { class: 'tf grow' }, h('span', {}, label), this.textInput(id, path, value, decl));
      case 'bool': {
        const box = h('input', { type: 'checkbox', checked: value === true, 'data-k': `c:${id}:${path.map((s) => s.id ?? s).join('.')}` });
        box.addEventListener('change', () => this.patch(id, path, box.checked));
        return h('label', { class: 'tf check' }, box, h('span', {}, label));
      }
      case 'obj': {
        const counters = path[1] === 'counters';
        return h('fieldset', { class: 'sheet-group' }, h('legend', {}, label), h('div', { class: 'grid' },
          Object.entries(decl.fields).map(([k, sub]) => {
            const field = this.editField(id, c, [...path, k], sub, sub.label || k);
            if (!counters) return field;
            const step = (delta) => h('button', { type: 'button', class: 'step', 'data-k': `c:${id}:${k}:${delta}`, 'aria-label': `${sub.label} ${signed(delta)}`,
              onclick: () => this.adjust(id, [...path, k], delta, sub) }, delta > 0 ? '+' : '−');
            return h('div', { class: 'counter' }, field, step(-1), step(1));
          })));
      }
      case 'list': {
        const items = value ?? [];
        const itemLabel = label.replace(/s$/, '').replace(/^Trait modifier$/, 'Trait');
        return h('fieldset', { class: 'sheet-group list', 'data-list': path.at(-1) }, h('legend', {}, label),
          h('ol', { class: 'rows' }, items.map((item, i) => h('li', { class: 'row' },
            Object.entries(decl.of.fields).filter(([k]) => k !== 'id').map(([k, sub]) =>
              this.editField(id, c, [...path, { id: item.id }, k], sub, k === 'name' ? `${itemLabel} ${i + 1}` : sub.label)),
            h('button', { type: 'button', class: 'remove', 'data-k': `c:${id}:rm:${item.id}`,
              'aria-label': `Remove ${itemLabel.toLowerCase()} ${i + 1}${item.name || item.text ? ` (${item.name || item.text})` : ''}`,
              onclick: () => this.removeItem(id, path, item.id) }, 'Remove')))),
          h('button', { type: 'button', 'data-add': path.at(-1), 'data-k': `c:${id}:add:${path.at(-1)}`, disabled: items.length >= decl.max,
            onclick: () => this.addItem(id, path, decl.of) }, `Add ${itemLabel.toLowerCase()}`));
      }
      default: return null;
    }
  }

  async addItem(id, path, decl) {
    const item = { id: newId() };
    for (const [k, sub] of Object.entries(decl.fields)) {
      if (k === 'id') continue;
      item[k] = sub.t === 'int' ? Math.min(sub.max, Math.max(sub.min, k === 'value' && sub.min === 0 ? 3 : 0))
        : sub.t === 'bool' ? k === 'trained' : '';
    }
    const nameKey = 'name' in item ? 'name' : 'text';
    this.ui.focus = `c:${id}:${[...path, item, nameKey].map((s) => s.id ?? s).join('.')}`;
    try {
      await this.store.update(`char:${id}`, (data) => { at(data, path)?.push(item); return data; });
    } catch (error) {
      this.setStatus(id, error.message, true);
    }
  }

  async removeItem(id, path, itemId) {
    this.ui.focus = `c:${id}:add:${path.at(-1)}`;
    await this.store.update(`char:${id}`, (data) => {
      const list = at(data, path);
      const i = list?.findIndex((x) => x.id === itemId) ?? -1;
      if (i < 0) return undefined;
      list.splice(i, 1);
      return data;
    }).catch((error) => this.setStatus(id, error.message, true));
  }

  async adjust(id, path, delta, decl) {
    await this.store.update(`char:${id}`, (data) => {
      const value = at(data, path) + delta;
      if (value < decl.min || value > decl.max) throw new Error(`${decl.label} must be from ${decl.min} to ${decl.max}`);
      return setAt(data, path, value);
    }).catch((error) => this.setStatus(id, error.message, true));
  }

  // --- "roll as": choose what is relevant and fill the procedure's form ---
  pickState(id, make) { return (this.ui.pick[id] ??= make()); }

  checkbox(key, label, checked, onchange) {
    const box = h('input', { type: 'checkbox', checked, 'data-k': key });
    box.addEventListener('change', () => onchange(box.checked));
    return h('label', { class: 'tf check' }, box, h('span', {}, label));
  }

  select(key, label, options, value, onchange) {
    const el = h('select', { 'data-k': key }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
    el.addEventListener('change', () => onchange(el.value));
    return h('label', { class: 'tf' }, h('span', {}, label), el);
  }

  toggle(set, key, on) { if (on) set.add(key); else set.delete(key); }

  viewUse(id, c) {
    const s = c.sheet;
    const k = (name) => `use:${id}:${name}`;
    const fill = (system, label, make) => h('button', { type: 'button', class: 'primary', 'data-fill': system, 'data-k': k(`fill-${system}`),
      onclick: () => { const out = make(); if (typeof out === 'string') this.setStatus(id, out, true); else this.fillFor(id, system, out); } }, label);
    let body;
    switch (c.kind) {
      case 'arbitration': {
        const p = this.pickState(id, () => ({ skills: new Set(), traits: new Set() }));
        const max = this.fieldSpec('arbitration', 'skills').max_len;
        const maxMods = this.fieldSpec('arbitration', 'modifiers').max_len;
        body = [
          h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Relevant skills (the lowest counts)'), s.skills.length
            ? s.skills.map((sk) => this.checkbox(k(`skill:${sk.id}`), `${sk.name || 'Skill'} ${sk.value}`, p.skills.has(sk.id), (on) => this.toggle(p.skills, sk.id, on)))
            : h('p', { class: 'muted' }, 'Add skills to the sheet below.')),
          s.traits.length ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Trait modifiers that apply'),
            s.traits.map((t) => this.checkbox(k(`trait:${t.id}`), `${t.name || 'Trait'} ${signed(t.modifier)}`, p.traits.has(t.id), (on) => this.toggle(p.traits, t.id, on)))) : null,
          fill('arbitration', 'Fill the Arbitration form', () => {
            const skills = s.skills.filter((sk) => p.skills.has(sk.id)).map((sk) => sk.value);
            const modifiers = s.traits.filter((t) => p.traits.has(t.id)).map((t) => t.modifier);
            if (!skills.length) return 'Choose at least one relevant skill.';
            if (skills.length > max) return `Choose at most ${max} skills (the form holds ${max}).`;
            if (modifiers.length > maxMods) return `Choose at most ${maxMods} trait modifiers (the form holds ${maxMods}).`;
            return { skills, modifiers };
          }),
        ];
        break;
      }
      case 'two_dice': {
        const p = this.pickState(id, () => ({ trait: '', abilities: new Set() }));
        const max = this.fieldSpec('two_dice', 'abilities').max_len;
        body = [
          this.select(k('trait'), 'Malleable trait', [['', 'None (0)'], ...s.traits.map((t) => [t.id, `${t.name || 'Trait'} ${t.value}`])], p.trait, (v) => { p.trait = v; }),
          s.abilities.length ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Abilities that apply'),
            s.abilities.map((a) => this.checkbox(k(`ability:${a.id}`), `${a.name || 'Ability'} ${signed(a.value)}`, p.abilities.has(a.id), (on) => this.toggle(p.abilities, a.id, on)))) : null,
          fill('two_dice', 'Fill the Two dice form', () => {
            const abilities = s.abilities.filter((a) => p.abilities.has(a.id)).map((a) => a.value);
            if (abilities.length > max) return `Choose at most ${max} abilities (the form holds ${max}).`;
            return { trait: s.traits.find((t) => t.id === p.trait)?.value ?? 0, abilities };
          }),
        ];
        break;
      }
      case 'threat': {
        const p = this.pickState(id, () => ({ rating: THREAT_RATINGS[0] }));
        body = [
          this.select(k('rating'), 'Ability rating', THREAT_RATINGS.map((r) => [r, `${r} ${s.ratings[r]}`]), p.rating, (v) => { p.rating = v; }),
          fill('threat', 'Fill the Threat Roll', () => ({ rating: s.ratings[p.rating] })),
          h('button', { type: 'button', 'data-k': k('luck'), 'data-fill': 'luck', onclick: () => this.fillFor(id, 'luck', null) }, 'Roll Luck as this character'),
        ];
        break;
      }
      case 'ten_again': {
        const p = this.pickState(id, () => ({ stats: new Set() }));
        const stat = (x, isSkill) => this.checkbox(k(`stat:${x.id}`), `${x.name || (isSkill ? 'Skill' : 'Attribute')} ${x.dots}${isSkill && !x.trained ? ' (untrained)' : ''}`,
          p.stats.has(x.id), (on) => this.toggle(p.stats, x.id, on));
        body = [
          h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Statistics named for the roll (their dots are the pool)'),
            [...s.attributes.map((a) => stat(a, false)), ...s.skills.map((sk) => stat(sk, true))],
            s.attributes.length + s.skills.length ? null : h('p', { class: 'muted' }, 'Add attributes and skills to the sheet below.')),
          fill('ten_again', 'Fill the d10 pool form', () => {
            const chosen = [...s.attributes, ...s.skills].filter((x) => p.stats.has(x.id));
            if (!chosen.length) return 'Choose the statistics named for the roll.';
            return { pool: chosen.reduce((sum, x) => sum + x.dots, 0), unskilled: s.skills.some((sk) => p.stats.has(sk.id) && !sk.trained) };
          }),
        ];
        break;
      }
      case 'ability_test': {
        const p = this.pickState(id, () => ({ type1: TYPE1[0], type2: TYPE2[0], skill: '', masteries: true, item: '', convictions: new Set() }));
        const maxConv = this.fieldSpec('ability_test', 'convictions').max_len;
        body = [
          h('div', { class: 'grid' },
            this.select(k('type1'), 'Type I attribute', TYPE1.map((a) => [a, `${a} ${s.attributes[a]}`]), p.type1, (v) => { p.type1 = v; }),
            this.select(k('type2'), 'Type II attribute', TYPE2.map((a) => [a, `${a} ${s.attributes[a]}`]), p.type2, (v) => { p.type2 = v; }),
            this.select(k('skill'), 'Skill', [['', 'None'], ...s.skills.map((sk) => [sk.id, `${sk.name || 'Skill'} ${sk.level}${sk.masteries ? `, ${plural(sk.masteries, 'Mastery', 'Masteries')}` : ''}`])], p.skill, (v) => { p.skill = v; }),
            this.select(k('item'), 'Item', [['', 'None'], ...s.items.map((it) => [it.id, `${it.name || 'Item'} ${it.level}`])], p.item, (v) => { p.item = v; })),
          this.checkbox(k('masteries'), 'The Skill’s Masteries are relevant', p.masteries, (on) => { p.masteries = on; }),
          s.convictions.length ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Convictions to activate (1 Exertion each, taken when you roll)'),
            s.convictions.map((cv) => this.checkbox(k(`conv:${cv.id}`), `${cv.text || 'Conviction'} (Significance ${cv.significance})`, p.convictions.has(cv.id), (on) => this.toggle(p.convictions, cv.id, on)))) : null,
          fill('ability_test', 'Fill the Ability Test form', () => {
            const skill = s.skills.find((sk) => sk.id === p.skill);
            const convictions = s.convictions.filter((cv) => p.convictions.has(cv.id)).map((cv) => cv.significance);
            if (convictions.length > maxConv) return `Activate at most ${maxConv} Convictions (the form holds ${maxConv}).`;
            return { type1: s.attributes[p.type1], type2: s.attributes[p.type2], skill: skill?.level ?? 0,
              masteries: p.masteries ? skill?.masteries ?? 0 : 0, item: s.items.find((it) => it.id === p.item)?.level ?? 0, convictions };
          }),
        ];
        break;
      }
      default: body = [];
    }
    return h('section', { class: 'use', 'aria-label': `Roll as ${c.name}` }, h('h5', {}, `Roll as ${c.name || 'this character'}`), body);
  }

  fieldSpec(system, name) { return this.spec[system].fields.find((f) => f.name === name); }

  /** Fill `system`'s form from the sheet, show it, and log its rolls for this character. */
  fillFor(id, system, request) {
    const proc = this.page.procs[system];
    const c = this.character(id);
    if (!proc || !c) return;
    if (request) proc.fill(request);
    this.setActive(system, id);
    this.page.showTab(system);
    this.setStatus(id, request ? `The ${SYSTEM_NAME[system]} form is filled; its rolls are logged for ${c.name}.`
      : `${SYSTEM_NAME[system]} rolls are logged for ${c.name}.`);
    proc.form.scrollIntoView({ block: 'start' });
    const roll = proc.form.querySelector('[data-roll]');
    if (roll && !roll.disabled) roll.focus({ preventScroll: true });
  }

  // --- the engine's table rules on a sheet ---
  viewOps(id, c) {
    const s = c.sheet;
    const k = (name) => `ops:${id}:${name}`;
    const op = (name, label, system, opName, args) => h('button', { type: 'button', 'data-op': name, 'data-k': k(name),
      onclick: () => this.charOp(id, system, opName, typeof args === 'function' ? args() : args) }, label);
    if (c.kind === 'ten_again') {
      const key = `${s.resolve},${s.composure}`;
      if (!(key in this.ui.willMax) && !this.willAsked?.has(key)) this.willMax(s).then(() => this.render('characters'), () => {});
      const max = this.ui.willMax[key];
      return h('section', { class: 'ops', 'aria-label': 'Will' },
        h('p', { class: 'big', 'data-will': s.will }, `Will ${s.will}/${max ?? '…'}`, h('span', { class: 'muted' }, ' (maximum: resolve + composure)')),
        h('div', { class: 'row' },
          op('spend_will', 'Expend a Will', 'ten_again', 'spend_will', null),
          op('rest', 'Night of rest', 'ten_again', 'rest', { nights: 1 }),
          h('button', { type: 'button', 'data-op': 'will_roll', 'data-k': k('will_roll'), onclick: () => this.willRoll(id) }, 'Will roll (pool = current Will)')),
        h('p', { class: 'muted' }, 'Ticking “will” on the d10 form, or expending a Will after the roll, takes it from this sheet when this character rolls.'));
    }
    if (c.kind === 'ability_test') {
      const amount = intInput({ min: 1, max: Math.max(1, s.exertion), value: 1, 'data-k': k('amount') });
      const what = h('select', { 'data-k': k('xp-what') }, this.xpOptions(c).map(([v, text]) => h('option', { value: v, selected: v === this.ui.xpWhat?.[id] }, text)));
      const newName = h('input', { type: 'text', maxlength: 80, autocomplete: 'off', 'data-k': k('xp-name') });
      const unique = h('input', { type: 'checkbox', 'data-k': k('xp-unique') });
      const showNew = () => { newBox.hidden = !what.value.startsWith('new_'); uniqueBox.hidden = what.value !== 'new_item'; };
      const newBox = h('label', { class: 'tf' }, h('span', {}, 'Name of the new Skill or Item'), newName);
      const uniqueBox = h('label', { class: 'tf check' }, unique, h('span', {}, 'Unique item'));
      what.addEventListener('change', () => { (this.ui.xpWhat ??= {})[id] = what.value; showNew(); });
      showNew();
      const convs = s.convictions.map((cv, i) => [String(i), `${i + 1}. ${cv.text || 'Conviction'} (${cv.significance})`]);
      const from = h('select', { 'data-k': k('from') }, convs.map(([v, t]) => h('option', { value: v }, t)));
      const to = h('select', { 'data-k': k('to') }, convs.map(([v, t], i) => h('option', { value: v, selected: i === 1 }, t)));
      return h('section', { class: 'ops', 'aria-label': 'Exertion, XP and Convictions' },
        h('p', { class: 'big' }, h('span', { 'data-exertion': s.exertion }, `Exertion ${s.exertion}`), ' · ', h('span', { 'data-xp': s.xp }, `XP ${s.xp}`)),
        h('div', { class: 'row' },
          h('label', { class: 'tf' }, h('span', {}, 'Exertion to spend'), amount),
          h('button', { type: 'button', 'data-op': 'exert', 'data-k': k('exert'), onclick: () => this.charOp(id, 'ability_test', 'exert', { amount: toInt(amount.value) }) }, 'Spend Exertion'),
          op('xp_earn', 'End of a Scene: +1 XP', 'ability_test', 'xp_earn', { scenes: 1 })),
        h('div', { class: 'row' },
          h('label', { class: 'tf grow' }, h('span', {}, 'Spend XP on'), what), newBox, uniqueBox,
          h('button', { type: 'button', 'data-op': 'xp_spend', 'data-k': k('xp'), onclick: () => this.spendXp(id, what.value, newName.value, unique.checked) }, 'Spend XP')),
        h('div', { class: 'row' },
          convs.length >= 2 ? [h('label', { class: 'tf' }, h('span', {}, 'Move 1 Significance from'), from), h('label', { class: 'tf' }, h('span', {}, 'to'), to),
            h('button', { type: 'button', 'data-op': 'move_significance', 'data-k': k('move'),
              onclick: () => this.charOp(id, 'ability_test', 'move_significance', { from: Number(from.value), to: Number(to.value) }) }, 'Move Significance')] : null,
          op('end_session', 'End the Session', 'ability_test', 'end_session', null)),
        h('p', { class: 'muted' }, s.moved_this_session ? 'Significance was moved this Session.' : 'At the end of the Session, 1 point of Significance may move between two Convictions.'),
        h('p', { class: 'muted' }, 'Convictions activated and Exertion spent on a roll come off this sheet when this character rolls.'));
    }
    return null;
  }

  xpOptions(c) {
    const costs = Object.fromEntries(this.spec.ability_test.extras.xp_costs.map((x) => [x.kind, x]));
    const price = (kind, current) => {
      const x = costs[kind];
      const cost = x?.costs.find((e) => e.current === current)?.cost;
      return cost === undefined ? (x ? 'at its limit' : 'no price in the text') : `${cost} XP`;
    };
    const s = c.sheet;
    return [
      ['new_skill', `A new Skill with 1 rank (${price('new_skill', 0)})`],
      ['new_item', `A new Item with 1 rank (${price('new_item', 0)})`],
      ...s.skills.map((sk) => [`skill:${sk.id}`, `Skill ${sk.name || '(unnamed)'} ${sk.level} → ${sk.level + 1} (${sk.focused ? 'Focused: no price in the text' : price('advance_skill', sk.level)})`]),
      ...s.items.map((it) => [`item:${it.id}`, `Item ${it.name || '(unnamed)'} ${it.level} → ${it.level + 1} (${it.unique ? 'Unique: no price in the text' : price('advance_standard_item', it.level)})`]),
      ...ABILITY_ATTRIBUTES.map((a) => [`attr:${a}`, `Attribute ${a} ${s.attributes[a]} → ${s.attributes[a] + 1} (${price('advance_attribute', s.attributes[a])})`]),
    ];
  }

  /** Apply `op` to the sheet (times over, all or nothing) with the engine, on the sheet's latest revision. */
  async charOp(id, system, op, args = null, { times = 1, logAs = system } = {}) {
    let notes = [];
    try {
      await this.store.update(`char:${id}`, async (data) => {
        notes = [];
        let sheet = data.sheet;
        for (let i = 0; i < times; i++) {
          const result = await this.arbiter.table(system, op, sheet, args);
          notes.push(result.note);
          sheet = pick(result, Object.keys(data.sheet));
        }
        return { ...data, sheet };
      });
    } catch (error) {
      this.setStatus(id, error.message, true);
      await this.logNote(logAs, id, `Not done: ${error.message}`);
      return false;
    }
    const note = notes.join('; ');
    this.setStatus(id, note);
    await this.logNote(logAs, id, note);
    return true;
  }

  async willRoll(id) {
    const c = this.character(id);
    try {
      const request = await this.arbiter.table('ten_again', 'will_roll', c.sheet, null);
      this.fillFor(id, 'ten_again', request);
      this.setStatus(id, `Will roll: ${plural(request.pool, 'die', 'dice')}, the Will left. Roll it on the d10 form.`);
    } catch (error) {
      this.setStatus(id, error.message, true);
    }
  }

  async spendXp(id, what, name, unique) {
    const [target, key] = what.split(':');
    name = name.trim();
    if (target.startsWith('new_') && !name) { this.setStatus(id, `Name the new ${target === 'new_skill' ? 'Skill' : 'Item'} first.`, true); return; }
    let note;
    try {
      await this.store.update(`char:${id}`, async (data) => {
        const s = data.sheet;
        let kind;
        let current = 0;
        let apply;
        if (target === 'new_skill') { kind = 'new_skill'; apply = () => s.skills.push({ id: newId(), name: name.slice(0, 80), level: 1, focused: false, masteries: 0 }); }
        else if (target === 'new_item') { kind = 'new_item'; apply = () => s.items.push({ id: newId(), name: name.slice(0, 80), unique, level: 1 }); }
        else if (target === 'skill') {
          const sk = s.skills.find((x) => x.id === key);
          if (!sk) throw new Error('That Skill is no longer on the sheet.');
          kind = sk.focused ? 'advance_focused_skill' : 'advance_skill'; current = sk.level; apply = () => { sk.level += 1; };
        } else if (target === 'item') {
          const it = s.items.find((x) => x.id === key);
          if (!it) throw new Error('That Item is no longer on the sheet.');
          kind = it.unique ? 'advance_unique_item' : 'advance_standard_item'; current = it.level; apply = () => { it.level += 1; };
        } else { kind = 'advance_attribute'; current = s.attributes[key]; apply = () => { s.attributes[key] += 1; }; }
        const result = await this.arbiter.table('ability_test', 'xp_spend', { xp: s.xp }, { kind, current });
        note = result.note;
        s.xp = result.xp;
        apply();
        return data;
      });
    } catch (error) {
      this.setStatus(id, error.message, true);
      return;
    }
    this.setStatus(id, note);
    await this.logNote('ability_test', id, note);
  }

  // --- the shared Scheme and the Situations ---------------------------------------------------------------------------
  viewShared() {
    const scheme = this.store.get('shared:scheme')?.scheme ?? 0;
    const price = this.store.get('shared:price');
    const current = price?.situations.find((s) => s.id === price.current);
    const options = this.spec.threat.extras.pay_the_price;
    const nameInput = h('input', { type: 'text', maxlength: 80, value: current?.name ?? '', autocomplete: 'off', 'data-k': 'sit:name' });
    const rename = () => {
      if (nameInput.value === nameInput.defaultValue) return;
      nameInput.defaultValue = nameInput.value;
      this.updatePrice((p) => { const s = p.situations.find((x) => x.id === p.current); if (s) s.name = nameInput.value.slice(0, 80); });
    };
    nameInput.addEventListener('change', rename);
    nameInput.addEventListener('blur', rename);
    return [
      h('h3', {}, 'Shared by the table'),
      h('div', { class: 'scheme' },
        h('p', { class: 'big', 'data-scheme': scheme }, `The Scheme: ${plural(scheme, 'die', 'dice')}`),
        h('p', { class: 'muted' }, 'One pool for every character on this device. A success with a 1 adds a die; an Ability Test rolled with “Scheme die” ticked takes one; negating a setback takes two.'),
        h('button', { type: 'button', 'data-k': 'scheme:use', disabled: scheme === 0,
          onclick: () => { this.page.procs.ability_test.fill({ scheme_die: true }); this.page.showTab('ability_test'); this.say('“Scheme die” is ticked on the Ability Test form: the die leaves the Scheme when the Test is rolled.'); } },
        'Use a Scheme die on the next Ability Test')),
      price ? h('div', { class: 'situations' },
        h('h4', {}, 'Pay the Price marks, per Situation'),
        h('div', { class: 'row' },
          this.select('sit:pick', 'Situation', price.situations.map((s) => [s.id, s.name || '(unnamed)']), price.current,
            (v) => this.updatePrice((p) => { p.current = v; })),
          h('label', { class: 'tf grow' }, h('span', {}, 'Name of this Situation'), nameInput),
          h('button', { type: 'button', 'data-k': 'sit:new', onclick: () => this.newSituation() }, 'New Situation')),
        h('p', { 'data-marked': JSON.stringify(current?.marked ?? []) }, current?.marked.length
          ? ['Marked: ', current.marked.map((i) => options[i]).join(' · ')] : 'Nothing marked in this Situation.')) : null,
    ];
  }

  async updatePrice(fn) {
    try {
      await this.store.update('shared:price', (p) => { fn(p); return p; });
    } catch (error) {
      this.say(error.message, true);
    }
  }

  newSituation() {
    this.updatePrice((p) => {
      const id = newId();
      if (p.situations.length >= 100) p.situations.splice(p.situations.findIndex((s) => s.id !== p.current), 1);
      p.situations.push({ id, name: `Situation ${p.situations.length + 1}`, marked: [] });
      p.current = id;
    });
    this.ui.focus = 'sit:name';
  }

  currentMarks() {
    const p = this.store.get('shared:price');
    return p?.situations.find((s) => s.id === p.current)?.marked ?? [];
  }

  async setMarks(marks) {
    const sorted = [...new Set(marks)].sort((a, b) => a - b);
    if (JSON.stringify(sorted) === JSON.stringify([...this.currentMarks()].sort((a, b) => a - b))) return;
    await this.updatePrice((p) => { const s = p.situations.find((x) => x.id === p.current); if (s) s.marked = sorted; });
  }

  /** The threat form reads the current Situation's marks from localStorage: keep that key in step with the store. */
  mirrorPrice() {
    const want = JSON.stringify([...this.currentMarks()].sort((a, b) => a - b));
    let have = null;
    try { have = localStorage.getItem(LEGACY_PRICE_KEY); } catch { return; }
    if (have !== null && JSON.stringify(legacyMarks().sort((a, b) => a - b)) === want) return;
    try { localStorage.setItem(LEGACY_PRICE_KEY, want); } catch { return; }
    const threat = this.page.procs.threat;
    if (threat?.roll) threat.renderChoices();
  }

  pullPrice() {
    const marks = legacyMarks();
    if (JSON.stringify(marks.sort((a, b) => a - b)) !== JSON.stringify([...this.currentMarks()].sort((a, b) => a - b))) this.enqueue(() => this.setMarks(marks));
  }

  async schemeOp(op, args, who, { override = null } = {}) {
    let note;
    try {
      await this.store.update('shared:scheme', async (d) => {
        const result = await this.arbiter.table('ability_test', op, { scheme: d.scheme }, args);
        note = result.note;
        return { scheme: result.scheme };
      });
    } catch (error) {
      const msg = `The Scheme: ${error.message}`;
      this.say(msg, true);
      await this.logNote('ability_test', who?.id ?? null, msg);
      return false;
    }
    note = override ?? note;
    this.say(note);
    await this.logNote('ability_test', who?.id ?? null, note);
    return true;
  }

  // --- ongoing struggles (d10 pool) -----------------------------------------------------------------------------
  viewStruggles() {
    const list = this.store.list('struggle:');
    const d10chars = this.characters().filter(([, c]) => c.kind === 'ten_again');
    const n = this.ui.newStruggle ??= { name: '', target: 5, contest: false, character: '' };
    const name = h('input', { type: 'text', maxlength: 80, autocomplete: 'off', value: n.name, 'data-k': 'st:new:name' });
    const target = intInput({ min: 1, max: 50, value: n.target, 'data-k': 'st:new:target' });
    const contest = h('input', { type: 'checkbox', checked: n.contest, 'data-k': 'st:new:contest' });
    const who = h('select', { 'data-k': 'st:new:who' }, h('option', { value: '' }, 'Nobody in particular'),
      d10chars.map(([id, c]) => h('option', { value: id, selected: id === n.character }, c.name || '(unnamed)')));
    const create = h('form', { class: 'row create', 'data-create': 'struggle', novalidate: true, onsubmit: (event) => {
      event.preventDefault();
      Object.assign(n, { name: name.value, target: toInt(target.value), contest: contest.checked, character: who.value });
      this.createStruggle(n);
    } },
    h('label', { class: 'tf grow' }, h('span', {}, 'Effort'), name),
    h('label', { class: 'tf' }, h('span', {}, 'Successes needed'), target),
    h('label', { class: 'tf' }, h('span', {}, 'Character'), who),
    h('label', { class: 'tf check' }, contest, h('span', {}, 'A contest (the d10 form’s “opposed” is the resistance)')),
    h('button', { type: 'submit', 'data-k': 'st:new:create' }, 'Start a struggle'),
    this.ui.struggleError ? h('output', { class: 'field-error', role: 'alert' }, this.ui.struggleError) : null);
    this.scheduleOdds();
    return [
      h('h3', {}, 'Ongoing struggles (d10 pool)'),
      h('p', { class: 'muted' }, 'Successes accumulate over turns; a botch aborts the whole effort; in a contest the resistance’s excess successes eat those accumulated. Roll the d10 pool form, then add its roll as the next turn.'),
      create,
      list.map(([id, s]) => this.viewStruggle(id, s)),
    ];
  }

  async createStruggle(n) {
    const data = { name: n.name.trim().slice(0, 80) || 'Struggle', character: n.character || null, created: nowIso(), target: n.target,
      accumulated: 0, turns: 0, status: 'ongoing', contest: n.contest, notes: [] };
    try {
      const id = await this.store.create('struggle:', data);
      this.ui.newStruggle = null;
      this.ui.struggleError = null;
      this.ui.focus = `st:${id}:turn`;
      await this.logNote('ten_again', data.character, `${data.name}: a struggle for ${plural(data.target, 'success', 'successes')} starts${data.contest ? ' (a contest)' : ''}`);
    } catch (error) {
      this.ui.struggleError = error.message.replace(/^Not saved: data\.target: /, 'Successes needed ');
    }
    this.render('struggles');
  }

  viewStruggle(id, s) {
    const k = (name) => `st:${id}:${name}`;
    const who = this.character(s.character);
    const odds = this.ui.odds[id];
    const turns = this.ui.oddsTurns[id] ?? DEFAULT_ODDS_TURNS;
    const turnsInput = intInput({ min: 1, max: this.maxOddsTurns(), value: turns, 'data-k': k('turns') });
    turnsInput.addEventListener('change', () => {
      const v = toInt(turnsInput.value);
      if (Number.isInteger(v) && v >= 1 && v <= this.maxOddsTurns()) { this.ui.oddsTurns[id] = v; this.scheduleOdds(); }
    });
    const progress = h('progress', { max: s.target, value: Math.min(s.accumulated, s.target), 'aria-label': `${s.name}: ${s.accumulated} of ${s.target} successes` });
    let oddsView = null;
    if (s.status === 'ongoing') {
      let body;
      if (!odds || odds.pending) body = h('p', { class: 'muted' }, 'Working out the odds…');
      else if (odds.error) body = h('p', { class: 'field-error' }, odds.error);
      else {
        const r = odds.result;
        const n = String(odds.turns);
        body = [
          h('p', { 'data-finish': r.finish_within[n], 'data-exact': r.exact.finish_within[n] },
            h('strong', {}, `Finish within ${plural(odds.turns, 'turn')}: ${percent(r.finish_within[n])}`),
            ` · aborted by a botch: ${percent(r.abort_within[n])}`),
          h('ol', { class: 'odds-turns' }, Object.keys(r.finish_within).map((t) => h('li', { 'data-turn': t },
            `within ${plural(Number(t), 'turn')}: done ${percent(r.finish_within[t])}, aborted ${percent(r.abort_within[t])}`))),
        ];
      }
      oddsView = h('div', { class: 'struggle-odds', 'aria-live': 'polite' },
        h('label', { class: 'tf' }, h('span', {}, 'Odds over turns, rolling the d10 form as it is now'), turnsInput), body);
    }
    return h('article', { class: 'struggle', 'data-struggle': id, 'data-status': s.status, 'data-accumulated': s.accumulated, 'aria-labelledby': k('title') },
      h('h4', { id: k('title') }, s.name || 'Struggle', who ? h('span', { class: 'muted' }, ` · ${who.name}`) : null),
      h('p', { class: 'big' }, `${s.accumulated}/${s.target} successes · ${plural(s.turns, 'turn')} · ${STATUS_TEXT[s.status]}${s.contest ? ' · a contest' : ''}`),
      progress,
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', 'data-k': k('turn'), 'data-turn-add': '', disabled: s.status !== 'ongoing',
          onclick: () => this.addTurn(id) }, 'Add the last d10 roll as a turn'),
        h('button', { type: 'button', 'data-k': k('reset'), onclick: () => this.struggleOp(id, 'struggle_reset', null) }, 'Start again'),
        this.confirmable(k('del'), 'Delete…', `Delete the struggle “${s.name}”?`, 'Delete the struggle', async () => {
          await this.store.remove(`struggle:${id}`);
          this.say(`The struggle “${s.name}” was deleted.`);
        })),
      this.ui.status[`st:${id}`] ? h('p', { class: `sheet-status${this.ui.status[`st:${id}`].error ? ' error' : ''}`, role: 'status' }, this.ui.status[`st:${id}`].text) : null,
      oddsView,
      s.notes.length ? h('details', { class: 'notes' }, h('summary', {}, `History (${plural(s.notes.length, 'entry', 'entries')})`),
        h('ol', {}, s.notes.map((note) => h('li', {}, note)))) : null);
  }

  maxOddsTurns() {
    const op = this.spec.ten_again.table_ops.find((o) => o.name === 'struggle_odds');
    return op?.args.find((a) => a.name === 'turns')?.max ?? 20;
  }

  async addTurn(id) {
    const roll = this.page.procs.ten_again?.roll;
    const say = (text, error = false) => { this.ui.status[`st:${id}`] = { text, error }; this.render('struggles'); };
    if (!roll) { say('Roll the d10 pool form first: its last roll becomes the turn.', true); return; }
    if (this.counted.has(roll)) { say('That roll was already added: roll the d10 pool form again for the next turn.', true); return; }
    await this.struggleOp(id, 'struggle_turn', { roll }, () => this.counted.add(roll));
  }

  async struggleOp(id, op, args, done = () => {}) {
    let note;
    let data;
    try {
      data = await this.store.update(`struggle:${id}`, async (s) => {
        const state = pick(s, ['target', 'accumulated', 'turns', 'status', 'contest']);
        const result = await this.arbiter.table('ten_again', op, state, args);
        note = result.note;
        return { ...s, ...pick(result, ['accumulated', 'turns', 'status']), notes: [...s.notes, note.slice(0, 300)].slice(-200) };
      });
    } catch (error) {
      this.ui.status[`st:${id}`] = { text: error.message, error: true };
      this.render('struggles');
      return;
    }
    done();
    this.ui.status[`st:${id}`] = { text: note, error: false };
    this.render('struggles');
    await this.logNote('ten_again', data.character, `${data.name}: ${note}`);
  }

  scheduleOdds() {
    clearTimeout(this.oddsTimer);
    this.oddsTimer = setTimeout(() => this.computeOdds(), ODDS_DELAY_MS);
  }

  async computeOdds() {
    const proc = this.page.procs.ten_again;
    if (!proc || !this.store) return;
    const request = proc.request();
    for (const [id, s] of this.store.list('struggle:')) {
      if (s.status !== 'ongoing') continue;
      const turns = this.ui.oddsTurns[id] ?? DEFAULT_ODDS_TURNS;
      const state = pick(s, ['target', 'accumulated', 'turns', 'status', 'contest']);
      const key = JSON.stringify([request, state, turns]);
      if (this.ui.odds[id]?.key === key) continue;
      this.ui.odds[id] = { key, pending: true };
      try {
        const result = await this.arbiter.table('ten_again', 'struggle_odds', state, { request, turns });
        if (this.ui.odds[id]?.key === key) this.ui.odds[id] = { key, result, turns };
      } catch (error) {
        if (this.ui.odds[id]?.key === key) this.ui.odds[id] = { key, error: error.message };
      }
      this.render('struggles');
    }
  }

  // --- the roll log -----------------------------------------------------------------------------------------------
  async onRoll({ system, roll, action }) {
    if (!roll || !SYSTEMS.includes(system)) return;
    if (!action || !this.chains[system]) this.chains[system] = { earned: false };
    const chain = this.chains[system];
    const who = this.activeChar(system);
    await this.store.append({
      time: nowIso(), character: who ? { id: who.id, name: who.name } : null, system, kind: action ? 'follow-up' : 'roll',
      request: jsonOrNull(roll.request, 4000), action: jsonOrNull(action, 1000), dice: facesOf(roll),
      outcome: String(roll.outcome ?? '').slice(0, 40), summary: String(roll.summary ?? '').slice(0, 1000), note: '',
    });
    for (const cost of costsOf(system, roll.request, action)) {
      if (cost.by === 'scheme') await this.schemeOp(cost.op, cost.args, who);
      else if (who) await this.charOp(who.id, cost.system, cost.op, cost.args, { times: cost.times });
    }
    if (system === 'ability_test') await this.schemeGain(roll, who, chain);
    if (system === 'threat' && roll.pay_the_price) await this.setMarks(roll.pay_the_price.marked);
  }

  /** Before a roll or a follow-up: what `onRoll` will take for it (Will, Convictions, Exertion, Scheme dice), tried
   * on the active character's sheet and the Scheme as they are now, with the same rules. A message if they cannot
   * pay (the roll is then not made); null if they can. Only a roll made as a character is held to the table's
   * counts: with nobody rolling, the forms stay usable by a table that keeps its Will and Scheme on paper. */
  async cannotPay(system, request, action) {
    const who = this.store ? this.activeChar(system) : null;
    if (!who) return null;
    const scheme = { scheme: this.store.get('shared:scheme')?.scheme ?? 0 };
    for (const { by, system: sys, op, args, times } of costsOf(system, request, action)) {
      const [payer, state] = by === 'scheme' ? ['The Scheme', scheme] : [who.name || '(unnamed)', who.sheet];
      try {
        let next = state;
        for (let i = 0; i < times; i++) next = pick(await this.arbiter.table(sys, op, next, args), Object.keys(state));
      } catch (error) {
        return `${payer}: ${error.message}`;
      }
    }
    return null;
  }

  /** A success with a 1 adds a die to the Scheme, once per roll and its follow-ups; a reroll can take it back. */
  async schemeGain(roll, who, chain) {
    if (roll.scheme_gain && !chain.earned) {
      chain.earned = await this.schemeOp('scheme_add', { roll }, who);
    } else if (!roll.scheme_gain && chain.earned) {
      // a reroll (Masteries) took back the 1 that earned the die
      if (await this.schemeOp('scheme_spend_die', null, who, { override: 'A reroll took back the 1 on a success: the die it earned leaves the Scheme again' })) chain.earned = false;
    }
  }

  async logNote(system, charId, note) {
    if (!note) return;
    const c = this.character(charId);
    try {
      await this.store.append({ time: nowIso(), character: c ? { id: charId, name: c.name } : null, system, kind: 'note',
        request: null, action: null, dice: [], outcome: '', summary: note.slice(0, 1000), note: note.slice(0, 500) });
    } catch (error) {
      this.say(error.message, true);
    }
  }

  /** [id, entry] of the log entries the filters let through, newest first (log ids sort by time). */
  logEntries(all = this.store.list('log:')) {
    const { character, system } = this.ui.filter;
    const out = [];
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i][1];
      if ((!system || e.system === system) && (!character || (character === '-' ? !e.character : e.character?.id === character))) out.push(all[i]);
    }
    return out;
  }

  viewLog() {
    const all = this.store.list('log:');
    const entries = this.logEntries(all);
    const names = new Map();
    for (const [, e] of all) if (e.character) names.set(e.character.id, e.character.name);
    for (const [id, c] of this.characters()) names.set(id, c.name);
    const shown = entries.slice(0, this.ui.logLimit);
    const filter = (key, label, options) => this.select(`log:f:${key}`, label, options, this.ui.filter[key],
      (v) => { this.ui.filter[key] = v; this.ui.logLimit = LOG_PAGE; this.render('log'); });
    return [
      h('h3', {}, 'Roll log'),
      h('div', { class: 'row' },
        filter('character', 'Character', [['', 'Everyone'], ['-', 'Nobody'], ...[...names].map(([id, name]) => [id, name || '(unnamed)'])]),
        filter('system', 'Procedure', [['', 'Every procedure'], ...SYSTEMS.map((s) => [s, SYSTEM_NAME[s]])])),
      h('p', { class: 'muted', 'data-log-count': entries.length }, entries.length === all.length
        ? plural(all.length, 'entry', 'entries') : `${entries.length} of ${plural(all.length, 'entry', 'entries')} match`),
      h('ol', { class: 'log-list', 'aria-label': 'Rolls, newest first' }, shown.map(([id, e]) => this.viewEntry(id, e))),
      entries.length > shown.length ? h('button', { type: 'button', 'data-k': 'log:more', onclick: () => { this.ui.logLimit += LOG_PAGE; this.render('log'); } },
        `Show ${Math.min(LOG_PAGE, entries.length - shown.length)} more`) : null,
      h('div', { class: 'row' },
        h('button', { type: 'button', 'data-k': 'log:json', 'data-export': 'json', disabled: !entries.length, onclick: () => this.exportLog('json') }, 'Export JSON'),
        h('button', { type: 'button', 'data-k': 'log:csv', 'data-export': 'csv', disabled: !entries.length, onclick: () => this.exportLog('csv') }, 'Export CSV'),
        all.length ? this.confirmable('log:clear', 'Clear the log…', `Delete all ${plural(all.length, 'entry', 'entries')} of the log? This cannot be undone.`,
          `Delete ${plural(all.length, 'entry', 'entries')}`, async () => { await this.store.clearLog(); this.say('The log is cleared.'); this.ui.focus = 'log:f:character'; }) : null),
    ];
  }

  viewEntry(id, e) {
    const head = [h('time', { datetime: e.time }, fmtTime(e.time)), ' · ', h('strong', { class: 'who' }, e.character?.name || '—'), ` · ${SYSTEM_NAME[e.system]}`];
    if (e.kind === 'follow-up') head.push(` · follow-up: ${requestText(e.action)}`);
    return h('li', { class: `log-entry ${e.kind}`, 'data-kind': e.kind, 'data-system': e.system, 'data-log': id },
      h('div', { class: 'log-head' }, head),
      h('div', { class: 'log-summary' }, e.summary),
      e.dice.length ? h('div', { class: 'muted log-dice' }, `Dice: ${e.dice.join(' ')}`) : null,
      e.request ? h('div', { class: 'muted log-request' }, `Request: ${requestText(e.request)}`) : null);
  }

  exportLog(format) {
    const entries = this.logEntries().reverse().map(([id, e]) => ({ id, ...e }));
    const day = nowIso().slice(0, 10);
    if (format === 'json') {
      download(`arbiter-log-${day}.json`, 'application/json',
        JSON.stringify({ app: 'arbiter-log', exported: nowIso(), filter: this.ui.filter, entries }, null, 1));
    } else {
      const cols = ['time', 'character', 'procedure', 'kind', 'action', 'request', 'dice', 'outcome', 'summary'];
      const rows = entries.map((e) => [e.time, e.character?.name ?? '', e.system, e.kind, e.action, e.request, e.dice.join(' '), e.outcome, e.summary]);
      download(`arbiter-log-${day}.csv`, 'text/csv', [cols, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n');
    }
  }

  // --- save and restore: the whole table as one file, and the kept-aside copies ------------------------------------
  viewSave() {
    const asides = this.store.list('aside:');
    const file = h('input', { type: 'file', accept: '.json,application/json', id: 'table-import', 'data-k': 'save:file' });
    file.addEventListener('change', () => { const f = file.files[0]; file.value = ''; if (f) this.readImport(f); });
    const report = this.ui.importReport;
    return [
      h('h3', {}, 'Save and restore'),
      h('p', { class: 'muted' }, this.store.backend.persistent
        ? `Everything above is kept in this browser only (IndexedDB, table schema ${SCHEMA}). Export a copy to keep it elsewhere or move it to another device.`
        : 'This browser keeps nothing for this page: export the table before closing it.'),
      h('div', { class: 'row' },
        h('button', { type: 'button', 'data-k': 'save:export', 'data-export': 'table', onclick: () => this.exportTable() }, 'Export the whole table (JSON)'),
        h('label', { class: 'tf file' }, h('span', {}, 'Import a table file (replaces this table)'), file)),
      report ? h('div', { class: `import-report ${report.errors ? 'error' : ''}`, role: report.errors ? 'alert' : 'status', 'data-import': report.errors ? 'refused' : report.done ? 'done' : 'ready' },
        h('p', {}, report.message),
        report.errors ? h('ul', {}, report.errors.map((e) => h('li', {}, e))) : null,
        report.table && !report.done ? h('div', { class: 'row' },
          h('button', { type: 'button', class: 'danger', 'data-confirm': '', 'data-k': 'save:replace', onclick: () => this.applyImport() }, 'Replace this table'),
          h('button', { type: 'button', 'data-k': 'save:cancel', onclick: () => { this.ui.importReport = null; this.ui.focus = 'save:file'; this.render('save'); } }, 'Cancel')) : null) : null,
      asides.length ? h('div', { class: 'asides' }, h('h4', {}, 'Kept-aside copies'),
        h('p', { class: 'muted' }, 'Untouched copies of saved data this version could not use. Download one to keep it, or to import it into a newer Arbiter.'),
        h('ul', {}, asides.map(([id, a]) => h('li', { 'data-aside': id },
          `${fmtTime(a.at)}: ${a.reason === 'newer' ? `written by a newer version (schema ${a.schema})` : 'could not be read'} · ${plural(a.records?.length ?? 0, 'record')} `,
          h('button', { type: 'button', 'data-k': `aside:${id}:dl`, onclick: () => this.downloadAside(`aside:${id}`) }, 'Download'), ' ',
          this.confirmable(`aside:${id}:del`, 'Delete…', 'Delete this kept-aside copy for good?', 'Delete the copy',
            () => this.store.removeAside(`aside:${id}`)))))) : null,
    ];
  }

  exportTable() {
    download(`arbiter-table-${nowIso().slice(0, 10)}.json`, 'application/json', JSON.stringify(this.store.exportTable(), null, 1));
    this.say('The table is exported.');
  }

  downloadAside(id) {
    const rec = this.store.records.get(id);
    if (rec) download(`arbiter-kept-aside-${id.slice(6)}.json`, 'application/json', JSON.stringify({ app: `${APP}-kept-aside`, ...rec.data }, null, 1));
  }

  async readImport(file) {
    let text;
    try { text = await file.text(); } catch (error) { text = null; this.ui.importReport = { errors: [error.message], message: `${file.name} could not be read.` }; }
    if (text !== null) {
      const { table, errors } = parseTableFile(text);
      const all = errors ?? await this.engineChecks(table);
      this.ui.importReport = all.length
        ? { errors: all, message: `${file.name} was not imported: nothing changed. What is wrong:` }
        : { table, message: `${file.name}: ${plural(table.characters.length, 'character')}, ${plural(table.struggles.length, 'struggle')}, ${plural(table.log.length, 'log entry', 'log entries')}, the Scheme at ${table.scheme}. Replace this device’s table with it?` };
      this.ui.focus = all.length ? 'save:file' : 'save:replace';
    }
    this.render('save');
  }

  /** What only the rules can say: Will within its maximum, a struggle's count consistent with its status. */
  async engineChecks(table) {
    const errors = [];
    for (const [i, c] of table.characters.entries()) {
      if (c.kind !== 'ten_again') continue;
      try { await this.arbiter.table('ten_again', 'rest', c.sheet, { nights: 1 }); } catch (error) { errors.push(`characters[${i}].sheet: ${error.message}`); }
    }
    for (const [i, s] of table.struggles.entries()) {
      try { await this.arbiter.table('ten_again', 'struggle_reset', pick(s, ['target', 'accumulated', 'turns', 'status', 'contest']), null); } catch (error) { errors.push(`struggles[${i}]: ${error.message}`); }
    }
    return errors;
  }

  async applyImport() {
    const { table } = this.ui.importReport ?? {};
    if (!table) return;
    try {
      await this.store.replaceTable(table);
      this.selected = null;
      this.ui.importReport = { done: true, message: `Imported: ${plural(table.characters.length, 'character')}, ${plural(table.log.length, 'log entry', 'log entries')}.` };
      this.say('The table was replaced by the imported file.');
    } catch (error) {
      this.ui.importReport = { errors: [error.message], message: 'The import failed: nothing changed.' };
    }
    this.ui.focus = 'save:export';
    this.renderAll();
  }
}
