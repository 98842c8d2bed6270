// A table's QR codes in turn, on the Share sheet (issue 30): one code at a time, the next every CYCLE_MS, with "k of
// n" under it, and Previous, Pause (Play) and Next to step through by hand: a scanner collects them in any order
// (scan.js), so a code it missed comes round again. The cycling stops once the element has left the page or its
// sheet is closed.
//
//   qrBox.replaceChildren(codeCycle(svgs));   // svgs: one <svg data-qr> per code (qr.js alphanumericCode)
import { h } from '../dom.js';

/** How long each code stays: about the time a phone's scanner takes to find and read one. */
export const CYCLE_MS = 800;

/** The element that shows `svgs` in turn, starting with the first. */
export function codeCycle(svgs) {
  let at = 0;
  let timer = 0;
  const holder = h('div', { class: 'qr-cycle-code' }, svgs[0]);
  const count = h('p', { class: 'qr-cycle-count', 'data-qr-count': '' });
  const play = h('button', { type: 'button', 'data-qr-play': '', onclick: () => toggle() });
  const el = h(
    'div',
    {
      class: 'qr-cycle',
      'data-qr-cycle': '',
      role: 'group',
      'aria-label': `${svgs.length} QR codes, read in any order`,
    },
    holder,
    count,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', 'data-qr-prev': '', onclick: () => step(-1) }, 'Previous'),
      play,
      h('button', { type: 'button', 'data-qr-next': '', onclick: () => step(1) }, 'Next'),
    ),
  );
  const show = (k) => {
    at = (k + svgs.length) % svgs.length;
    holder.replaceChildren(svgs[at]);
    count.textContent = `${at + 1} of ${svgs.length}`;
    el.dataset.at = String(at + 1);
  };
  const tick = () => {
    if (!el.isConnected || el.closest('dialog:not([open])'))
      stop(); // the sheet was closed, or drew something else
    else show(at + 1);
  };
  const start = () => {
    timer = setInterval(tick, CYCLE_MS);
    play.textContent = 'Pause';
  };
  const stop = () => {
    clearInterval(timer);
    timer = 0;
    play.textContent = 'Play';
  };
  const toggle = () => (timer ? stop() : start());
  /** A step by hand pauses the cycling: the player holds up the code they chose. */
  const step = (by) => {
    stop();
    show(at + by);
  };
  show(0);
  start();
  return el;
}
