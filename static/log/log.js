// The roll log: every roll, follow-up and table note, who made it and its dice, newest first; the next page loaded
// as the list's end scrolls near (or by "Show more"); filters, and export as JSON or CSV. The entry shapes and the
// CSV are pure functions (facesOf, filterLog, csvOf).

import { jsonOrNull } from '../store/data.js';
import { download, h, select } from '../dom.js';
import { nowIso } from '../store/ids.js';
import { FairnessView } from './fairness.js';
import { linkSteps, shareSteps } from '../store/steps.js';
import { shareRoll } from '../share/dialog.js';
import { PercentilesView } from './percentiles.js';
import { PROCEDURES, RECORDS, SYSTEMS, declAt } from '../store/schema.js';
import { SYSTEM_NAME, actionWords, fmtTime, plural, requestWords } from '../store/words.js';

const LOG_PAGE = 50;
// a roll made on a player's phone joined to a live table (../live/sync.js): where it stands, in the record's words
const LIVE_WORDS = Object.fromEntries(declAt(RECORDS.log, 'live', 'state').options.map((o) => [o.value, o.label]));
// how a roll rolled elsewhere came (a shared link, or a live table's player), in the record's words
const CAME = Object.fromEntries(declAt(RECORDS.log, 'shared', 'via').options.map((o) => [o.value, o.label]));
const NEAR = '0px 0px 400px 0px'; // the next page loads while the list's end is still this far below the screen
// a log entry's fields as declared (a nullable one: what it holds when not null)
const FIELD = Object.fromEntries(RECORDS.log.fields.map((f) => [f.name, f.type === 'nullable' ? f.of : f]));

/** The faces a roll shows, whatever its procedure: the engine's `faces` (every die it shows, in rolled order, each
 * of its own sides); as many, each within the range, as a log entry keeps. */
export function facesOf(roll) {
  const faces = Array.isArray(roll.faces) ? roll.faces.map((d) => d?.face) : [];
  const { min, max } = FIELD.dice.of;
  return faces.filter((f) => Number.isInteger(f) && f >= min && f <= max).slice(0, FIELD.dice.max_len);
}

/** [id, entry] of the log entries `filter` lets through ({character: id, '-' for nobody, or ''; system}), newest
 * first (log ids sort by time). */
export function filterLog(all, { character, system }) {
  const out = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i][1];
    const who = !character || (character === '-' ? !e.character : e.character?.id === character);
    if ((!system || e.system === system) && who) out.push(all[i]);
  }
  return out;
}

/** One CSV cell: quoted, quotes doubled, and a leading = + - @ defused so a spreadsheet never runs it. */
export function csvCell(value) {
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replaceAll('"', '""')}"`;
}

/** The CSV of log entries ({id, ...entry}, oldest first), a header row first, CRLF line ends. */
export function csvOf(entries) {
  const cols = ['time', 'character', 'procedure', 'kind', 'action', 'request', 'dice', 'outcome', 'summary', 'note'];
  const rows = entries.map((e) => [
    e.time,
    e.character?.name ?? '',
    e.system,
    e.kind,
    e.action,
    e.request,
    e.dice.join(' '),
    e.outcome,
    e.summary,
    e.kind === 'note' ? '' : e.note,
  ]);
  return [cols, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export class Log {
  constructor(table) {
    this.t = table;
    this.limit = LOG_PAGE;
    this.filter = { character: '', system: '' };
    this.percentiles = new PercentilesView(table);
    this.fairness = new FairnessView(table);
    this.near = null; // the observer of the list's end, while there is more to show
    this.rolls = new Map(); // procedure -> the log id of its last roll logged by this page (its follow-ups name it)
  }

  /** Log a roll or a follow-up of `system`, made as `who` ({id, name}, or null for nobody), with what the table did
   * for it (`note`: what it cost and what followed), for a roll its `luck` (arbiter.api.luck_entry's) and for a
   * follow-up what it `did`, in a player's words (arbiter.api.turn's); `source`: whose dice ('table': the group's
   * own, typed in; else the app's). */
  async append(system, roll, action, who, note = '', luck = null, did = null, source = 'app', extra = {}) {
    // a follow-up names the roll it follows (its log id, without the store's prefix), while this page remembers it;
    // `extra`: a roll's `time` (when it was rolled, as its Share link says), a shared roll's step ({shared: {step,
    // who, rolled}, follows}: received.js)
    const follows = extra.follows ?? (action ? this.rolls.get(system) : null);
    const drawn = Array.isArray(roll.drawn) ? roll.drawn.slice(0, FIELD.drawn.max_len) : null;
    const own = Array.isArray(roll.drawn_own) ? roll.drawn_own.slice(0, FIELD.own.max_len) : null;
    const id = await this.t.store.append({
      time: extra.time ?? nowIso(),
      character: who ? { id: who.id, name: who.name } : null,
      system,
      kind: action ? 'follow-up' : 'roll',
      request: jsonOrNull(roll.request, FIELD.request.max_chars),
      action: jsonOrNull(action, FIELD.action.max_chars),
      dice: facesOf(roll),
      outcome: String(roll.outcome ?? '').slice(0, FIELD.outcome.max_len),
      summary: String(roll.summary ?? '').slice(0, FIELD.summary.max_len),
      note: note.slice(0, FIELD.note.max_len),
      ...(luck ? { luck } : {}),
      ...(action && did ? { did: String(did).slice(0, FIELD.did.max_len) } : {}),
      source: source === 'table' ? 'table' : 'app',
      ...(drawn ? { drawn } : {}),
      ...(own ? { own } : {}),
      ...(follows ? { follows } : {}),
      ...(extra.shared ? { shared: extra.shared } : {}),
      ...(extra.live ? { live: extra.live } : {}),
    });
    if (!action && !extra.shared) this.rolls.set(system, id.slice(id.indexOf(':') + 1));
    return id;
  }

  /** Log what the table did (an op's note, or why it was not done). */
  async note(system, charId, note) {
    if (!note) return;
    const c = this.t.characters.get(charId);
    try {
      await this.t.store.append({
        time: nowIso(),
        character: c ? { id: charId, name: c.name } : null,
        system,
        kind: 'note',
        request: null,
        action: null,
        dice: [],
        outcome: '',
        summary: note.slice(0, FIELD.summary.max_len),
        note: note.slice(0, FIELD.note.max_len),
      });
    } catch (error) {
      this.t.say(error.message, true);
    }
  }

  entries(all = this.t.store.list('log:')) {
    return filterLog(all, this.filter);
  }

  view() {
    const all = this.t.store.list('log:');
    const entries = this.entries(all);
    const names = new Map();
    for (const [, e] of all) if (e.character) names.set(e.character.id, e.character.name);
    for (const [id, c] of this.t.characters.list()) names.set(id, c.name);
    const shown = entries.slice(0, this.limit);
    const stepsOf = shareSteps(all); // each shown entry's roll, for its Share
    const filter = (key, label, options) =>
      select(`log:f:${key}`, label, options, this.filter[key], (v) => {
        this.filter[key] = v;
        this.limit = LOG_PAGE;
        this.t.render('log');
      });
    const count = plural(all.length, 'entry', 'entries');
    const more = () => {
      this.near?.disconnect();
      this.limit += LOG_PAGE;
      this.t.render('log');
    };
    this.near?.disconnect(); // the last drawing's end is gone
    const end = entries.length > shown.length ? this.nearEnd(more) : null;
    const clear = async () => {
      await this.t.store.clearLog();
      this.t.say('The log is cleared.');
      this.t.ui.focus = 'log:f:character';
    };
    const exportAs = (format, label) =>
      h(
        'button',
        {
          type: 'button',
          'data-k': `log:${format}`,
          'data-export': format,
          disabled: !entries.length,
          onclick: () => this.export(format),
        },
        label,
      );
    return [
      h('h3', {}, 'Roll log'),
      h(
        'div',
        { class: 'row' },
        filter('character', 'Character', [
          ['', 'Everyone'],
          ['-', 'Nobody'],
          ...[...names].map(([id, name]) => [id, name || '(unnamed)']),
        ]),
        filter('system', 'Procedure', [['', 'Every procedure'], ...SYSTEMS.map((s) => [s, SYSTEM_NAME[s]])]),
      ),
      h(
        'p',
        { class: 'muted', 'data-log-count': entries.length },
        entries.length === all.length ? count : `${entries.length} of ${count} match`,
      ),
      this.folded(entries),
      h(
        'ol',
        { class: 'log-list', 'aria-label': 'Rolls, newest first' },
        shown.map(([id, e]) => this.viewEntry(id, e, stepsOf)),
      ),
      end,
      end
        ? h(
            'button',
            { type: 'button', 'data-k': 'log:more', onclick: more },
            `Show ${Math.min(LOG_PAGE, entries.length - shown.length)} more`,
          )
        : null,
      h(
        'div',
        { class: 'row' },
        exportAs('json', 'Export JSON'),
        exportAs('csv', 'Export CSV'),
        all.length
          ? this.t.confirmable(
              'log:clear',
              'Clear the log…',
              `Delete all ${count} of the log? This cannot be undone.`,
              `Delete ${count}`,
              clear,
            )
          : null,
      ),
    ];
  }

  /** The luck and "Are my dice fair?" of `entries`, folded under one line above the list (the Log opens at the newest
   * roll, issue 29): each is asked of the engine once it is on screen, so once unfolded; left as the player left it. */
  folded(entries) {
    const fold = h(
      'details',
      { class: 'log-luck', 'data-log-luck': '', open: Boolean(this.unfolded) },
      h('summary', { 'data-k': 'log:luck' }, 'How lucky the table has been · Are my dice fair?'),
      this.percentiles.view(entries),
      this.fairness.view(entries),
    );
    fold.addEventListener('toggle', () => {
      this.unfolded = fold.open;
    });
    return fold;
  }

  /** A mark after the list that calls `more` once it scrolls near the screen; nothing while the log is hidden (a
   * hidden element never intersects). */
  nearEnd(more) {
    const mark = h('div', { class: 'log-end', 'data-log-end': '', 'aria-hidden': 'true' });
    this.near = new IntersectionObserver(
      (changes) => {
        if (changes.some((c) => c.isIntersecting)) more();
      },
      { rootMargin: NEAR },
    );
    this.near.observe(mark);
    return mark;
  }

  viewEntry(id, e, stepsOf) {
    const head = [
      h('time', { datetime: e.time }, fmtTime(e.time)),
      ' · ',
      h('strong', { class: 'who' }, e.character?.name || '—'),
      ` · ${SYSTEM_NAME[e.system]}`,
    ];
    if (e.kind === 'follow-up') head.push(` · ${e.did ?? actionWords(e.action, PROCEDURES[e.system].actions)}`);
    const steps = stepsOf(id);
    return h(
      'li',
      { class: `log-entry ${e.kind}`, 'data-kind': e.kind, 'data-system': e.system, 'data-log': id },
      h('div', { class: 'log-head' }, head),
      h('div', { class: 'log-summary' }, e.summary),
      e.kind !== 'note' && e.note ? h('div', { class: 'log-note' }, e.note) : null,
      e.dice.length
        ? h(
            'div',
            { class: 'muted log-dice', 'data-source': e.source ?? 'app' },
            `${e.source === 'table' ? 'Table dice' : 'Dice'}: ${e.dice.join(' ')}`,
          )
        : null,
      e.request
        ? h('div', { class: 'muted log-request' }, `Request: ${requestWords(e.request, PROCEDURES[e.system].fields)}`)
        : null,
      e.shared
        ? h(
            'div',
            { class: 'muted log-shared', 'data-shared-step': e.shared.step, 'data-via': e.shared.via ?? 'link' },
            `${CAME[e.shared.via ?? 'link']}: rolled by ${e.shared.who || 'someone'}, ${fmtTime(e.shared.rolled)}`,
          )
        : null,
      e.live
        ? h(
            'div',
            {
              class: e.live.state === 'refused' ? 'field-error log-live' : 'muted log-live',
              'data-live-state': e.live.state,
            },
            LIVE_WORDS[e.live.state] + (e.live.words ? `: ${e.live.words}` : ''),
          )
        : null,
      steps
        ? h('button', { type: 'button', 'data-share': '', onclick: (ev) => this.share(ev, e, steps) }, 'Share')
        : null,
    );
  }

  /** Share a logged roll as it stood at one of its entries (`steps`: shareSteps'), through the engine (one request
   * a tap, none while one is on its way). */
  async share(event, e, steps) {
    const [first] = steps;
    const rolled = first.shared ? Date.parse(first.shared.rolled) : Date.parse(first.time);
    try {
      await shareRoll(event.currentTarget, this.t.arbiter, {
        system: e.system,
        request: first.request,
        steps: linkSteps(steps),
        // a roll shared to this table goes on as its roller's (a name, or '' for nobody); one made here as nobody as
        // this device's name, if it has one (shareRoll)
        who: first.shared ? first.shared.who : (first.character?.name ?? null),
        time: Math.floor(rolled / 1000),
      });
    } catch (error) {
      this.t.say(`Not shared: ${error.message}`, true);
    }
  }

  /** Download the entries the filters let through, oldest first. */
  export(format) {
    const entries = this.entries()
      .reverse()
      .map(([id, e]) => ({ id, ...e }));
    const day = nowIso().slice(0, 10);
    if (format === 'json') {
      download(
        `arbiter-log-${day}.json`,
        'application/json',
        JSON.stringify({ app: 'arbiter-log', exported: nowIso(), filter: this.filter, entries }, null, 1),
      );
    } else {
      download(`arbiter-log-${day}.csv`, 'text/csv', csvOf(entries));
    }
  }
}
