// What crosses a live table (issue 32), over the connection peers.js keeps (it knows nothing of rolls; this module
// knows nothing of WebRTC). Every message is made and read by the engine (arbiter.api.live_roll, live_table,
// live_read: py/arbiter/live.py), checked like a link; this module only carries them and keeps what they bring.
//
//   on a player's phone  each roll and follow-up that lands is logged as waiting for the Host (its log entry's `live`)
//                        and sent as it lands, or, while not connected, once the Host is there again (a reload keeps
//                        the log: what waits is sent after rejoining), to the Host's table it was rolled for (its id
//                        came with that table: a roll made while away goes to no other Host); the Host's "added" or
//                        "refused" marks the entry. The Host's shared state (its Scheme, its current Situation and
//                        marks) is kept here as the Host's table, shown as such, and the forms' taps are checked
//                        against it while joined.
//   on the Host's phone  each player's roll is added as a shared link is (received.js' keep: once by its step ids,
//                        its Scheme die and Price applied to this table; the player's character is charged on the
//                        player's phone only), with no tap; the answer goes back; this table's shared state is pushed
//                        to each player as it joins and whenever it changes.
// A message that cannot be taken is refused in words naming its field, shown here (and on the Host answered), and
// the connection goes on.

import { h, swap } from '../dom.js';
import { linkSteps, shareSteps } from '../store/steps.js';
import { RECORDS, declAt } from '../store/schema.js';
import { newId } from '../store/ids.js';
import { plural } from '../store/words.js';
import { yourName } from '../settings.js';

const HEARD = 5; // the refusals and bad messages shown, newest first
const WORDS = declAt(RECORDS.log, 'live', 'words'); // the Host's words, as a log entry keeps them
const TABLE = 'arbiter.live.table'; // on a player's phone: the Host's table what lands now is for (through a reload)
const HOST_TABLE = 'arbiter.live.host'; // on the Host's phone: its table's id, the same from one evening to the next
const TABLE_CHARS = declAt(RECORDS.log, 'live', 'table').max_len; // a Host's table's id: hex digits (live.py's "h")

/** The id of this phone's table as a Host (live.py's "h"): made once and kept on this device. */
function hostTableId() {
  const made = () => newId().replaceAll('-', '').slice(0, TABLE_CHARS);
  try {
    const kept = localStorage.getItem(HOST_TABLE) ?? '';
    if (kept.length === TABLE_CHARS && /^[0-9a-f]+$/.test(kept)) return kept;
    const id = made();
    localStorage.setItem(HOST_TABLE, id);
    return id;
  } catch {
    hostTableId.once ??= made(); // storage refused (a private window): this page's own
    return hostTableId.once;
  }
}

export class Sync {
  /** `table` the Table (its store, log, Scheme, Situations, received); `peers` peers.js' Peers. */
  constructor(table, peers) {
    this.t = table;
    this.peers = peers;
    this.hostTable = null; // on a player's phone: the Host's {scheme, price}, as it last pushed them
    this.tableOn = null; // on a player's phone: the id of the Host's table on the connection open now, once it came
    this.sending = new Map(); // a roll's id as sent -> its log id (without "log:"), until the Host answers
    this.sentOn = new Set(); // log ids sent on the connection now open (a new connection sends what waits again)
    this.told = new Set(); // on the Host's phone: the players sent this table's state on their open connection
    this.heard = []; // [{words}]: refusals and bad messages, newest first
    this.hostWas = false;
    this.root = h('section', { class: 'table-part', 'data-part': 'live-sync', 'aria-label': 'The live table' });
  }

  start() {
    this.t.sections.shared.before(this.root);
    this.peers.addEventListener('message', ({ detail }) => this.t.enqueue(() => this.read(detail)));
    this.peers.addEventListener('peers', () => this.t.enqueue(() => this.peersChanged()));
    this.t.store.subscribe((ids) => {
      if (ids === 'all' || [...ids].some((id) => id.startsWith('shared:'))) this.t.enqueue(() => this.push());
      if (ids === 'all' || [...ids].some((id) => id.startsWith('log:'))) this.t.enqueue(() => this.flush());
    });
    this.t.enqueue(() => this.peersChanged());
  }

  // --- the player's side ---------------------------------------------------------------------------------------------

  /** Whether what lands here is for the Host: this tab joined a live table as a player and has not left it (a reload
   * keeps that: peers.js' kept part). */
  outgoing() {
    return this.peers.role === 'player' || (this.peers.role === null && this.peers.kept()?.role === 'player');
  }

  /** A roll logged here while at a live table: waiting for the Host, and for which Host's table (once known). */
  waiting() {
    const table = sessionStorage.getItem(TABLE);
    return { state: 'waiting', words: '', ...(table ? { table } : {}) };
  }

  /** The Host's Scheme, for a tap on a player's phone (tableFor), or null when this phone plays its own table. */
  scheme() {
    return this.peers.role === 'player' && this.hostTable ? this.hostTable.scheme : null;
  }

  /** The Situation a form's Pay the Price list shows (`own`: this table's), its name and marks the Host's while
   * joined. */
  situation(own) {
    const current = this.scheme() && this.hostTable.price.situations[0];
    return own && current ? { ...own, name: current.name, marked: current.marked } : own;
  }

  /** A tap on this phone changed the Host's Scheme or marks (answer.scheme, answer.marked): the Host's table as this
   * phone sees it until the Host pushes its own. */
  took(answer) {
    if (!this.hostTable) return;
    const [current] = this.hostTable.price.situations;
    if (answer.scheme) this.hostTable.scheme = { ...this.hostTable.scheme, ...answer.scheme };
    if (answer.marked) current.marked = answer.marked;
    this.render();
    this.t.render('shared'); // the Table's "Use a Scheme die", and the forms' Pay the Price lists
  }

  hostPeer() {
    return this.peers.role === 'player' ? (this.peers.list().find((p) => p.state === 'open') ?? null) : null;
  }

  /** Send the Host every logged roll that waits for it, oldest first (each once on this connection), once its table
   * came: a roll made for another Host's table waits for that one. */
  async flush() {
    const host = this.hostPeer();
    if (!host || !this.tableOn) return;
    const all = this.t.store.list('log:');
    const stepsOf = shareSteps(all);
    for (const [id, e] of all) {
      if (e.live?.state !== 'waiting' || this.sentOn.has(id)) continue;
      if (e.live.table && e.live.table !== this.tableOn) continue; // rolled for another Host's table
      this.sentOn.add(id);
      const steps = stepsOf(id);
      try {
        if (!steps) throw new Error('its roll is no longer in this log');
        const [first] = steps;
        const sent = await this.t.arbiter.liveRoll(
          e.system,
          first.request,
          linkSteps(steps),
          first.character?.name ?? yourName(),
          Math.floor(Date.parse(first.time) / 1000),
        );
        this.sending.set(sent.id, id);
        if (!this.peers.send(host.id, sent.text)) this.sentOn.delete(id); // closed meanwhile: sent on reconnect
      } catch (error) {
        await this.mark(id, 'refused', `Not sent to the Host: ${error.message}`);
      }
    }
  }

  async mark(logId, state, words = '') {
    await this.t.store.update(`log:${logId}`, (e) => ({
      ...e,
      live: { ...e.live, state, words: words.slice(0, WORDS.max_len) },
    }));
  }

  // --- the Host's side -----------------------------------------------------------------------------------------------

  /** This table's shared state to the players: to those not yet told, or to all when it changed (`all`). */
  async push(all = true) {
    if (this.peers.role !== 'host') return;
    const open = this.peers.list().filter((p) => p.state === 'open' && (all || !this.told.has(p.id)));
    if (!open.length) return;
    const price = this.t.situations.price();
    if (!price) return;
    const { text } = await this.t.arbiter.liveTable(this.t.shared.scheme(), price, hostTableId());
    for (const p of open) if (this.peers.send(p.id, text)) this.told.add(p.id);
  }

  /** A player's roll added to this table with no tap, or refused; the answer goes back to the player. */
  async add(from, text) {
    const scheme = this.t.shared.scheme();
    const holds = {
      table: { character: null, scheme },
      marked: this.t.situations.current()?.marked ?? [],
      seen: this.t.received.seen(),
    };
    const read = await this.t.arbiter.liveRead(text, holds);
    const who = this.peers.list().find((p) => p.id === from)?.name || 'A player';
    if (read.kind === 'roll' && read.added.refused) this.hear(`${read.shared.who || who}: ${read.added.refused.words}`);
    else if (read.kind === 'roll' && read.added.entries.length) {
      await this.t.received.keep(read.shared, read.added, null, scheme);
    } else if (read.kind === 'bad') this.hear(`From ${who}: ${read.words}`);
    this.peers.send(from, read.reply);
  }

  // --- both ----------------------------------------------------------------------------------------------------------

  /** A message from `id`: on the Host's phone a player's roll; on a player's, the Host's table or its answer. */
  async read({ id, text }) {
    if (this.peers.role === 'host') return this.add(id, text);
    const read = await this.t.arbiter.liveRead(text, null);
    if (read.kind === 'table') {
      this.hostTable = { scheme: read.scheme, price: read.price };
      this.tableOn = read.table;
      sessionStorage.setItem(TABLE, read.table); // what lands from now on is for this table, through a reload too
      this.render();
      this.t.render('shared'); // the Table's "Use a Scheme die", and the forms' Pay the Price lists (on its flush)
      this.t.page.port.recheck(); // the forms' checks: against the Host's table now
      await this.flush(); // what waits for this table
    } else if (read.kind === 'added' || read.kind === 'refused') {
      const logId = this.sending.get(read.id);
      this.sending.delete(read.id);
      if (logId && this.t.store.get(`log:${logId}`)) await this.mark(logId, read.kind, read.words ?? '');
      else if (read.kind === 'refused') this.hear(`The Host: ${read.words}`);
    } else this.hear(read.words);
  }

  /** Who is connected changed: a new connection sends what waits (player) or this table's state (Host). */
  async peersChanged() {
    const open = new Set(
      this.peers
        .list()
        .filter((p) => p.state === 'open')
        .map((p) => p.id),
    );
    for (const id of this.told) if (!open.has(id)) this.told.delete(id);
    const hostThere = Boolean(this.hostPeer());
    if (hostThere && !this.hostWas) {
      // a new connection: what waits goes again, once this Host's table has come (it may be another Host's)
      this.sentOn.clear();
      this.tableOn = null;
      sessionStorage.removeItem(TABLE);
    }
    this.hostWas = hostThere;
    this.render();
    this.t.render('shared'); // joined or left: whose Scheme and marks the Table and the forms show
    await this.push(false);
    await this.flush();
  }

  hear(words) {
    this.heard = [{ words }, ...this.heard].slice(0, HEARD);
    this.t.say(words, true);
    this.render();
  }

  render() {
    swap(this.root, this.view());
  }

  view() {
    const heard = this.heard.length
      ? h(
          'ul',
          { class: 'live-heard', 'data-live-heard': this.heard.length },
          this.heard.map(({ words }) => h('li', { class: 'field-error', 'data-live-refusal': '' }, words)),
        )
      : null;
    if (this.peers.role === 'player' && this.hostTable) {
      const { scheme, price } = this.hostTable;
      const [current] = price.situations;
      const options = this.t.situations.options();
      const marks = current.marked.map((m) => `${options[m.option] ?? m.option} (${m.by ?? 'someone'})`);
      return [
        h('h3', {}, 'The Host’s table'),
        h(
          'p',
          { 'data-live-host-scheme': scheme.scheme },
          scheme.tracked === false
            ? 'The Host’s Scheme: kept elsewhere'
            : `The Host’s Scheme: ${plural(scheme.scheme, 'die', 'dice')}`,
        ),
        h(
          'p',
          { 'data-live-host-marked': JSON.stringify(current.marked) },
          `The Host’s Situation: ${current.name || '(unnamed)'}. `,
          marks.length ? `Marked: ${marks.join(' · ')}` : 'Nothing marked.',
        ),
        h(
          'p',
          { class: 'muted' },
          'While joined, your rolls are checked against the Host’s table and reach the Host as they land.',
        ),
        heard,
      ];
    }
    if (this.peers.role === 'host') {
      return [
        h('p', { class: 'muted', 'data-live-hosting': '' }, 'Each player’s roll is added to this log as it lands.'),
        heard,
      ];
    }
    return heard ? [heard] : [];
  }
}
