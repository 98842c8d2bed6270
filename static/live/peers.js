// static/live/peers.js — one per page; knows nothing of rolls
//
//   export class Peers extends EventTarget {
//     role            // null | 'host' | 'player'
//     list()          // [{id, name, state: 'joining'|'open'|'closed'}]  (id: stable per join, a short random id)
//     send(id, text)  // to one peer over its open data channel (false if not open)
//     broadcast(text) // to every open peer (host)
//     // events: 'message' (detail {id, text}), 'peers' (the list changed: a join, a leave, a close)
//   }
//   export const peers = new Peers();   // handed to the parts that use it (main.js), never read via window
//
// A live table (issue 32) is a star of WebRTC data channels, one per player, all to the Host's phone, with no
// server: no ICE server is named, so nothing leaves the page's origin, and the phones reach each other only on one
// network (the same Wi-Fi, or the Host's hotspot). Each connection is made by two codes (./signal.js): the Host's join
// code (an offer, for one player: a fresh one after each join, up to MOST_PLAYERS), which a player opens or scans,
// and the player's answer, which the Host scans or pastes. Each code is made once the browser has gathered its
// addresses, so it holds them all (no trickling: there is nothing to trickle through). Besides the channel for the
// page's texts (`send`, 'message'), each connection has one of its own, for who is there (each phone's name) and a
// goodbye as a page goes, so the Host sees a player leave at once. This phone's part in a live table is kept in
// sessionStorage: after a reload it says how to join again (a connection cannot outlive its page, and nothing can
// rejoin by itself).
//
// Also dispatched: 'code' (the code this phone shows, or what it says, changed: `code`, `said`).

import { CodeError, WORD_OF, describe, fieldsOf, fromBase64url, idText, joinId, pack, readCode } from './signal.js';

/** The most players one Host takes, a connection each. */
export const MOST_PLAYERS = 6;
/** The most milliseconds a code waits for the browser to gather its addresses (a host candidate comes in a few). */
const GATHER_MS = 4000;
/** The two data channels of each connection, made on both sides at once (negotiated: no message opens them). */
const APP = { negotiated: true, id: 1 };
const CONTROL = { negotiated: true, id: 0 };
/** The most characters of a control message, and of a name in one. */
const CONTROL_CHARS = 1024;
export const NAME_CHARS = 40;
/** Where this page's part in a live table is kept across a reload. */
const KEPT = 'arbiter-live';

export const REJOIN =
  'This page reloaded, and a reload leaves the live table: ask the Host for a fresh code and scan it here.';
export const HOST_RELOADED =
  'This page reloaded, and a reload ends the live table: start it again and give each player a fresh code.';
export const HOST_LEFT = 'The Host’s phone left the live table: ask the Host for a fresh code to join again.';
export const FULL = `${MOST_PLAYERS} players have joined: the table is full.`;
export const NOT_HOSTING =
  'This phone hosts no live table: an answer code is for the Host’s phone, which showed the join code.';
export const HOSTING = 'This phone hosts the live table: a join code is for a player’s phone.';
export const OTHER_CODE =
  'This answer is for another join code: the player must scan the code this phone shows now, and answer it.';
export const JOINED = 'Joined the live table.';
export const TAKEN = 'This answer code was taken already.';

/** `pc`'s addresses all gathered (or GATHER_MS gone by). */
function gathered(pc) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, GATHER_MS);
    if (pc.iceGatheringState === 'complete') done();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && done());
    pc.addEventListener('icecandidate', (event) => event.candidate === null && done());
  });
}

export class Peers extends EventTarget {
  /** `RTC` the RTCPeerConnection to use, `storage` where this page's part is kept (sessionStorage). */
  constructor({ RTC = globalThis.RTCPeerConnection, storage = globalThis.sessionStorage } = {}) {
    super();
    this.RTC = RTC;
    this.storage = storage;
    this.role = null;
    this.code = null; // the code this phone shows now: {word: 'j' | 'a', text}
    this.said = null; // what this phone says of the live table: {text, error}
    this.peers = new Map(); // id → {id, name, state, pc, app, control}
    this.pending = null; // the Host's join code not yet answered: {id, pc, app, control}
    this.nameOf = () => null; // this phone's player's name (main.js hands Settings' "Your name")
    this.joins = 0; // players joined so far (a player with no name is "Player N")
    this.afterReload();
    globalThis.addEventListener?.('pagehide', () => this.goodbye());
  }

  /** [{id, name, state}] of every peer this phone has met in this live table, in join order. */
  list() {
    return [...this.peers.values()].map(({ id, name, state }) => ({ id, name, state }));
  }

  /** The peers whose data channel is open. */
  get open() {
    return this.list().filter((p) => p.state === 'open');
  }

  /** Send `text` to peer `id` over its open data channel: false if it is not open. */
  send(id, text) {
    const peer = this.peers.get(id);
    if (peer?.state !== 'open' || peer.app.readyState !== 'open') return false;
    peer.app.send(String(text));
    return true;
  }

  /** Send `text` to every open peer; how many it went to. */
  broadcast(text) {
    return [...this.peers.keys()].filter((id) => this.send(id, text)).length;
  }

  // --- the Host ------------------------------------------------------------------------------------------------------

  /** Start a live table on this phone (it becomes the Host): a join code for one player is shown. */
  async host() {
    if (this.role === 'host') return;
    this.leave();
    this.role = 'host';
    this.keep({ role: 'host' });
    this.say(null);
    await this.offerNext();
  }

  /** A fresh join code, unless MOST_PLAYERS are joining or joined (then the table is full, said). */
  async offerNext() {
    if (this.role !== 'host' || this.pending) return;
    const live = this.list().filter((p) => p.state !== 'closed').length;
    if (live >= MOST_PLAYERS) {
      this.show(null, { text: FULL, error: false });
      return;
    }
    const join = joinId();
    const peer = this.connection(idText(join));
    this.pending = peer;
    const said = this.said; // what was said before this code: gone with it; a refusal said meanwhile stays
    try {
      await peer.pc.setLocalDescription(await peer.pc.createOffer());
      await gathered(peer.pc);
      if (this.pending !== peer) return; // the table ended meanwhile
      const text = pack(fieldsOf('offer', peer.pc.localDescription.sdp), join);
      this.show({ word: WORD_OF.offer, text }, this.said === said ? null : this.said);
    } catch (error) {
      this.failed(error);
    }
  }

  /** The player's answer code `text` (`#a=…`): the connection its join code began is made. */
  async accept(text) {
    const fields = readCode('a', text);
    if (this.role !== 'host') throw new CodeError(NOT_HOSTING);
    if (this.peers.has(fields.join)) throw new CodeError(TAKEN);
    const peer = this.pending;
    if (peer?.id !== fields.join) throw new CodeError(OTHER_CODE);
    this.pending = null;
    this.code = null;
    this.joins += 1;
    peer.name = `Player ${this.joins}`;
    this.peers.set(peer.id, peer);
    this.changed();
    await peer.pc.setRemoteDescription(describe(fields));
    await this.offerNext(); // a fresh code for the next player
  }

  // --- a player ------------------------------------------------------------------------------------------------------

  /** The Host's join code `text` (`#j=…`): this phone joins as a player, and shows its answer for the Host. */
  async join(text) {
    const fields = readCode('j', text);
    if (this.role === 'host') throw new CodeError(HOSTING);
    if (this.peers.get(fields.join)?.state === 'joining' && this.code) return; // the same link opened again
    this.leave();
    this.role = 'player';
    const peer = this.connection(fields.join);
    peer.name = 'Host';
    this.peers.set(peer.id, peer);
    this.keep({ role: 'player', join: peer.id });
    this.say(null);
    this.changed();
    await peer.pc.setRemoteDescription(describe(fields));
    await peer.pc.setLocalDescription(await peer.pc.createAnswer());
    await gathered(peer.pc);
    if (this.peers.get(peer.id) !== peer || peer.state !== 'joining') return;
    const answer = pack(fieldsOf('answer', peer.pc.localDescription.sdp), fromBase64url(peer.id));
    this.show({ word: WORD_OF.answer, text: answer }, this.said); // a refusal said meanwhile stays
  }

  // --- both ----------------------------------------------------------------------------------------------------------

  /** A code opened by link, scan or paste ({word: 'j' | 'a', text}): joined or accepted; a refusal is said. */
  async opened({ word, text }) {
    try {
      if (word === WORD_OF.offer) await this.join(text);
      else await this.accept(text);
    } catch (error) {
      this.failed(error);
    }
  }

  /** Leave (a player) or end (the Host) the live table: every connection closed, nothing kept. */
  leave() {
    this.goodbye();
    this.peers.clear();
    this.pending = null;
    this.role = null;
    this.code = null;
    this.joins = 0;
    this.keep(null);
    this.changed();
  }

  /** Tell every peer this page is going, and close each connection. */
  goodbye() {
    for (const peer of [...this.peers.values(), this.pending].filter(Boolean)) {
      if (peer.control.readyState === 'open') peer.control.send(JSON.stringify({ bye: true }));
      peer.pc.close();
      peer.state = 'closed';
    }
  }

  /** A new RTCPeerConnection for peer `id`, with no ICE server (nothing leaves the page's origin) and its two
   * channels. */
  connection(id) {
    const pc = new this.RTC({ iceServers: [] });
    const peer = {
      id,
      name: '',
      state: 'joining',
      pc,
      app: pc.createDataChannel('arbiter', APP),
      control: pc.createDataChannel('peers', CONTROL),
    };
    peer.control.addEventListener('open', () => {
      peer.control.send(JSON.stringify({ hello: this.nameOf() ?? '' }));
    });
    peer.control.addEventListener('message', (event) => this.heard(peer, event.data));
    peer.app.addEventListener('open', () => {
      peer.state = 'open';
      if (this.role === 'player') this.show(null, { text: JOINED, error: false });
      this.changed();
    });
    peer.app.addEventListener('message', (event) => {
      if (typeof event.data === 'string' && peer.state === 'open') {
        this.dispatchEvent(new CustomEvent('message', { detail: { id, text: event.data } }));
      }
    });
    const closed = () => this.closed(peer);
    peer.app.addEventListener('close', closed);
    pc.addEventListener('connectionstatechange', () => ['failed', 'closed'].includes(pc.connectionState) && closed());
    return peer;
  }

  /** A control message from `peer`: its name ({hello}), or its goodbye ({bye}); anything else is ignored (noted). */
  heard(peer, data) {
    let message = null;
    try {
      message = typeof data === 'string' && data.length <= CONTROL_CHARS ? JSON.parse(data) : null;
    } catch {
      message = null;
    }
    if (message?.bye === true) {
      peer.pc.close();
      this.closed(peer);
    } else if (typeof message?.hello === 'string') {
      const name = message.hello.trim().slice(0, NAME_CHARS);
      if (name) peer.name = name;
      this.changed();
    } else console.warn(`live table: a control message of ${peer.name} ignored`);
  }

  /** `peer`'s connection is gone: shown as left; the Host offers a fresh code if it had room no more. */
  closed(peer) {
    if (peer.state === 'closed' || this.peers.get(peer.id) !== peer) return;
    peer.state = 'closed';
    if (this.role === 'player') this.show(null, { text: HOST_LEFT, error: true });
    this.changed();
    if (this.role === 'host' && !this.pending) this.offerNext();
  }

  // --- what this phone shows -----------------------------------------------------------------------------------------

  /** Show `code` (or none) and `said` (or nothing). */
  show(code, said) {
    this.code = code;
    this.said = said;
    this.dispatchEvent(new Event('code'));
  }

  say(said) {
    this.show(this.code, said);
  }

  failed(error) {
    if (!(error instanceof CodeError)) console.warn(error);
    this.say({ text: error.message, error: true });
  }

  changed() {
    this.dispatchEvent(new Event('peers'));
  }

  /** Keep this page's part (`part`, or nothing) for after a reload. */
  keep(part) {
    try {
      if (part) this.storage?.setItem(KEPT, JSON.stringify(part));
      else this.storage?.removeItem(KEPT);
    } catch {
      // storage refused (a private window): a reload then says nothing of the live table
    }
  }

  /** This page's part in a live table as kept (a reload keeps it; leaving or ending forgets it): {role, join?} or
   * null. */
  kept() {
    try {
      return JSON.parse(this.storage?.getItem(KEPT) ?? 'null');
    } catch {
      return null;
    }
  }

  /** After a reload: what this page was in a live table, and how to join again. */
  afterReload() {
    const part = this.kept();
    if (part?.role === 'player') this.said = { text: REJOIN, error: true };
    if (part?.role === 'host') this.said = { text: HOST_RELOADED, error: true };
  }
}

export const peers = new Peers();
