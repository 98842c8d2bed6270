// A QR code of a text (a shared roll's link), as an SVG the player can hold up across a table: 288 CSS px square,
// dark modules on white with a 4-module quiet zone (whatever the page's theme), drawn as squares of a viewBox so
// every module stays crisp at any zoom or pixel ratio. The encoder (lean-qr, pinned by py/tools/vendor.py) is
// loaded the first time a code is asked for, never with the page; the service worker saves it for offline use once
// the page is ready (py/tools/sw.py AFTER_READY), so a first share offline draws too. A table too big for one code is
// drawn as numbered codes (alphanumericCode, one per text of codes.js).
// The page imports this module by its address (below), so the build leaves it a file of its own, which the service
// worker precaches: when the encoder cannot be had, qrCode says so in words.
//
//   const { qrCode } = await import(new URL('static/share/qr.js', document.baseURI).href);  // a file of its own
//   const svg = await qrCode(link, 'QR code of the roll’s link');   // throws Error(TOO_LONG) past QR_BYTES
//
// Error correction: M, at the least (about 15 % of the code may be lost: glare on a phone's glass, a thumb over a
// corner, the moiré of a screen filmed by a camera). L (7 %) would make a 250-character link one version smaller (53
// modules instead of 61), not worth the margin; the encoder raises it further when that costs no extra modules.

/** Where the encoder is, from the page's own address (the site may live under any sub-path). */
const ENCODER = 'static/vendor/lean-qr.mjs';
/** The most bytes one code holds here, as the issue asks (about 500): version 17 at M at most (85 modules, 3.1 CSS px
 * a module at 288 px, 6 to 9 device pixels on a phone); a link is 130 to 300 characters (version 9 to 13). A longer
 * text is still one link: share that. */
export const QR_BYTES = 500;
export const TOO_LONG = 'too long for one code: share the link';
export const NOT_LOADED = 'the QR code could not be drawn: share the link';
export const OFFLINE = 'the QR code needs the network the first time: share the link';
/** A table's codes are version 15 at most (77 modules, 3.7 CSS px a module at 288 px): 600 alphanumeric characters
 * at error correction M. */
const MAX_VERSION = 15;
/** The modules of white around the code that a reader needs to find it. */
const QUIET = 4;
/** The code's side on screen, in CSS px. */
const SIDE = 288;
const SVG = 'http://www.w3.org/2000/svg';

let encoder = null;
/** The encoder's module, imported once (again after a failed import: offline before it was ever kept). */
function loadEncoder() {
  encoder ??= import(new URL(ENCODER, document.baseURI).href).catch((error) => {
    console.warn(error);
    encoder = null; // asked again next time
    throw new Error(navigator.onLine ? NOT_LOADED : OFFLINE);
  });
  return encoder;
}

/** The dark modules of `code` as one SVG path: a rectangle per run of dark modules on a row. */
function darkPath(code) {
  const runs = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; ) {
      if (!code.get(x, y)) {
        x++;
        continue;
      }
      let end = x + 1;
      while (end < code.size && code.get(end, y)) end++;
      runs.push(`M${x + QUIET} ${y + QUIET}h${end - x}v1h${x - end}z`);
      x = end;
    }
  }
  return runs.join('');
}

/** An `<svg data-qr role="img">` of `text`, named `label` for a screen reader; `data-modules` is the code's side in
 * modules. Throws Error(TOO_LONG) when `text` needs more than QR_BYTES bytes (UTF-8), Error(OFFLINE) when the encoder
 * was never fetched and the network is gone, Error(NOT_LOADED) when it could not be fetched otherwise: each message
 * in words the Share sheet can show as they are. */
export async function qrCode(text, label) {
  if (new TextEncoder().encode(text).length > QR_BYTES) throw new Error(TOO_LONG);
  const { generate, correction } = await loadEncoder();
  return svgOf(generate(text, { minCorrectionLevel: correction.M }), label);
}

/** The same, of one of a table's codes (./codes.js: at most CODE_CHARS characters of a QR code's alphanumeric mode):
 * error correction M, version 15 at most. Throws Error(TOO_LONG) past that. */
export async function alphanumericCode(text, label) {
  const { generate, correction, mode } = await loadEncoder();
  let code;
  try {
    code = generate(mode.alphaNumeric(text), {
      minCorrectionLevel: correction.M,
      maxCorrectionLevel: correction.M,
      maxVersion: MAX_VERSION,
    });
  } catch {
    throw new Error(TOO_LONG);
  }
  return svgOf(code, label);
}

/** `code` (the encoder's) as an `<svg data-qr role="img">` named `label`. */
function svgOf(code, label) {
  const side = code.size + 2 * QUIET;
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({
    viewBox: `0 0 ${side} ${side}`,
    width: SIDE,
    height: SIDE,
    role: 'img',
    'aria-label': label,
    'shape-rendering': 'crispEdges',
    'data-qr': '',
    'data-modules': code.size,
    class: 'qr',
  })) {
    svg.setAttribute(k, String(v));
  }
  Object.assign(svg.style, { maxWidth: '100%', height: 'auto' }); // never wider than a narrow screen
  const paper = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ width: side, height: side, fill: '#fff' })) paper.setAttribute(k, String(v));
  const ink = document.createElementNS(SVG, 'path');
  ink.setAttribute('d', darkPath(code));
  ink.setAttribute('fill', '#000');
  svg.append(paper, ink);
  return svg;
}
