// Python's repr() of a JSON value, so that a refusal the page words itself reads exactly as arbiter.api words the same
// refusal ("got 'lots'", "got None", "got [1, 2]"). Pure.

// What str.isprintable() refuses beyond ASCII: other (Cc Cf Cs Co Cn) and separators (Zl Zp Zs) but the space.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const hex = (n, width) => n.toString(16).padStart(width, '0');

/** A string as Python writes it: single quotes unless it holds one and no double quote. */
function reprStr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const n = ch.codePointAt(0);
    if (ch === quote) out += `\\${ch}`;
    else if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (n < 0x20 || n === 0x7f) out += `\\x${hex(n, 2)}`;
    else if (n < 0x7f || !UNPRINTABLE.test(ch)) out += ch;
    else if (n <= 0xff) out += `\\x${hex(n, 2)}`;
    else if (n <= 0xffff) out += `\\u${hex(n, 4)}`;
    else out += `\\U${hex(n, 8)}`;
  }
  return out + quote;
}

/** A number as Python writes the int or float JSON gives it: floats below 1e-4 with an exponent of two digits. */
function reprNumber(n) {
  if (Number.isInteger(n) || Math.abs(n) >= 1e-4) return String(n);
  const [digits, exp] = n.toExponential().split('e');
  const e = Number(exp);
  return `${digits}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** repr(value); with `tuples`, lists are written as the tuples a parsed value holds ("(1, 2)", "(1,)"). */
export function repr(value, tuples = false) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'string') return reprStr(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => repr(v, tuples));
    if (!tuples) return `[${items.join(', ')}]`;
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  return `{${Object.entries(value)
    .map(([k, v]) => `${reprStr(k)}: ${repr(v, tuples)}`)
    .join(', ')}}`;
}

/** f"{value!r:.100}": the repr cut at 100 characters (code points, as Python counts them). */
export const repr100 = (value, tuples = false) => Array.from(repr(value, tuples)).slice(0, 100).join('');

/** A string's length as Python counts it: code points, not UTF-16 units. */
export const length = (s) => {
  let n = 0;
  for (const _ of s) n++; // eslint-disable-line no-unused-vars
  return n;
};
