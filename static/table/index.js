// The table's state on this device: character sheets that fill the forms, the Scheme every character shares, Pay
// the Price marks per Situation, ongoing d10 struggles and a log of every roll, all kept by store.js. Every rule
// (Will, nights of rest, XP costs, Exertion, Convictions, the Scheme, struggles and their odds) is
// arbiter.api.table's: these modules keep and show state. Whatever a player typed is shown as text, never HTML.
// (Rooms: the records in ../store/, the Log view in ../log/, each kind's sheet in ../procedures/<id>/sheet.js.)
//
//   await startTable(page, arbiter, SPEC)                 // renders into <section id="table"> (the log into
//                                                         // <section id="log">); resolves (and sets
//                                                         // data-ready) once drawn, or once it said why it could not
//
// This module is the controller: it opens the store, owns the redraws, the table's status line and the roll
// events, and wires the parts, one module of one job each:
//
//   the page's parts   received.js (a roll shared by link)  alerts.js  keeping.js (where the table lives, backups;
//                      + ../store/backup.js)  characters.js  character-sheet.js (a sheet, field by field)  roll-as.js
//                      shared.js (the Scheme)  scene.js (New Scene)  situations.js (Pay the Price marks;
//                      page.situation for the forms)  struggles.js  ../log/log.js  save.js (export, import,
//                      kept-aside copies)
//   each kind's sheet  ../procedures/<id>/sheet.js: what "roll as" offers, the engine's ops (../procedures/sheets.js:
//                      the map)  choices.js (what is picked for a roll, as request_from_sheet reads it)
//   the rules          rules.js: what a roll costs and what follows it, and the ops on a sheet, all asked of
//                      arbiter.api (costs, after_roll, table)
//   storage            ../store/: store.js (revisions, compare-and-set, two tabs)  repair.js (a damaged or newer
//                      store kept aside, records checked as it opens)  backends.js (IndexedDB, memory)
//                      schema.js (what a record may hold)  migrations.js  file.js (the table as one file)
//   helpers            ../dom.js (the page's h and inputs)  ../store/: words.js  data.js  ids.js
//
// The modules that hold no DOM work (schema, migrations, file, store on its memory backend, the sheets' choices, the
// struggles' procedure, log's entries) are tested under Node: tests/js/.

import { Alerts } from './alerts.js';
import { Characters } from './characters.js';
import { h, swap } from '../dom.js';
import { Keeping } from './keeping.js';
import { Log } from '../log/log.js';
import { Received } from './received.js';
import { RollAs } from './roll-as.js';
import { Rules } from './rules.js';
import { Save } from './save.js';
import { Scene } from './scene.js';
import { Sync } from '../live/sync.js';
import { scanSection } from '../share/scan.js';
import { liveSection } from '../live/panel.js';
import { SYSTEMS } from '../store/schema.js';
import { Shared } from './shared.js';
import { ShareTable } from './share-table.js';
import { Sheet } from './character-sheet.js';
import { Situations } from './situations.js';
import { Store } from '../store/store.js';
import { Struggles } from './struggles.js';

/** The parts with a section of their own, in the page's order; each has a view(). */
const PARTS = ['received', 'alerts', 'keeping', 'characters', 'shared', 'shareTable', 'struggles', 'log', 'save'];
const nextTask = () =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });

export function startTable(page, arbiter, spec) {
  const root = document.getElementById('table');
  if (!root || !page) return Promise.resolve();
  const table = new Table(root, page, arbiter, spec);
  return table.start().catch((error) => table.fatal(error));
}

class Table {
  constructor(root, page, arbiter, spec) {
    Object.assign(this, { root, page, arbiter, spec });
    this.store = null;
    // status: a line per character sheet; confirm: the step asking first; focus: the data-k to focus after a redraw
    this.ui = { status: {}, confirm: null, focus: null, tableStatus: null, xpWhat: {} };
    this.alerts = new Alerts(this);
    this.keeping = new Keeping(this);
    this.characters = new Characters(this);
    this.sheet = new Sheet(this);
    this.rollAs = new RollAs(this);
    this.rules = new Rules(this);
    this.shared = new Shared(this);
    this.shareTable = new ShareTable(this);
    this.scene = new Scene(this);
    this.situations = new Situations(this);
    this.struggles = new Struggles(this);
    this.log = new Log(this);
    this.received = new Received(this);
    this.save = new Save(this);
    this.live = page.peers ? new Sync(this, page.peers) : null; // what crosses a live table (../live/sync.js)
    this.dirty = new Set();
    this.queue = new Promise((resolve) => {
      this.unblock = resolve;
    }); // roll events wait for the store
  }

  async start() {
    const part = (name, label) => h('section', { class: 'table-part', 'data-part': name, 'aria-label': label });
    this.sections = {
      received: part('received', 'Shared roll'),
      alerts: h('div', { class: 'table-alerts', 'data-part': 'alerts' }),
      status: h('p', { class: 'table-status', role: 'status', 'data-table-status': '' }),
      keeping: part('keeping', 'Where the table is kept'),
      characters: part('characters', 'Characters'),
      shared: part('shared', 'Shared by the table'),
      shareTable: part('share-table', 'Share this table'),
      struggles: part('struggles', 'Ongoing struggles'),
      log: part('log', 'Roll log'),
      save: part('save', 'Save and restore'),
    };
    this.root.querySelector('[data-table-wait]')?.remove();
    const { log, ...rest } = this.sections;
    this.root.append(...Object.values(rest));
    this.sections.shareTable.after(scanSection(this.arbiter)); // Receive a roll: Scan, Paste a link (../share/scan.js)
    if (this.page.peers) this.sections.shareTable.after(liveSection(this.page.peers)); // a live table (../live/)
    // the roll log is the Log view's (index.html's <section id="log">), where there is one
    const logView = document.getElementById('log');
    logView?.querySelector('[data-log-wait]')?.remove();
    (logView ?? this.root).append(log);

    await nextTask(); // the sections are in; the store opens in tasks of its own
    this.store = await Store.open();
    this.store.subscribe((ids) => this.changed(ids));
    this.keeping.start();
    this.unblock();
    // the forms' port (page.port, port.js): what it holds for them now the store is open, and what they hand back
    this.page.port.attach({
      tableFor: (system, request) => this.tableFor(system, request), // what a tap may spend from
      tableAfter,
      // the forms' Pay the Price lists: on a player's phone joined to a live table, the Host's marks
      situation: (system) => this.situationFor(system),
      landed: (tap) => this.enqueue(() => this.onRoll(tap)), // a roll or a follow-up: kept and logged, in turn
      built: (proc) => {
        // a tab's form, built when shown: who rolls it said, and after a reload the sheet's numbers in it
        this.refillAfterLoad(proc);
        this.rollAs.showOnForms();
        this.keeping.showOnForms(); // a table a newer Arbiter saved: the form says, before rolling, nothing is kept
      },
      shared: (link) => {
        // a roll or a table shared by link: the Shared panel reads it (now, or once it has started)
        this.sharedLink = link;
        if (this.received.started) this.received.open(link);
      },
      idle: (then) => this.enqueue(() => {}).then(then),
    });
    this.struggles.watchForm();
    this.live?.start();
    await Promise.all(this.page.built().map((proc) => this.refillAfterLoad(proc))); // the forms built before
    for (const name of PARTS) {
      // the first drawing, a part per task: a slow phone keeps answering meanwhile
      await nextTask();
      this.render(name);
      this.flush();
    }
    this.received.start(); // a roll shared by link, opened now or later
    this.root.dataset.ready = '';
  }

  /** `proc`'s form filled again from the sheet of who rolls it, after this page load (RollAs.refillAfterLoad); a tap
   * on it waits for that. */
  refillAfterLoad(proc) {
    proc.filling = this.rollAs.refillAfterLoad(proc).catch((error) => this.say(error.message, true));
    return proc.filling;
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

  renderAll() {
    this.render(...PARTS);
  }

  flush() {
    this.scheduled = false;
    if (!this.store) return;
    for (const name of this.dirty) swap(this.sections[name], this[name].view());
    this.dirty.clear();
    this.sections.status.textContent = this.ui.tableStatus?.text ?? '';
    this.sections.status.classList.toggle('error', Boolean(this.ui.tableStatus?.error));
    if (this.ui.focus) {
      document.querySelector(`main [data-k="${CSS.escape(this.ui.focus)}"]`)?.focus();
      this.ui.focus = null;
    }
    this.situations.refresh(); // a form's Pay the Price list: new marks, or another character rolling
    this.rollAs.showOnForms(); // "Rolling as" on each form a character rolls
    this.keeping.showOnForms(); // a newer Arbiter's table: "Not kept" on each form
  }

  /** The store changed `ids` (a Set, or 'all'), here or in another tab: redraw the parts that show them. */
  changed(ids) {
    const all = ids === 'all';
    const has = (prefix) => all || [...ids].some((id) => id.startsWith(prefix));
    if (has('char:')) this.render('characters', 'struggles', 'log', 'shared', 'shareTable'); // the Scene's characters
    if (has('shared:')) this.render('shared');
    if (has('char:') || has('shared:')) this.page.port.recheck(); // what a shown roll's choices cost may have changed
    if (has('struggle:')) this.render('struggles');
    if (has('log:')) this.render('log', 'received'); // a shared roll added here, or in another tab
    if (has('aside:')) this.render('save');
    if (all) this.render('alerts', 'save');
  }

  /** The table's own line: what the last op did, or why it was refused. */
  say(text, error = false) {
    this.ui.tableStatus = { text, error };
    this.sections.status.textContent = text;
    this.sections.status.classList.toggle('error', error);
  }

  /** A character sheet's own line: under the sheet, or by its "Roll as" when `near` is 'use' (what a tap on its Fill
   * did or why it was refused: said where the thumb is, not two screens below). */
  setStatus(charId, text, error = false, near = null) {
    this.ui.status[charId] = { text, error, near };
    this.render('characters');
  }

  /** A button that asks first: a real step in the page, keyboard operable, Cancel focused. */
  confirmable(key, label, question, yesLabel, onYes) {
    const ask = (confirm, focus) => {
      this.ui.confirm = confirm;
      this.ui.focus = focus;
      this.renderAll();
    };
    if (this.ui.confirm === key) {
      const yes = () => {
        this.ui.confirm = null;
        this.renderAll();
        Promise.resolve()
          .then(onYes)
          .catch((error) => this.say(error.message, true));
      };
      return h(
        'div',
        { class: 'confirm', role: 'group', 'aria-label': question },
        h('p', {}, question),
        h(
          'button',
          { type: 'button', class: 'danger', 'data-confirm': '', 'data-k': `${key}:yes`, onclick: yes },
          yesLabel,
        ),
        h('button', { type: 'button', 'data-k': `${key}:no`, onclick: () => ask(null, key) }, 'Cancel'),
      );
    }
    return h('button', { type: 'button', 'data-k': key, onclick: () => ask(key, `${key}:no`) }, label);
  }

  // --- a tap on a form: what the table holds for it, and what it keeps of the engine's answer ------------------------

  /** What a tap of `system` may spend from (arbiter.api.turn's `table`): the character rolling it, if any, and the
   * Scheme; with what was picked on the sheet that filled `request` (`choices`, null when the form is not the sheet's).
   */
  tableFor(system, request) {
    if (!this.store) return null;
    const who = this.characters.active(system);
    const hosts = this.live?.scheme(); // a player's phone joined to a live table pays from the Host's Scheme
    return {
      state: {
        character: who ? { name: who.name, kind: who.kind, sheet: who.sheet } : null,
        scheme: hosts ?? this.shared.scheme(),
        ...(hosts ? { host: true } : {}),
      },
      choices: this.rollAs.choicesFor(system, request),
    };
  }

  /** The Situation a form's Pay the Price list shows for `system`: on a player's phone joined to a live table, its
   * name and marks the Host's. */
  situationFor(system) {
    const own = this.situations.situation(system);
    return this.live?.situation(own) ?? own;
  }

  /** A roll or a follow-up on a form, with the engine's answer to its tap (arbiter.api.turn): keep the new states
   * it brings (the sheet, the Scheme, the Situation's marks), then log it once, with what the table did. */
  async onRoll({ system, roll, action, answer }) {
    if (!roll || !SYSTEMS.includes(system)) return;
    const who = this.characters.active(system);
    const choices = action ? null : this.rollAs.choicesFor(system, roll.request); // what the sheet filled it from
    const notes = [...answer.notes]; // what the table did for it: the log entry's note
    try {
      if (answer.character && who) await this.keep(`char:${who.id}`, answer, 'character', who, notes);
      if (answer.sent?.host)
        this.live.took(answer); // the Host's table: the Host adds the roll to its own
      else if (answer.scheme) await this.keep('shared:scheme', answer, 'scheme', who, notes);
      if (answer.marked && !answer.sent?.host) await this.situations.setMarks(answer.marked);
      if (choices && who) await this.rollAs.remember(who.id, system, choices); // "Fill" after a reload: the same
    } catch (error) {
      notes.push(`Not done: ${error.message}`);
      this.say(error.message, true);
    }
    const note = notes.filter(Boolean).join('; ');
    const at = answer.at ? { time: answer.at } : {}; // a roll's time, as its Share link says it
    if (this.live?.outgoing()) at.live = this.live.waiting(); // sent to the Host as it is logged
    await this.log.append(system, roll, action, who, note, answer.luck_entry, answer.did, answer.source, at);
    if (choices && who) await this.rollAs.refresh(who.id, { [system]: answer.refill }); // e.g. Convictions declared
    this.page.port.kept(system);
  }

  /** Keep the new state of `by` ('character': the sheet of `who`; 'scheme') from a tap's answer in record `id`: as
   * the engine answered, unless the record changed since the tap (another tab): then each op the tap paid on it is
   * applied again on its latest revision, through the engine, and its notes replace the answer's. */
  async keep(id, answer, by, who, notes) {
    const sent = answer.sent?.[by];
    const was = by === 'character' ? sent?.sheet : sent;
    let replay = false;
    await this.store.update(id, (data) => {
      const now = by === 'character' ? data.sheet : data;
      replay = JSON.stringify(now) !== JSON.stringify(was);
      if (replay) return undefined;
      return by === 'character' ? { ...data, sheet: answer.character } : { ...data, ...answer.scheme };
    });
    if (!replay) return;
    const paid = answer.paid.filter((op) => op.by === by);
    for (const op of paid) if (notes.includes(op.said)) notes.splice(notes.indexOf(op.said), 1);
    await this.rules.pay(paid, who, notes);
  }
}

/** `table` (tableFor's) as it is once a tap's `answer` is kept: the sheet and the Scheme it changed. Pure. */
export function tableAfter(table, answer) {
  const { character, scheme } = table.state;
  return {
    ...table,
    state: {
      ...table.state,
      character: character && answer.character ? { ...character, sheet: answer.character } : character,
      scheme: answer.scheme ?? scheme,
    },
  };
}
