// The Share sheet (issue 22): a roll, or the table's shared state, as a link to this page with what it holds in the
// fragment (which never reaches any server), its QR code to scan across the table, Copy, and the system's own Share
// where the browser has the Web Share API. What goes in the link is the engine's (arbiter.api.share_link,
// share_table): this module only shows it. The QR encoder (./qr.js) is loaded the first time a code is drawn.
import { showDialog } from '../back.js';
import { h } from '../dom.js';
import { yourName } from '../settings.js';
import { codeCycle } from './cycle.js';
import { linkTo } from '../views.js';

/** What a shared roll's link holds, and what it proves (README, "Play as a group"). */
export const SHARE_ABOUT =
  'It holds the request, the faces, who and when: the phone that opens it works the outcome out again. It proves ' +
  'the outcome follows from the faces, not that they were rolled.';

/** Share a roll of `system` (its request as rolled, each step's faces — [{drawn}, then {action, drawn}], each with
 * whose dice it used, its `source`: 'app' or 'table' — who rolled and when, in whole seconds):
 * its link made by the engine (arbiter.api.share_link, one request), then the sheet. A roll made as nobody (`who`
 * null) goes as this device's name (Settings, "Your name"), if it has one. A tap on `button` meanwhile does nothing;
 * a refusal is thrown, for the caller to say where it is. */
export async function shareRoll(button, arbiter, { system, request, steps, who, time }) {
  if (button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  try {
    const link = await arbiter.shareLink(system, request, steps, who ?? yourName(), time);
    await openShareSheet({ title: 'Share this roll', link: linkTo('r', link.fragment), about: SHARE_ABOUT });
  } finally {
    button.removeAttribute('aria-disabled');
  }
}

let sheet = null; // the one <dialog>, made the first time it is opened

/** Open the sheet for `link` (the whole address), titled `title`, with `about` (a line of what the link holds and
 * what it proves) under it. The QR code comes once drawn. A link too long for one code is drawn as the texts
 * `codes()` gives, in turn, when it is given (a table's: codes.js tableCodes); else, or when `codes()` throws, the
 * sheet says why in words and keeps the link.
 *
 * Nothing moves under a thumb once the sheet is open: it sits at the foot of the screen, Copy and Done stay in its
 * foot (style.css: .sheet-foot), and the code's room is kept from the start — one code's, or a cycle of codes' with
 * its count and controls — so what the code pushes is only ever the title above it. */
export async function openShareSheet({ title, link, about, codes = null }) {
  sheet ??= makeSheet();
  const { dialog, body, foot } = sheet;
  const qrBox = h('div', { class: 'share-qr', 'data-qr-box': '' }, h('p', { class: 'muted' }, 'Drawing the QR code…'));
  const draw = await drawing(qrBox, link, title, codes);
  const copied = h('output', { class: 'muted share-copied', 'data-share-copied': '' });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = 'Link copied.';
    } catch {
      copied.textContent = 'This browser would not copy it: press on the link to copy it.';
    }
  };
  const system = navigator.share
    ? h(
        'button',
        {
          type: 'button',
          'data-share-system': '',
          onclick: () => navigator.share({ title, url: link }).catch(() => {}), // a cancelled share is no error
        },
        'Share…',
      )
    : null;
  body.replaceChildren(
    h('h2', { id: 'share-title' }, title),
    qrBox,
    h(
      'p',
      { class: 'share-link' },
      h('a', { href: link, 'data-share-link': '', rel: 'noopener', translate: 'no' }, link),
    ),
    h('p', { class: 'muted share-about' }, about),
  );
  foot.replaceChildren(
    copied,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', 'data-share-copy': '', onclick: copy }, 'Copy link'),
      system,
      h('button', { type: 'submit', class: 'primary', 'data-share-close': '' }, 'Done'),
    ),
  );
  showDialog(dialog); // Back closes it, and stays on the view (../back.js)
  try {
    qrBox.replaceChildren(await draw());
  } catch (error) {
    qrBox.replaceChildren(
      h('p', { class: 'muted', 'data-qr-none': '' }, `${error.message[0].toUpperCase()}${error.message.slice(1)}.`),
    );
  }
}

/** What draws `link`'s code (or `codes()`' codes, in turn, past one code): a function giving the element, or throwing
 * in words. The encoder is loaded first (by its address: the bundle leaves it a file of its own, loaded at the first
 * share), so that `qrBox` is marked as it will be filled — `data-codes` for a cycle — before the sheet opens. */
async function drawing(qrBox, link, title, codes) {
  try {
    const { qrCode, alphanumericCode, QR_BYTES } = await import(new URL('static/share/qr.js', document.baseURI).href);
    if (!codes || new TextEncoder().encode(link).length <= QR_BYTES)
      return () => qrCode(link, `QR code of the link: ${title}`);
    const texts = codes(); // throws in words past codes.js's CODES
    qrBox.dataset.codes = String(texts.length);
    return async () =>
      codeCycle(
        await Promise.all(
          texts.map((text, k) => alphanumericCode(text, `QR code ${k + 1} of ${texts.length}: ${title}`)),
        ),
      );
  } catch (error) {
    return () => Promise.reject(error);
  }
}

function makeSheet() {
  const body = h('div', { class: 'share-body' });
  const foot = h('div', { class: 'sheet-foot' });
  const dialog = h(
    'dialog',
    { class: 'share-sheet', 'data-share-sheet': '', 'aria-labelledby': 'share-title' },
    h('form', { method: 'dialog' }, body, foot),
  );
  document.body.append(dialog);
  return { dialog, body, foot };
}
