// Ongoing d10 struggles: successes accumulated over turns toward a target, each turn the d10 form's last roll,
// with the engine's exact odds of finishing (or being aborted by a botch) within N turns of the form as it is. The
// procedure, its ops and their limits and defaults are what arbiter.api publishes (struggleOf).

import { percent } from '../procedures/view-parts.js';
import { pick, toInt } from '../store/data.js';
import { h, intInput } from '../dom.js';
import { nowIso } from '../store/ids.js';
import { RECORDS, declAt } from '../store/schema.js';
import { plural } from '../store/words.js';

const STATUS_TEXT = {
  ongoing: 'ongoing',
  done: 'done: the target is reached',
  aborted: 'aborted by a botch: start again from scratch',
};
const ODDS_DELAY_MS = 250;
const NAME_MAX = declAt(RECORDS.struggle, 'name').max_len;
const NOTES = declAt(RECORDS.struggle, 'notes'); // at most max_len notes of of.max_len characters
const stateOf = (s) => pick(s, ['target', 'accumulated', 'turns', 'status', 'contest']);

/** The procedure that keeps struggles (the one whose table publishes struggle_turn) and, as it declares them, the
 * target's and the odds' turns' limits and defaults: {system, target: {min, max, default}, turns: {…}}. Pure. */
export function struggleOf(spec) {
  const system = Object.keys(spec).find((id) => spec[id].table_ops.some((op) => op.name === 'struggle_turn'));
  const op = (name) => spec[system].table_ops.find((o) => o.name === name);
  return {
    system,
    target: op('struggle_turn').state.find((f) => f.name === 'target'),
    turns: op('struggle_odds').args.find((f) => f.name === 'turns'),
  };
}

export class Struggles {
  constructor(table) {
    this.t = table;
    this.draft = null; // the "start a struggle" form as typed
    this.error = null;
    this.status = {}; // struggle id -> {text, error}
    this.odds = {}; // struggle id -> {key, pending | result, turns | error}
    this.oddsTurns = {}; // struggle id -> N
    this.counted = new WeakSet(); // d10 rolls already added to a struggle
    this.of = struggleOf(table.spec);
  }

  /** The odds follow the form that rolls the turns, as it is edited (once its tab has built it). */
  watchForm() {
    const form = `form[data-system="${this.of.system}"]`;
    const edited = (event) => {
      if (event.target.closest?.(form)) this.scheduleOdds();
    };
    document.addEventListener('input', edited);
    document.addEventListener('change', edited);
  }

  view() {
    const list = this.t.store.list('struggle:');
    const { system, target: limits } = this.of;
    const d10chars = this.t.characters.list().filter(([, c]) => c.kind === this.t.spec[system].kind);
    const n = (this.draft ??= { name: '', target: limits.default, contest: false, character: '' });
    const name = h('input', {
      type: 'text',
      maxlength: NAME_MAX,
      autocomplete: 'off',
      value: n.name,
      'data-k': 'st:new:name',
    });
    const target = intInput({ min: limits.min, max: limits.max, value: n.target, 'data-k': 'st:new:target' });
    const contest = h('input', { type: 'checkbox', checked: n.contest, 'data-k': 'st:new:contest' });
    const who = h(
      'select',
      { 'data-k': 'st:new:who' },
      h('option', { value: '' }, 'Nobody in particular'),
      d10chars.map(([id, c]) => h('option', { value: id, selected: id === n.character }, c.name || '(unnamed)')),
    );
    const create = h(
      'form',
      {
        class: 'row create',
        'data-create': 'struggle',
        novalidate: true,
        onsubmit: (event) => {
          event.preventDefault();
          Object.assign(n, {
            name: name.value,
            target: toInt(target.value),
            contest: contest.checked,
            character: who.value,
          });
          this.create(n);
        },
      },
      h('label', { class: 'tf grow' }, h('span', {}, 'Effort'), name),
      h('label', { class: 'tf' }, h('span', {}, 'Successes needed'), target),
      h('label', { class: 'tf' }, h('span', {}, 'Character'), who),
      h(
        'label',
        { class: 'tf check' },
        contest,
        h('span', {}, 'A contest (the d10 form’s “opposed” is the resistance)'),
      ),
      h('button', { type: 'submit', 'data-k': 'st:new:create' }, 'Start a struggle'),
      this.error ? h('output', { class: 'field-error', role: 'alert' }, this.error) : null,
    );
    this.scheduleOdds();
    return [
      h('h3', {}, 'Ongoing struggles (d10 pool)'),
      h(
        'p',
        { class: 'muted' },
        'Successes accumulate over turns; a botch aborts the whole effort; in a contest the ' +
          'resistance’s excess successes eat those accumulated. ' +
          'Roll the d10 pool form, then add its roll as the next turn.',
      ),
      create,
      list.map(([id, s]) => this.viewOne(id, s)),
    ];
  }

  async create(n) {
    const data = {
      name: n.name.trim().slice(0, NAME_MAX) || 'Struggle',
      character: n.character || null,
      created: nowIso(),
      target: n.target,
      accumulated: 0,
      turns: 0,
      status: 'ongoing',
      contest: n.contest,
      notes: [],
    };
    try {
      const id = await this.t.store.create('struggle:', data);
      this.draft = null;
      this.error = null;
      this.t.ui.focus = `st:${id}:turn`;
      await this.t.log.note(
        this.of.system,
        data.character,
        `${data.name}: a struggle for ` +
          `${plural(data.target, 'success', 'successes')} starts${data.contest ? ' (a contest)' : ''}`,
      );
    } catch (error) {
      this.error = error.message.replace(/^Not saved: data\.target: /, 'Successes needed ');
    }
    this.t.render('struggles');
  }

  viewOne(id, s) {
    const k = (name) => `st:${id}:${name}`;
    const who = this.t.characters.get(s.character);
    const status = this.status[id];
    const progress = h('progress', {
      max: s.target,
      value: Math.min(s.accumulated, s.target),
      'aria-label': `${s.name}: ${s.accumulated} of ${s.target} successes`,
    });
    const remove = async () => {
      await this.t.store.remove(`struggle:${id}`);
      this.t.say(`The struggle “${s.name}” was deleted.`);
    };
    return h(
      'article',
      {
        class: 'struggle',
        'data-struggle': id,
        'data-status': s.status,
        'data-accumulated': s.accumulated,
        'aria-labelledby': k('title'),
      },
      h('h4', { id: k('title') }, s.name || 'Struggle', who ? h('span', { class: 'muted' }, ` · ${who.name}`) : null),
      h(
        'p',
        { class: 'big' },
        `${s.accumulated}/${s.target} successes · ${plural(s.turns, 'turn')} · ` +
          `${STATUS_TEXT[s.status]}${s.contest ? ' · a contest' : ''}`,
      ),
      progress,
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-k': k('turn'),
            'data-turn-add': '',
            disabled: s.status !== 'ongoing',
            onclick: () => this.addTurn(id),
          },
          'Add the last d10 roll as a turn',
        ),
        h(
          'button',
          { type: 'button', 'data-k': k('reset'), onclick: () => this.op(id, 'struggle_reset', null) },
          'Start again',
        ),
        this.t.confirmable(k('del'), 'Delete…', `Delete the struggle “${s.name}”?`, 'Delete the struggle', remove),
      ),
      status ? h('p', { class: `sheet-status${status.error ? ' error' : ''}`, role: 'status' }, status.text) : null,
      s.status === 'ongoing' ? this.viewOdds(id) : null,
      s.notes.length
        ? h(
            'details',
            { class: 'notes' },
            h('summary', {}, `History (${plural(s.notes.length, 'entry', 'entries')})`),
            h(
              'ol',
              {},
              s.notes.map((note) => h('li', {}, note)),
            ),
          )
        : null,
    );
  }

  /** The odds of an ongoing struggle over the next N turns, rolling the d10 form as it is now. */
  viewOdds(id) {
    const odds = this.odds[id];
    const { min, max, default: start } = this.of.turns;
    const turns = this.oddsTurns[id] ?? start;
    const turnsInput = intInput({ min, max, value: turns, 'data-k': `st:${id}:turns` });
    turnsInput.addEventListener('change', () => {
      const v = toInt(turnsInput.value);
      if (Number.isInteger(v) && v >= min && v <= max) {
        this.oddsTurns[id] = v;
        this.scheduleOdds();
      }
    });
    let body;
    if (!odds || odds.pending) body = h('p', { class: 'muted' }, 'Working out the odds…');
    else if (odds.error) body = h('p', { class: 'field-error' }, odds.error);
    else {
      const r = odds.result;
      const n = String(odds.turns);
      body = [
        h(
          'p',
          { 'data-finish': r.finish_within[n], 'data-exact': r.exact.finish_within[n] },
          h('strong', {}, `Finish within ${plural(odds.turns, 'turn')}: ${percent(r.finish_within[n])}`),
          ` · aborted by a botch: ${percent(r.abort_within[n])}`,
        ),
        h(
          'ol',
          { class: 'odds-turns' },
          Object.keys(r.finish_within).map((t) =>
            h(
              'li',
              { 'data-turn': t },
              `within ${plural(Number(t), 'turn')}: done ${percent(r.finish_within[t])}, ` +
                `aborted ${percent(r.abort_within[t])}`,
            ),
          ),
        ),
      ];
    }
    return h(
      'div',
      { class: 'struggle-odds', 'aria-live': 'polite' },
      h('label', { class: 'tf' }, h('span', {}, 'Odds over turns, rolling the d10 form as it is now'), turnsInput),
      body,
    );
  }

  async addTurn(id) {
    const roll = this.t.page.procs[this.of.system]?.roll;
    const say = (text, error = false) => {
      this.status[id] = { text, error };
      this.t.render('struggles');
    };
    if (!roll) {
      say('Roll the d10 pool form first: its last roll becomes the turn.', true);
      return;
    }
    if (this.counted.has(roll)) {
      say('That roll was already added: roll the d10 pool form again for the next turn.', true);
      return;
    }
    await this.op(id, 'struggle_turn', { roll }, () => this.counted.add(roll));
  }

  /** Apply the engine's struggle `op` on the struggle's latest revision; its note joins the history and the log. */
  async op(id, op, args, done = () => {}) {
    let note;
    let data;
    try {
      data = await this.t.store.update(`struggle:${id}`, async (s) => {
        const result = await this.t.arbiter.table(this.of.system, op, stateOf(s), args);
        note = result.note;
        const notes = [...s.notes, note.slice(0, NOTES.of.max_len)].slice(-NOTES.max_len);
        return { ...s, ...pick(result, ['accumulated', 'turns', 'status']), notes };
      });
    } catch (error) {
      this.status[id] = { text: error.message, error: true };
      this.t.render('struggles');
      return;
    }
    done();
    this.status[id] = { text: note, error: false };
    this.t.render('struggles');
    await this.t.log.note(this.of.system, data.character, `${data.name}: ${note}`);
  }

  scheduleOdds() {
    clearTimeout(this.oddsTimer);
    this.oddsTimer = setTimeout(() => this.computeOdds(), ODDS_DELAY_MS);
  }

  async computeOdds() {
    const ongoing = this.t.store?.list('struggle:').filter(([, s]) => s.status === 'ongoing') ?? [];
    if (!ongoing.length) return; // (the d10 form, which their odds read, is built only when some struggle needs it)
    const request = this.t.page.procs[this.of.system].request();
    for (const [id, s] of ongoing) {
      const turns = this.oddsTurns[id] ?? this.of.turns.default;
      const state = stateOf(s);
      const key = JSON.stringify([request, state, turns]);
      if (this.odds[id]?.key === key) continue;
      this.odds[id] = { key, pending: true };
      try {
        const result = await this.t.arbiter.table(this.of.system, 'struggle_odds', state, { request, turns });
        if (this.odds[id]?.key === key) this.odds[id] = { key, result, turns };
      } catch (error) {
        if (this.odds[id]?.key === key) this.odds[id] = { key, error: error.message };
      }
      this.t.render('struggles');
    }
  }
}
