// The face pad (issue 21): the group rolls its own dice and types their faces in; Arbiter does the rules. The pad
// knows no rule: what is needed next (how many dice, of which die, for what) is the engine's answer to
// `needed(faces)` (arbiter.api.dice_needed), asked again after each batch. One large button per face of the die
// asked for, "3 of 7 d10" as it goes, Undo, and on a keyboard the digits (0 for a 10), Backspace and Escape. Each
// face entered shows on the tray at once (no tumble). Leaving the pad half-way rolls nothing and logs nothing. A die
// of more than MOST_BUTTONS sides (a d100) is typed as two taps, as a table reads its two d10: the tens (00 to 90),
// then the units (0 to 9); 00 and 0 are the die's last face (100).

import { h } from '../dom.js';

const MOST_BUTTONS = 20; // a die of up to this many sides has a button per face

/** The buttons of a d`sides`: one per face, or (more than MOST_BUTTONS) a row of tens and a row of units. */
function buttons(sides) {
  const button = (text, data) => h('button', { type: 'button', class: 'face', ...data }, text);
  if (sides <= MOST_BUTTONS) {
    return Array.from({ length: sides }, (_, i) => button(String(i + 1), { 'data-face': String(i + 1) }));
  }
  return [
    ...Array.from({ length: Math.ceil(sides / 10) }, (_, t) => button(`${t}0`, { 'data-tens': String(t * 10) })),
    ...Array.from({ length: 10 }, (_, u) => button(String(u), { 'data-units': String(u) })),
  ];
}

export class FacePad {
  /** A pad in `form`, placed before `before` (the Roll bar); `tray` shows each face as it is entered, and
   * `keepInView(pad)` is called once the tray has grown with it (the pad stays above the Roll bar). */
  constructor(form, tray, before, keepInView = () => {}) {
    this.tray = tray;
    this.keepInView = keepInView;
    this.say = h('p', { class: 'face-pad-for', 'data-face-for': '', 'aria-live': 'polite' });
    this.count = h('p', { class: 'face-pad-count', 'data-face-count': '' });
    this.faces = h('div', { class: 'face-pad-faces', role: 'group', 'aria-label': 'Faces' });
    this.undo = h('button', { type: 'button', class: 'face-pad-undo', 'data-face-undo': '' }, 'Undo');
    this.leave = h('button', { type: 'button', class: 'face-pad-leave', 'data-face-leave': '' }, 'Leave');
    this.root = h(
      'section',
      { class: 'face-pad', 'data-face-pad': '', hidden: true, tabindex: '-1', 'aria-label': 'Your dice' },
      this.say,
      this.count,
      this.faces,
      h('div', { class: 'face-pad-tools' }, this.undo, this.leave),
    );
    form.insertBefore(this.root, before);
    this.faces.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-face], button[data-tens], button[data-units]');
      if (button?.dataset.face) this.enter(Number(button.dataset.face));
      else if (button?.dataset.tens) this.tens(Number(button.dataset.tens));
      else if (button) this.units(Number(button.dataset.units));
    });
    this.undo.addEventListener('click', () => this.back());
    this.leave.addEventListener('click', () => this.finish(null));
    this.root.addEventListener('keydown', (event) => this.key(event));
    this.run = null;
  }

  get open() {
    return this.run !== null;
  }

  /** Collect faces until `needed(faces)` answers no more dice ({dice: 0}); resolves with every face entered, in the
   * order entered, or null when the player leaves the pad (the tray shows what it showed before). `shown`: the dice
   * on the tray to keep before the new ones (a follow-up's roll so far). */
  collect(needed, shown = []) {
    if (this.run) this.finish(null);
    return new Promise((resolve) => {
      this.run = { needed, shown, resolve, entered: [], batches: [], kept: this.tray.dice.map((d) => ({ ...d })) };
      this.root.hidden = false;
      this.draw();
      this.ask();
    });
  }

  /** Ask the engine what comes next for the faces entered so far: a new batch, or done. */
  async ask() {
    const run = this.run;
    this.root.dataset.asking = '';
    try {
      const next = await run.needed([...run.entered]);
      if (this.run !== run) return;
      if (!next.dice) return this.finish(run.entered);
      run.batches.push({ start: run.entered.length, ...next });
      this.show();
    } catch (error) {
      if (this.run !== run) return;
      this.say.textContent = error.message;
      this.say.dataset.refused = '';
    } finally {
      if (this.run === run) delete this.root.dataset.asking;
    }
  }

  batch() {
    return this.run.batches.at(-1);
  }

  /** The batch asked for: its words, its progress, a button for each face of its die. */
  show() {
    const b = this.batch();
    delete this.say.dataset.refused;
    this.say.textContent = `Roll ${b.dice} d${b.sides}: ${b.for}`;
    const k = this.run.entered.length - b.start;
    this.count.textContent = `${k} of ${b.dice} d${b.sides}`;
    if (this.root.dataset.sides !== String(b.sides)) this.faces.replaceChildren(...buttons(b.sides));
    this.root.dataset.sides = String(b.sides);
    const tens = this.run.tens;
    if (tens !== undefined) this.count.textContent += `: ${String(tens).padStart(2, '0')} and…`;
    for (const t of this.faces.querySelectorAll('button[data-tens]')) {
      t.setAttribute('aria-pressed', String(Number(t.dataset.tens) === tens));
    }
    this.undo.disabled = this.run.entered.length === 0;
    this.keepInView(this.root);
  }

  /** The dice on the tray: those kept before the pad, then every face entered, each on its own die. */
  draw() {
    const run = this.run;
    const sidesAt = (i) => run.batches.findLast((b) => b.start <= i).sides; // the batch the i-th face was typed in
    const typed = run.entered.map((face, i) => ({ face, sides: sidesAt(i), key: `typed:${i}` }));
    this.tray.update([...run.shown, ...typed]);
    this.keepInView(this.root);
  }

  /** A d100's first tap: its tens, kept until the units come (a second tens tap replaces it). */
  tens(t) {
    if (!this.run || 'asking' in this.root.dataset) return;
    this.run.tens = t;
    this.show();
  }

  /** A d100's second tap: the units, entered with the tens as one face (00 and 0: its last face); none without tens. */
  units(u) {
    const run = this.run;
    if (!run || run.tens === undefined) return;
    const face = run.tens + u || this.batch().sides;
    delete run.tens;
    if (face <= this.batch().sides) this.enter(face);
    else this.show();
  }

  enter(face) {
    const run = this.run;
    const b = run && this.batch();
    if (!b || 'asking' in this.root.dataset || !Number.isInteger(face)) return; // faces come from the die's buttons
    run.entered.push(face);
    this.draw();
    const left = b.dice - (run.entered.length - b.start);
    if (left) this.show();
    else this.ask();
  }

  /** Take back the last face entered (into the batch it belonged to). */
  back() {
    const run = this.run;
    if (run && run.tens !== undefined) {
      delete run.tens; // a d100's tens tapped without its units: taken back first
      return void this.show();
    }
    if (!run || !run.entered.length || 'asking' in this.root.dataset) return;
    while (run.batches.length > 1 && this.batch().start >= run.entered.length) run.batches.pop();
    run.entered.pop();
    this.draw();
    this.show();
  }

  /** Digits enter faces (0 for a d10's 10), Backspace takes one back, Escape leaves. */
  key(event) {
    if (!this.run) return;
    if (event.key === 'Escape') return void this.finish(null);
    if (event.key === 'Backspace') {
      event.preventDefault();
      return void this.back();
    }
    if (/^[0-9]$/.test(event.key)) {
      // a digit taps the first face ending in it: 1 is the 1, 0 a d10's 10; a digit no face ends in does nothing;
      // on a d100 the first digit is its tens, the second its units
      event.preventDefault();
      const d100 = this.faces.querySelector('button[data-units]');
      if (d100 && this.run.tens === undefined)
        this.faces.querySelector(`button[data-tens="${Number(event.key) * 10}"]`)?.click();
      else if (d100) this.faces.querySelector(`button[data-units="${event.key}"]`)?.click();
      else {
        const faces = [...this.faces.querySelectorAll('button[data-face]')];
        faces.find((b) => b.dataset.face.endsWith(event.key))?.click();
      }
    }
  }

  /** Close the pad with `faces` (complete) or null (left: the tray shows what it showed before). */
  finish(faces) {
    const run = this.run;
    if (!run) return;
    this.run = null;
    this.root.hidden = true;
    if (faces === null) this.tray.update(run.kept);
    run.resolve(faces);
  }
}
