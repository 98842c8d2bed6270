// A roll shared by link (issue 22), opened on this phone: the "Shared roll" panel at the top of the Table, the roll
// re-derived by the engine from the link's request and faces (arbiter.api.shared_roll: the link's words are never
// shown as the roll's), and "Add to this table's log" (arbiter.api.add_shared, one request a tap): each step this log
// has not seen, paid from this table's Scheme (and the character the Host picks here, if any) and checked against this
// table's Situation, all or nothing; then logged with the shared step's id, so the same roll is never added twice.
import { h } from '../dom.js';
import { SEEN } from '../back.js';
import { outcomeLines } from '../roll/outcome.js';
import { PROCEDURES, TABLE } from '../store/schema.js';
import { SYSTEM_NAME, fmtTime, requestWords } from '../store/words.js';

const NAME_CHARS = TABLE.link_name_chars; // who rolled, as a link carries it (a longer name is cut)

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
    // Back from the panel closes it (its link's address was pushed as it opened); a page opened with a link gets the
    // Table's address under it, so Back then closes the panel rather than leaving the app
    addEventListener('popstate', () => this.link && !/^#[rt]=/.test(location.hash) && this.close());
    if (this.t.sharedLink) {
      if (/^#[rt]=/.test(location.hash)) {
        const at = location.hash;
        history.replaceState(SEEN, '', '#table');
        history.pushState(SEEN, '', at);
      }
      this.open(this.t.sharedLink);
    }
  }

  /** Read a shared link ({kind, link}) and show it. */
  async open({ kind, link }) {
    if (link === this.link) return;
    Object.assign(this, { kind, link, roll: null, table: null, error: null, added: null, charge: '', charged: null });
    this.t.render('received');
    try {
      if (kind === 'table') {
        const table = await this.t.arbiter.sharedTable(link);
        if (this.link === link) this.table = table;
      } else {
        const roll = await this.t.arbiter.sharedRoll(link);
        if (this.link === link) {
          this.roll = roll;
          this.charge = this.sameName(roll); // the shared roll's answer: who rolled, and its system
          this.preview();
        }
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
    if (/^#[rt]=/.test(location.hash)) history.replaceState(SEEN, '', '#table');
    this.t.render('received');
  }

  /** The id of this phone's character whose name is the link's roller's (links cut names to 24 characters: so are
   * ours, compared trimmed and ignoring case), of the roll's kind; '' when none or more than one is. */
  sameName(shared) {
    const cut = (name) => (name ?? '').slice(0, NAME_CHARS).trim().toLowerCase();
    const who = cut(shared.who);
    if (!who) return '';
    const kind = PROCEDURES[shared.system].kind;
    const same = this.t.characters.list().filter(([, c]) => c.kind === kind && cut(c.name) === who);
    return same.length === 1 ? same[0][0] : '';
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
      this.added?.leaveOut && !all
        ? h(
            'button',
            { type: 'button', 'data-add-without-price': '', onclick: () => this.add([this.added.leaveOut]) },
            'Add without this Price',
          )
        : null,
      this.added && !this.added.error ? h('p', { role: 'status' }, this.added.words) : null,
      h('p', { class: 'muted' }, `Request: ${requestWords(r.request, PROCEDURES[r.system].fields)}`),
      r.steps.length > 1
        ? h(
            'ol',
            { class: 'shared-steps' },
            r.steps.map((s) => h('li', {}, s.action ? s.did : 'The roll', `: ${s.drawn.join(' ') || 'no dice'}`)),
          )
        : h(
            'p',
            { class: 'muted' },
            `${r.steps[0].source === 'table' ? 'Table dice' : 'Dice'}: ${r.steps[0].drawn.join(' ')}`,
          ),
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
        { id: 'shared:scheme', data: { ...scheme, set: true } }, // the Host's count: set on this phone now
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
          'Who pays its costs (Will, Exertion, a Price on the sheet)',
          h(
            'select',
            {
              'data-shared-charge': '',
              onchange: (event) => {
                this.charge = event.target.value;
                this.charged = null;
                this.t.render('received');
                this.preview();
              },
            },
            h('option', { value: '' }, 'Nobody (the Scheme only)'),
            mine.map(([id, c]) => h('option', { value: id, selected: id === this.charge }, c.name || '(unnamed)')),
          ),
        )
      : null;
    const charged = h(
      'p',
      { class: 'muted', 'data-shared-payer': '', 'data-read': this.charged || !this.charge ? '' : null },
      this.charge
        ? (this.charged ?? 'Working out what it charges…')
        : 'Charged to nobody here: only the Scheme and the Situation change.',
    );
    const label = held
      ? `Add its ${this.roll.steps.length - held} new step(s) to this table's log`
      : "Add to this table's log";
    return [
      held ? h('p', { class: 'muted' }, 'Its first steps are in this table’s log already.') : null,
      pick,
      pick ? charged : null,
      h('button', { type: 'button', class: 'primary', 'data-add-shared': '', onclick: () => this.add() }, label),
    ];
  }

  /** What Add would charge the payer picked, said before the tap: the same request Add makes (add_shared keeps
   * nothing: its answer is only read), the payer's new sheet and the notes, or why this table would refuse it. */
  async preview() {
    const { link, charge } = this;
    const who = charge ? this.t.characters.get(charge) : null;
    if (!who || !this.roll) return;
    const name = who.name || '(unnamed)';
    let words;
    try {
      const answer = await this.t.arbiter.addShared(link, this.payingFrom(who), this.marked(), this.seen());
      const notes = answer.entries.flatMap((e) => e.notes).filter(Boolean);
      if (answer.refused) words = `${name} pays: nothing yet (${answer.refused.words})`;
      else if (answer.character) words = `Charged to ${name} on this phone: ${notes.join('; ')}`;
      else words = `Charged to ${name} on this phone: nothing for this roll`;
    } catch (error) {
      words = error.message;
    }
    if (this.link !== link || this.charge !== charge) return;
    this.charged = words;
    this.t.render('received');
  }

  /** What this table pays from: `who` (a character of this phone, or null) and the Scheme. */
  payingFrom(who) {
    const scheme = this.t.shared.scheme();
    return { character: who ? { name: who.name, kind: who.kind, sheet: who.sheet } : null, scheme };
  }

  marked() {
    return this.t.situations.current()?.marked ?? [];
  }

  /** Add the shared roll: one request to the engine, locked until it is kept; nothing kept when it is refused. */
  async add(leaveOut = []) {
    if (this.adding || !this.roll) return;
    this.adding = true;
    const button = this.t.sections.received.querySelector('[data-add-shared]');
    button?.setAttribute('aria-disabled', 'true');
    const r = this.roll;
    try {
      await this.t.enqueue(() => this.take(r, leaveOut));
    } finally {
      this.adding = false;
      button?.removeAttribute('aria-disabled');
      this.t.render('received');
    }
  }

  async take(r, leaveOut = []) {
    const who = this.charge ? this.t.characters.get(this.charge) : null;
    const paying = this.payingFrom(who);
    const { scheme } = paying;
    const answer = await this.t.arbiter.addShared(this.link, paying, this.marked(), this.seen(), leaveOut);
    if (answer.refused) {
      // a Price this table's marks refuse: the Host may add the roll without it (threat-18)
      this.added = { error: true, words: `Not added: ${answer.refused.words}`, leaveOut: answer.refused.leave_out };
      return;
    }
    if (!answer.entries.length) {
      this.added = { error: false, words: 'Already in this table’s log.' };
      return;
    }
    const n = await this.keep(r, answer, who ? { id: this.charge, ...who } : null, scheme);
    this.added = { error: false, words: `Added to this table’s log (${n} ${n === 1 ? 'entry' : 'entries'}).` };
  }

  /** Keep what add_shared's `answer` brings for the shared roll `r` (shared_roll's, or live.py's {id, system, who,
   * time, steps: [{step, source}], via: "live"}): this table's Scheme (only if it is still `scheme`, as sent), the
   * sheet of `who` ({id, name, sheet}, or null), the Situation's marks, then each entry logged with its shared step's
   * id. Returns how many entries were logged. A live table's Host keeps a player's roll through here too
   * (../live/sync.js). */
  async keep(r, answer, who, scheme) {
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
      await this.t.store.update(`char:${who.id}`, (now) => {
        if (!same(now.sheet, who.sheet)) throw new Error(`${who.name} changed meanwhile: tap Add again.`);
        return { ...now, sheet: answer.character };
      });
    }
    if (answer.marked) await this.t.situations.setMarks(answer.marked);
    const byStep = new Map(this.t.store.list('log:').map(([id, e]) => [e.shared?.step, id]));
    let rootId = byStep.get(r.steps[0].step) ?? null;
    const rolled = new Date(r.time * 1000).toISOString();
    const character = who ? { id: who.id, name: who.name } : null;
    const sourceOf = new Map(r.steps.map((s) => [s.step, s.source]));
    for (const e of answer.entries) {
      const extra = {
        shared: { step: e.step, who: r.who ?? '', rolled, ...(r.via ? { via: r.via } : {}) },
        ...(e.action && rootId ? { follows: rootId } : {}),
      };
      const note = e.notes.filter(Boolean).join('; ');
      const source = sourceOf.get(e.step) ?? 'app'; // whose dice: the roller's table's, typed in, or the app's
      const roll = { ...e.roll, drawn: e.drawn };
      const id = await this.t.log.append(r.system, roll, e.action, character, note, e.luck_entry, e.did, source, extra);
      if (!e.action) rootId = id.slice(id.indexOf(':') + 1);
    }
    return answer.entries.length;
  }
}
