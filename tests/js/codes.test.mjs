// static/share/codes.js: a shared table's bytes in base45 (RFC 9285) cut into framed QR codes, and collected back in
// any order into the same fragment.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';

import {
  base45,
  CODE_CHARS,
  CODES,
  Collector,
  PART_BYTES,
  readCode,
  TOO_MANY,
  tableCodes,
  unbase45,
} from '../../static/share/codes.js';

const ID = '0123456789ab';
const bytesOf = (s) => new TextEncoder().encode(s);
const fragmentOf = (bytes) => Buffer.from(bytes).toString('base64url');
/** A fragment as the engine makes one: JSON deflated, in base64url (random bytes: deflate cannot shrink them). */
const fragmentOfSize = (n) => fragmentOf(deflateSync(randomBytes(n), { level: 9 }));
const ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/;

describe('base45', () => {
  it('writes the examples of RFC 9285, section 4.3, and reads them back', () => {
    for (const [text, code] of [
      ['AB', 'BB8'],
      ['Hello!!', '%69 VD92EX0'],
      ['base-45', 'UJCLQE7W581'],
      ['ietf!', 'QED8WEX0'],
    ]) {
      assert.equal(base45(bytesOf(text)), code);
      assert.deepEqual(unbase45(code), bytesOf(text));
    }
  });

  it('round-trips every length of random bytes, in characters a QR code holds in alphanumeric mode', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(randomBytes(n));
      const text = base45(bytes);
      assert.match(text, ALPHANUMERIC);
      assert.equal(text.length, Math.floor(n / 2) * 3 + (n % 2) * 2);
      assert.deepEqual(unbase45(text), bytes);
    }
  });

  it('refuses what is not base45: a stray character, a lone last character, a group past two bytes', () => {
    assert.equal(unbase45('bb8'), null);
    assert.equal(unbase45('BB8A'), null);
    assert.equal(unbase45('GGW'), null); // 65535 + 1
    assert.equal(unbase45('::'), null); // 2024 > 255
  });
});

describe('tableCodes', () => {
  it('one code for a small table, framed with its id (in capitals) and "1 of 1"', () => {
    const fragment = fragmentOf(deflateSync(bytesOf('{"k":"table"}')));
    const [code, ...more] = tableCodes(ID, fragment);
    assert.deepEqual(more, []);
    assert.ok(code.startsWith('ARBT1/0123456789AB/1/1/'));
    assert.match(code, ALPHANUMERIC);
  });

  it('past one code, parts of one size (the last no bigger), each within a version 15 code, at most 8', () => {
    for (const size of [PART_BYTES - 20, PART_BYTES + 20, 2358, PART_BYTES * CODES - 20]) {
      const fragment = fragmentOfSize(size);
      const codes = tableCodes(ID, fragment);
      const n = Math.ceil(Buffer.from(fragment, 'base64url').length / PART_BYTES);
      assert.equal(codes.length, n);
      assert.ok(codes.length <= CODES);
      codes.forEach((code, k) => {
        assert.ok(code.startsWith(`ARBT1/0123456789AB/${k + 1}/${n}/`));
        assert.ok(code.length <= CODE_CHARS, `${code.length} characters`);
        assert.match(code, ALPHANUMERIC);
      });
      const lengths = codes.map((c) => c.length);
      assert.ok(
        lengths.every((l) => l === lengths[0] || l === lengths.at(-1)),
        lengths.join(),
      ); // the last is shorter
      assert.ok(lengths.at(-1) <= lengths[0] && lengths.at(-1) > lengths[0] - 3 * n, lengths.join());
    }
  });

  it('refuses a table past 8 codes in words, and an id that is not one', () => {
    assert.throws(() => tableCodes(ID, fragmentOfSize(PART_BYTES * CODES + 50)), { message: TOO_MANY });
    assert.throws(() => tableCodes('xyz', fragmentOfSize(10)), /12 hex digits/);
  });
});

describe('Collector', () => {
  it('collects the codes in any order, says how many are read, and gives back the very fragment', () => {
    const fragment = fragmentOfSize(2358);
    const codes = tableCodes(ID, fragment);
    const order = [4, 1, 6, 0, 2, 5, 3];
    assert.equal(codes.length, order.length);
    const collector = new Collector();
    order.forEach((k, i) => {
      const got = collector.add(codes[k]);
      assert.equal(got.code, true);
      assert.equal(got.read, i + 1);
      assert.equal(got.n, codes.length);
      assert.equal(got.fragment, i + 1 === codes.length ? fragment : null);
      if (i + 1 < codes.length) assert.equal(collector.add(codes[k]).read, i + 1); // read twice counts once
    });
  });

  it('a code of another share starts again from it; anything else is not a code', () => {
    const collector = new Collector();
    const a = tableCodes(ID, fragmentOfSize(1000));
    const b = tableCodes('ba9876543210', fragmentOfSize(1000));
    assert.equal(collector.add(a[0]).read, 1);
    assert.equal(collector.add(a[1]).read, 2);
    assert.equal(collector.add(b[2]).read, 1);
    for (const text of [
      'hello',
      'https://example.org/#t=abc',
      'ARBT1/0123456789AB/3/2/BB8',
      'ARBT1/0123456789AB/1/9/BB8',
      null,
    ]) {
      assert.deepEqual(collector.add(text), { code: false });
      assert.equal(readCode(text), null);
    }
  });
});
