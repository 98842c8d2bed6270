// A shared table as a numbered sequence of QR codes, and back (issue 30): the bytes the engine packed for a link
// (py/arbiter/share.py: its JSON deflated, which the `#t=` fragment holds in base64url) written in base45 (RFC 9285),
// whose 45 characters are exactly a QR code's alphanumeric mode (5.5 bits a character, against 8 for a byte), cut
// into at most CODES parts, each framed with the share's id and "k of n":
//
//   ARBT1/<id, 12 hex digits in capitals>/<k>/<n>/<base45 of the k-th part of the bytes>
//
// This is transport only, as the QR code itself is: what the bytes hold is the engine's, and a table rebuilt from
// scanned codes is the same fragment a link gives, checked by the engine when the page opens it (its id covers every
// record). Knows nothing of the page; tested by tests/js/codes.test.mjs.

/** The alphanumeric characters of a QR code, in base45's order (RFC 9285, section 4). */
const BASE45 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
/** The most characters one code holds here: version 15 at error correction M, in alphanumeric mode. */
export const CODE_CHARS = 600;
/** The most codes a table goes in: past that, share the link. */
export const CODES = 8;
const PREFIX = 'ARBT1/';
const FRAME = /^ARBT1\/([0-9A-F]{12})\/([1-9][0-9]?)\/([1-9][0-9]?)\/([0-9A-Z $%*+\-./:]*)$/;
/** The header's length: the prefix, the id, two one-digit numbers and the slashes. */
const HEADER_CHARS = PREFIX.length + 12 + 1 + 1 + 1 + 1 + 1;
/** The most bytes one code carries: base45 writes 2 bytes in 3 characters. */
export const PART_BYTES = Math.floor((CODE_CHARS - HEADER_CHARS) / 3) * 2;
export const TOO_MANY = `too big for ${CODES} codes: share the link`;

/** `bytes` (a Uint8Array) in base45. */
export function base45(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 2) {
    if (i + 1 < bytes.length) {
      let n = bytes[i] * 256 + bytes[i + 1];
      for (let k = 0; k < 3; k++, n = Math.floor(n / 45)) out += BASE45[n % 45];
    } else {
      out += BASE45[bytes[i] % 45] + BASE45[Math.floor(bytes[i] / 45)];
    }
  }
  return out;
}

/** The bytes of base45 `text`; null when it is not base45. */
export function unbase45(text) {
  if (text.length % 3 === 1) return null;
  const out = [];
  for (let i = 0; i < text.length; i += 3) {
    const digits = [...text.slice(i, i + 3)].map((c) => BASE45.indexOf(c));
    if (digits.includes(-1)) return null;
    const n = digits.reduceRight((sum, d) => sum * 45 + d, 0);
    if (digits.length === 3) {
      if (n > 0xffff) return null;
      out.push(n >> 8, n & 0xff);
    } else {
      if (n > 0xff) return null;
      out.push(n);
    }
  }
  return Uint8Array.from(out);
}

/** The bytes a base64url fragment holds. */
function fromBase64url(fragment) {
  const binary = atob(fragment.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** `bytes` as a fragment, as the engine writes it (base64url, no padding). */
function toBase64url(bytes) {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The texts of the codes of a table's `fragment` (base64url, as api.share_table makes it) whose id is `id`: parts
 * of even size, as equal as they can be, each at most CODE_CHARS characters. Throws Error(TOO_MANY) past CODES. */
export function tableCodes(id, fragment) {
  if (!/^[0-9a-f]{12}$/.test(id)) throw new Error(`a table's id must be 12 hex digits, got ${id}`);
  const bytes = fromBase64url(fragment);
  const n = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  if (n > CODES) throw new Error(TOO_MANY);
  const size = Math.ceil(bytes.length / n / 2) * 2;
  return Array.from(
    { length: n },
    (_, k) => `${PREFIX}${id.toUpperCase()}/${k + 1}/${n}/${base45(bytes.subarray(k * size, (k + 1) * size))}`,
  );
}

/** One code's frame read: {id, k, n, bytes}; null when `text` is not a table's code. */
export function readCode(text) {
  const m = typeof text === 'string' ? FRAME.exec(text.trim()) : null;
  if (!m) return null;
  const [k, n] = [Number(m[2]), Number(m[3])];
  const bytes = unbase45(m[4]);
  if (n > CODES || k > n || bytes === null) return null;
  return { id: m[1].toLowerCase(), k, n, bytes };
}

/** The codes of one table collected in any order: add(text) says what a code read was, and once every part of one
 * share is in, the table's fragment. A code of another share starts the collection again from it. */
export class Collector {
  constructor() {
    this.id = null;
    this.parts = new Map();
    this.n = 0;
  }

  /** {code: false} for a text that is not a table's code; else {code: true, read, n, fragment (once all are in, else
   * null)}. */
  add(text) {
    const code = readCode(text);
    if (!code) return { code: false };
    if (code.id !== this.id || code.n !== this.n) {
      this.id = code.id;
      this.n = code.n;
      this.parts.clear();
    }
    this.parts.set(code.k, code.bytes);
    const read = this.parts.size;
    if (read < this.n) return { code: true, read, n: this.n, fragment: null };
    const whole = new Uint8Array([...this.parts.keys()].sort((a, b) => a - b).flatMap((k) => [...this.parts.get(k)]));
    return { code: true, read, n: this.n, fragment: toBase64url(whole) };
  }
}
