// A roll shared by link (issue 22), opened on this phone: the "Shared roll" panel at the top of the Table, the roll
// re-derived by the engine from the link's request and faces (arbiter.api.shared_roll: the link's words are never
// shown as the roll's), and "Add to this table's log" (arbiter.api.add_shared, one request a tap): each step this log
// has not seen, paid from this table's Scheme (and the character the Host picks here, if any) and checked against this
// table's Situation, all or nothing; then logged with the shared step's id, so the same roll is never added twice.
import { h } from './dom.js';
import { outcomeLines } from '../outcome.js';
import { PROCEDURES } from './schema.js';
import { SYSTEM_NAME, fmtTime, requestWords } from './words.js';

export class Received {
  constructor(table) {
    this.t = table;
    this.link = null; // the fragment opened (the text after "#r=")
    this.roll = null; // arbiter.api.shared_roll's answer, once read
    this.error = null; // why the link was refused, in a player's words
    this.added = null; // what Add did ({words, error})
    this.charge = ''; // the character of this device the Host picked to pay a character's costs ('' nobody)
    this.adding = false;
  }

  /** Listen for links opened from now on, and read the one the page was opened with. */
  start() {
    this.started = true;
    if (this.t.sharedLink) this.open(this.t.sharedLink);
  }

  /** Read a shared link ({kind, link}) and show it. */
  async open({ kind, link }) {
    if (link === this.link) return;
    Object.assign(this, { kind, link, roll: null, table: null, error: null, added: null, charge: '' });
    this.t.render('received');
    try {
      if (kind === 'table') {
        const table = await this.t.arbiter.sharedTable(link);
        if (this.link === link) this.table = table;
      } else {
        const roll = await this.t.arbiter.sharedRoll(link);
        if (this.link === link) this.roll = roll;
      }
    } catch (error) {
      if (this.link === link) this.error = error.message;
    }
    this.t.render('received');
    if (this.t.root.closest('[data-current]')) this.t.sections.received.scrollIntoView({ block: 'nearest' });
  }

  close() {
    Object.assign(this, { link: null, roll: null, table: null, error: null, added: null });
    this.t.sharedLink = null;
    if (/^#[rt]=/.test(location.hash)) history.replaceState(null, '', '#table');
    this.t.render('received');
  }

  /** [step id] of every shared step this log holds. */
  seen() {
    return this.t.store
      .list('log:')
      .map(([, e]) => e.shared?.step)
      .filter(Boolean);
  }

  view() {
    if (!this.link) return [];
    const close = h('button', { type: 'button', 'data-close-shared': '', onclick: () => this.close() }, 'Close');
    const panel = (...children) => [
      h(
        'div',
        {
          class: 'shared-roll',
          'data-shared-roll': '',
          'data-read': this.roll || this.table || this.error ? '' : null,
        },
        h('h3', {}, this.kind === 'table' ? 'Shared table' : 'Shared roll'),
        ...children,
        h('div', { class: 'row' }, close),
      ),
    ];
    if (this.error)
      return panel(h('p', { class: 'field-error', role: 'alert', 'data-shared-refused': '' }, this.error));
    if (this.kind === 'table')
      return this.table ? panel(...this.tableView()) : panel(h('p', { class: 'muted' }, 'Reading…'));
    if (!this.roll) return panel(h('p', { class: 'muted' }, 'Reading the roll…'));
    const r = this.roll;
    const seen = new Set(this.seen());
    const held = r.steps.filter((s) => seen.has(s.step)).length;
    const all = held === r.steps.length;
    const when = r.time ? fmtTime(new Date(r.time * 1000).toISOString()) : 'at an unknown time';
    return panel(
      h(
        'p',
        { 'data-shared-head': '' },
        h('strong', { class: 'who' }, r.who || 'Someone'),
        ` rolled ${SYSTEM_NAME[r.system]}, ${when}`,
      ),
      h('div', { class: 'result', 'data-shared-outcome': r.roll.outcome }, outcomeLines(r.roll)),
      all ? h('p', { 'data-shared-in-log': '' }, '✓ In this table’s log.') : this.addControls(held),
      this.added?.error
        ? h('p', { class: 'field-error', role: 'alert', 'data-add-refused': '' }, this.added.words)
        : null,
      this.added && !this.added.error ? h('p', { role: 'status' }, this.added.words) : null,
      h('p', { class: 'muted' }, `Request: ${requestWords(r.request, PROCEDURES[r.system].fields)}`),
      r.steps.length > 1
        ? h(
            'ol',
            { class: 'shared-steps' },
            r.steps.map((s) => h('li', {}, s.action ? s.did : 'The roll', `: ${s.drawn.join(' ') || 'no dice'}`)),
          )
        : h('p', { class: 'muted' }, `Dice: ${r.steps[0].drawn.join(' ')}`),
      h(
        'p',
        { class: 'muted' },
        'Worked out again on this phone from the faces in the link, under the rules: it shows the outcome follows ' +
          'from those faces, not that they were rolled.',
      ),
    );
  }

  /** A shared table: what it holds, and Replace, asked first; what it replaces is kept aside, the log stays. */
  tableView() {
    const { scheme, price, characters } = this.table;
    const current = price.situations.find((s) => s.id === price.current);
    const replace = async () => {
      const records = [
        { id: 'shared:scheme', data: scheme },
        { id: 'shared:price', data: price },
        ...characters.map((c) => ({ id: `char:${c.id}`, data: c.data })),
      ];
      await this.t.store.replaceWithAside(records);
      this.added = {
        error: false,
        words: 'This table’s Scheme and Situations are replaced; what they were is kept aside (Save and restore).',
      };
      this.t.render('received');
    };
    const names = characters.map((c) => c.data.name || '(unnamed)').join(', ');
    return [
      h(
        'p',
        { 'data-shared-table-scheme': scheme.scheme },
        scheme.tracked === false
          ? 'The Scheme: kept elsewhere'
          : `The Scheme: ${scheme.scheme} ${scheme.scheme === 1 ? 'die' : 'dice'}`,
      ),
      h(
        'p',
        {},
        `Situations: ${price.situations.map((s) => s.name).join(', ')}`,
        current ? ` (now: ${current.name}, ${current.marked.length} marked)` : '',
      ),
      characters.length ? h('p', {}, `Characters: ${names}`) : null,
      this.added && !this.added.error
        ? h('p', { role: 'status', 'data-shared-replaced': '' }, this.added.words)
        : this.t.confirmable(
            'shared:replace',
            'Replace this table’s shared state…',
            `Replace this phone’s Scheme and Situations${characters.length ? ` and the characters ${names}` : ''} with these? What they are now is kept aside; the log stays.`,
            'Replace',
            replace,
          ),
    ];
  }

  /** "Add to this table's log", with who pays a character's costs (nobody unless the Host picks a character here). */
  addControls(held) {
    const kind = PROCEDURES[this.roll.system].kind;
    const mine = this.t.characters.list().filter(([, c]) => c.kind === kind);
    const pick = mine.length
      ? h(
          'label',
          { class: 'field' },
          'A character of this phone pays its costs (Will, Exertion…)',
          h(
            'select',
            {
              'data-shared-charge': '',
              onchange: (event) => {
                this.charge = event.target.value;
              },
            },
            h('option', { value: '' }, 'Nobody: the Scheme and the Situation only'),
            mine.map(([id, c]) => h('option', { value: id, selected: id === this.charge }, c.name || '(unnamed)')),
          ),
        )
      : null;
    const label = held
      ? `Add its ${this.roll.steps.length - held} new step(s) to this table's log`
      : "Add to this table's log";
    return [
      held ? h('p', { class: 'muted' }, 'Its first steps are in this table’s log already.') : null,
      pick,
      h('button', { type: 'button', class: 'primary', 'data-add-shared': '', onclick: () => this.add() }, label),
    ];
  }

  /** Add the shared roll: one request to the engine, locked until it is kept; nothing kept when it is refused. */
  async add() {
    if (this.adding || !this.roll) return;
    this.adding = true;
    const button = this.t.sections.received.querySelector('[data-add-shared]');
    button?.setAttribute('aria-disabled', 'true');
    const r = this.roll;
    try {
      await this.t.enqueue(() => this.take(r));
    } finally {
      this.adding = false;
      button?.removeAttribute('aria-disabled');
      this.t.render('received');
    }
  }

  async take(r) {
    const who = this.charge ? this.t.characters.get(this.charge) : null;
    const scheme = this.t.shared.scheme();
    const marked = this.t.situations.current()?.marked ?? [];
    const answer = await this.t.arbiter.addShared(
      this.link,
      { character: who ? { name: who.name, kind: who.kind, sheet: who.sheet } : null, scheme },
      marked,
      this.seen(),
    );
    if (answer.refused) {
      this.added = { error: true, words: `Not added: ${answer.refused.words}` };
      return;
    }
    if (!answer.entries.length) {
      this.added = { error: false, words: 'Already in this table’s log.' };
      return;
    }
    // this table's states first, each only if it is as it was sent (another tab may have changed it meanwhile)
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    if (answer.scheme) {
      await this.t.store.update(
        'shared:scheme',
        (now) => {
          if (!same(now ?? scheme, scheme)) throw new Error('The Scheme changed meanwhile: tap Add again.');
          return { ...(now ?? scheme), ...answer.scheme };
        },
        { create: true },
      );
    }
    if (answer.character && who) {
      await this.t.store.update(`char:${this.charge}`, (now) => {
        if (!same(now.sheet, who.sheet)) throw new Error(`${who.name} changed meanwhile: tap Add again.`);
        return { ...now, sheet: answer.character };
      });
    }
    if (answer.marked) await this.t.situations.setMarks(answer.marked);
    const byStep = new Map(this.t.store.list('log:').map(([id, e]) => [e.shared?.step, id]));
    let rootId = byStep.get(r.steps[0].step) ?? null;
    const rolled = new Date(r.time * 1000).toISOString();
    const character = who ? { id: this.charge, name: who.name } : null;
    for (const e of answer.entries) {
      const extra = {
        shared: { step: e.step, who: r.who ?? '', rolled },
        ...(e.action && rootId ? { follows: rootId } : {}),
      };
      const note = e.notes.filter(Boolean).join('; ');
      const source = 'app';
      const roll = { ...e.roll, drawn: e.drawn };
      const id = await this.t.log.append(r.system, roll, e.action, character, note, e.luck_entry, e.did, source, extra);
      if (!e.action) rootId = id.slice(id.indexOf(':') + 1);
    }
    const n = answer.entries.length;
    this.added = { error: false, words: `Added to this table’s log (${n} ${n === 1 ? 'entry' : 'entries'}).` };
  }
}
