// The Table's "Live table" section (issue 32): Start a live table (this phone becomes the Host), the code this phone
// shows (the Host's join code for one player, `[data-live-offer]`, or a player's answer for the Host,
// `[data-live-answer]`: its QR code, drawn by ../share/qr.js as the Share sheet draws one, and its link), what this
// phone says of the table (joined, refused, how to join again after a reload), and who is connected
// (`[data-live-peers]`, `data-count` the open ones). It draws what ./peers.js holds, again at each of its events.
//
//   table/index.js:  liveSection(page.peers)

import { h, swap } from '../dom.js';
import { linkTo } from '../views.js';
import { MOST_PLAYERS } from './peers.js';

/** Where a live table works, and what to use where it does not: the Start screen's sentence (docs/features.md, "Live
 * table"). */
export const WHERE =
  'A live table works between phones on the same Wi-Fi or on the Host’s hotspot; on a guest Wi-Fi that keeps ' +
  'devices apart, or on mobile data, share each roll by its link or QR code instead (they keep working beside it).';

const STATES = { joining: 'joining…', open: 'connected', closed: 'left' };

/** What a code is for, said above it: the Host's join code, a player's answer. */
const ABOUT = {
  j: 'A join code for one player: scan it in Arbiter (Table → Scan a roll), or open its link on the player’s phone.',
  a: 'Show this answer to the Host, who scans it in Arbiter (Table → Scan a roll) or pastes its link there.',
};

class Panel {
  constructor(peers) {
    this.peers = peers;
    this.qr = { link: null, box: null }; // the code drawn last, kept across redraws
    this.asking = false; // Leave (End) tapped while connected: asked once more, as a stray tap drops the connections
    this.section = h('section', { class: 'table-part', 'data-part': 'live', 'aria-label': 'Live table' });
    peers.addEventListener('peers', () => this.draw());
    peers.addEventListener('code', () => this.draw());
    this.draw();
  }

  draw() {
    const { peers } = this;
    const list = peers.list();
    const open = list.filter((p) => p.state === 'open').length;
    const start = h(
      'button',
      { type: 'button', class: 'primary', 'data-live-host': '', onclick: () => peers.host() },
      'Start a live table',
    );
    if (!peers.role || !open) this.asking = false;
    const leave = h(
      'button',
      { type: 'button', 'data-live-leave': '', onclick: () => (open ? this.ask() : peers.leave()) },
      peers.role === 'host' ? 'End the live table' : 'Leave the live table',
    );
    // swap leaves out what is not there (a null part) and keeps the focus on a control drawn again
    swap(this.section, [
      h('h3', {}, 'Live table'),
      peers.role
        ? null
        : h(
            'p',
            { class: 'muted', 'data-live-where': '' },
            `Every player’s roll on the Host’s phone as it lands, for up to ${MOST_PLAYERS} players. ${WHERE}`,
          ),
      peers.said
        ? h(
            'p',
            {
              class: peers.said.error ? 'field-error' : 'muted',
              role: peers.said.error ? 'alert' : 'status',
              'data-live-said': '',
            },
            peers.said.text,
          )
        : null,
      this.code(),
      h(
        'ul',
        { class: 'live-peers', 'data-live-peers': '', 'data-count': open, 'aria-label': 'Who is connected' },
        list.map(({ id, name, state }) =>
          h('li', { 'data-peer': id, 'data-state': state }, `${name}: ${STATES[state]}`),
        ),
      ),
      this.asking ? this.question(open) : h('div', { class: 'row' }, peers.role ? leave : start),
    ]);
  }

  /** Leave (End) tapped while connected: ask again; one more tap on "Keep" (focused) or "End" answers. */
  ask() {
    this.asking = true;
    this.draw();
    this.section.querySelector('[data-live-keep]')?.focus();
  }

  /** The question Leave (End) asks while `open` connections would be dropped, and its two answers. */
  question(open) {
    const host = this.peers.role === 'host';
    const again = host ? 'each needs a fresh code to join again' : 'joining again needs a fresh code from the Host';
    const who = host ? `${open} ${open === 1 ? 'player is' : 'players are'} connected` : 'You are connected';
    const answer = (yes) => () => {
      this.asking = false;
      if (yes) this.peers.leave();
      else this.draw();
    };
    // the answers first, "Keep" where the button was: a double tap's second tap lands on it
    return h(
      'div',
      { class: 'live-ask', role: 'group', 'aria-label': host ? 'End the live table?' : 'Leave the live table?' },
      h(
        'div',
        { class: 'row' },
        // as wide as the button it replaces, at least (its words longer): a second tap anywhere on that lands here
        h(
          'button',
          { type: 'button', 'data-live-keep': '', onclick: answer(false) },
          host ? 'Keep the live table' : 'Stay at the live table',
        ),
        h(
          'button',
          { type: 'button', 'data-live-end': '', onclick: answer(true) },
          host ? 'End it for everyone' : 'Leave',
        ),
      ),
      h(
        'p',
        { 'data-live-ask': '', role: 'status' },
        `${host ? 'End the live table?' : 'Leave the live table?'} ${who}: ${again}.`,
      ),
    );
  }

  /** The code this phone shows, with what it is for, its QR code and its link; null when none. */
  code() {
    const { code } = this.peers;
    if (!code) return null;
    const link = linkTo(code.word, code.text);
    if (this.qr.link !== link) this.qr = { link, box: this.drawQr(link, code.word) };
    return h(
      'div',
      { class: 'live-code', [code.word === 'j' ? 'data-live-offer' : 'data-live-answer']: '' },
      h('p', {}, ABOUT[code.word]),
      this.qr.box,
      h(
        'p',
        { class: 'share-link' },
        h('a', { href: link, 'data-live-link': '', rel: 'noopener', translate: 'no' }, link),
      ),
    );
  }

  /** A box that gets `link`'s QR code once drawn (the encoder is loaded the first time), or says why not. */
  drawQr(link, word) {
    const box = h('div', { class: 'share-qr' }, h('p', { class: 'muted' }, 'Drawing the QR code…'));
    const label = word === 'j' ? 'QR code of the join code' : 'QR code of the answer for the Host';
    // by its address: the bundle leaves it a file of its own (as the Share sheet loads it)
    import(new URL('static/share/qr.js', document.baseURI).href)
      .then(({ qrCode }) => qrCode(link, label))
      .then(
        (svg) => box.replaceChildren(svg),
        (error) => box.replaceChildren(h('p', { class: 'muted', 'data-qr-none': '' }, `${error.message}.`)),
      );
    if (word === 'a') requestAnimationFrame(() => this.section.scrollIntoView({ block: 'start' }));
    return box;
  }
}

/** The Table's Live table section, drawn from `peers` (./peers.js). */
export function liveSection(peers) {
  return new Panel(peers).section;
}
