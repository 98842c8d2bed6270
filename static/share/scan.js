// Receive a roll on this phone, a section of the Table view: "Scan a roll" reads a roll's QR code with the camera
// (camera.js, loaded by its address the first time a player scans: the build leaves it a file of its own, out of the
// table's bundle; its decoder, where the browser has no BarcodeDetector, is a lazy file: py/tools/sw.py), "Paste a
// link" takes its link typed or pasted. Either way the
// roll's fragment (`#r=…`, or a table's `#t=…`: link.js) becomes the page's address, and the page opens it from there
// (its router, main.js); anything else is refused in words and nothing happens. The camera stops when the Table view
// is left or the page is hidden.
//
//   table/index.js:  this.root.append(scanSection());

import { h } from '../dom.js';
import { sharedFragment } from './link.js';
import { notices } from '../port.js';

export const NOT_A_ROLL = 'That is not an Arbiter roll link.';
/** camera.js, from the page's own address (the site may live under any sub-path). */
const CAMERA = 'static/share/camera.js';

/** Open the shared roll (or table) `fragment`: the page's router takes it from the address. */
function open(fragment) {
  location.hash = fragment;
}

class Receive {
  constructor() {
    this.camera = null; // camera.js's Camera, once a player has scanned
    this.alert = h('p', { class: 'field-error', role: 'alert', 'data-scan-alert': '' });
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

  paste(event) {
    event.preventDefault();
    const fragment = sharedFragment(this.input.value);
    if (!fragment) {
      this.say(NOT_A_ROLL);
      return;
    }
    this.say('');
    this.input.value = '';
    open(fragment);
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
          },
        });
        this.button.parentElement.after(this.camera.frame);
      }
      await this.camera.start();
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

  /** A code the camera read: a roll's (or a table's) link opens it, anything else is said and the camera goes on. */
  found(text) {
    const fragment = sharedFragment(text);
    if (!fragment) {
      this.say(NOT_A_ROLL);
      return false;
    }
    this.say('');
    open(fragment);
    return true;
  }
}

/** The Table's "Receive a roll" section: Scan a roll, Paste a link. */
export function scanSection() {
  return new Receive().section;
}
