// Receive a roll on this phone, a section of the Table view: "Scan a roll" reads a roll's QR code with the camera
// (camera.js, loaded by its address the first time a player scans: the build leaves it a file of its own, out of the
// table's bundle; its decoder, where the browser has no BarcodeDetector, is saved for offline use once the page is
// ready: py/tools/sw.py), "Paste a link" takes its link typed or pasted. Either way the roll's fragment (`#r=…`, or a
// table's `#t=…`) is found in the text (link.js finds where it may be, the engine says which piece is a link: one
// request) and becomes the page's address, and the page opens it from there (its router, main.js); a text with no
// link, or two different ones, is refused in words and nothing happens. A table too big for one code comes as
// numbered codes (codes.js), collected here in any order ("2 of 3 read", scanned or each pasted) until the table's
// fragment is whole. The camera stops when the Table view is left or the page is hidden.
//
//   table/index.js:  this.root.append(scanSection(arbiter));

import { openOver } from '../back.js';
import { h } from '../dom.js';
import { notices } from '../port.js';
import { Collector } from './codes.js';
import { NOT_A_LINK, chosen, linkPlaces, piecesOf } from './link.js';
import { isCode, whyNotCode } from '../live/signal.js';

export const NOT_A_ROLL = NOT_A_LINK;
/** camera.js, from the page's own address (the site may live under any sub-path). */
const CAMERA = 'static/share/camera.js';

/** Open the shared roll (or table) `fragment`: the page's router takes it from the address (in place of the
 * current history entry when `replace`: the scanner's, which Back would close). */
function open(fragment, replace = false) {
  if (replace) location.replace(fragment);
  else location.hash = fragment;
}

/** The link `text` names ({fragment}), or why it names none ({refused}): the engine checks link.js's pieces, the page
 * a live table's codes (../live/signal.js), and a bad one is refused saying what is wrong with it. */
export async function linkIn(text, arbiter) {
  const places = linkPlaces(text);
  if (!places.length) return { refused: NOT_A_LINK };
  const pieces = piecesOf(places);
  const found = chosen(places, pieces.length ? await arbiter.readLinks(pieces) : [], isCode);
  return found.refused === NOT_A_LINK ? { refused: whyNotCode(places) ?? NOT_A_LINK } : found;
}

class Receive {
  constructor(arbiter) {
    this.arbiter = arbiter;
    this.release = null; // while the camera is on: back.js's release of its history entry (Back stops it)
    this.camera = null; // camera.js's Camera, once a player has scanned
    this.alert = h('p', { class: 'field-error', role: 'alert', 'data-scan-alert': '' });
    this.codes = new Collector(); // a table's numbered codes, read in any order
    this.progress = h('p', { class: 'muted', role: 'status', 'data-scan-progress': '' });
    this.button = h('button', { type: 'button', 'data-scan': '', onclick: () => this.scan() }, 'Scan a roll');
    this.input = h('input', {
      type: 'text',
      id: 'paste-link',
      inputmode: 'url',
      autocomplete: 'off',
      spellcheck: 'false',
      'data-paste-link': '',
    });
    this.section = h(
      'section',
      { class: 'table-part', 'data-part': 'scan', 'aria-label': 'Receive a roll' },
      h('h3', {}, 'Receive a roll'),
      h('p', { class: 'muted' }, 'A roll shared from another phone: scan its QR code, or paste its link.'),
      h('div', { class: 'row' }, this.button),
      h(
        'form',
        { class: 'row', 'data-paste': '', onsubmit: (event) => this.paste(event) },
        h('label', { class: 'tf', for: 'paste-link' }, h('span', {}, 'Paste a link'), this.input),
        h('button', { type: 'submit', 'data-paste-open': '' }, 'Open'),
      ),
      this.progress,
      this.alert,
    );
    const stop = () => this.camera?.stop();
    notices.addEventListener('view', () => document.body.dataset.view !== 'table' && stop());
    document.addEventListener('visibilitychange', () => document.hidden && stop());
    addEventListener('pagehide', stop);
  }

  say(words) {
    this.alert.textContent = words;
  }

  async paste(event) {
    event.preventDefault();
    if (this.collected(this.input.value) !== null) {
      this.input.value = '';
      return;
    }
    const button = event.currentTarget.querySelector('[data-paste-open]');
    if (button.getAttribute('aria-disabled') === 'true') return; // one request a tap
    button.setAttribute('aria-disabled', 'true');
    try {
      const { fragment, refused } = await linkIn(this.input.value, this.arbiter);
      this.say(refused ?? '');
      if (!fragment) return;
      this.input.value = '';
      open(fragment);
    } catch (error) {
      this.say(error.message);
    } finally {
      button.removeAttribute('aria-disabled');
    }
  }

  /** One of a table's codes (codes.js) taken: "2 of 3 read" is said, and once all are read the table opens as its
   * link would (true); false while some are still to read; null when `text` is not such a code. */
  collected(text) {
    const got = this.codes.add(text);
    if (!got.code) return null;
    this.say('');
    this.progress.textContent = `${got.read} of ${got.n} read`;
    if (!got.fragment) return false;
    this.codes = new Collector();
    this.openHeld(`#t=${got.fragment}`);
    return true;
  }

  async scan() {
    this.say('');
    this.button.disabled = true;
    try {
      if (!this.camera) {
        const { Camera } = await import(new URL(CAMERA, document.baseURI).href);
        this.camera = new Camera({
          found: (text) => this.found(text),
          say: (words) => this.say(words),
          done: () => {
            this.button.disabled = false;
            this.release?.();
            this.release = null;
          },
        });
        this.button.parentElement.after(this.camera.frame);
      }
      await this.camera.start();
      if (this.camera.on && !this.release) this.release = openOver(() => this.camera.stop());
    } catch (error) {
      console.warn(error); // camera.js could not be loaded
      this.say(
        navigator.onLine
          ? 'Scanning could not start. Paste the roll’s link below instead.'
          : 'Scanning needs the network the first time. Paste the roll’s link below instead.',
      );
    } finally {
      this.button.disabled = Boolean(this.camera?.on);
    }
  }

  /** A code the camera read: a roll's (or a table's) link opens it (true), a table's numbered code is collected (the
   * camera goes on until every one is read), anything else is said and the camera goes on (false). */
  async found(text) {
    const part = this.collected(text);
    if (part !== null) return part; // the camera goes on until every code is read
    const { fragment, refused } = await linkIn(text, this.arbiter);
    this.say(refused ?? '');
    if (!fragment) return false;
    this.openHeld(fragment);
    return true;
  }

  /** Open `fragment`; a scan's history entry becomes the link's: Back then goes where it was. */
  openHeld(fragment) {
    const held = this.release;
    this.release = null;
    held?.({ keep: true });
    open(fragment, Boolean(held));
    return true;
  }
}

/** The Table's "Receive a roll" section: Scan a roll, Paste a link; `arbiter` checks what they find. */
export function scanSection(arbiter) {
  return new Receive(arbiter).section;
}
