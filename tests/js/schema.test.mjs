// static/store/schema.js and repr.js: the checker of arbiter.api's published declarations, which refuses in the
// engine's words (tests/test_js_schema_agrees.py runs a whole corpus through both), and Python's repr for them.

import './published.mjs';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { repr, repr100 } from '../../static/store/repr.js';
import {
  CheckError,
  KINDS,
  PROCEDURES,
  RECORDS,
  SYSTEMS,
  TABLE,
  check,
  checkRecord,
  checkSheet,
  declAt,
  describe as words,
  mostOf,
  newSheet,
  problem,
  sheetOf,
} from '../../static/store/schema.js';

const TIME = '2024-05-01T12:00:00.000Z';
const INT = { type: 'int', name: 'n', label: 'N', min: 0, max: 5 };

describe('the published declarations', () => {
  it("are arbiter.api's: the kinds, the procedures, the records", () => {
    assert.deepEqual(KINDS, TABLE.kinds);
    assert.deepEqual(SYSTEMS, Object.keys(PROCEDURES));
    assert.deepEqual(Object.keys(RECORDS), ['character', 'price', 'struggle', 'scheme', 'log', 'meta']);
    assert.equal(sheetOf('luck'), sheetOf('threat'));
  });

  for (const kind of globalThis.arbiterPublished.table.kinds) {
    it(`a fresh ${kind} sheet is its declaration's default, and meets it`, () => {
      assert.deepEqual(newSheet(kind), sheetOf(kind).default);
      assert.notEqual(newSheet(kind), newSheet(kind));
      assert.deepEqual(checkSheet(kind, newSheet(kind)), newSheet(kind));
    });
  }

  it("declAt walks records' fields through lists and nullables", () => {
    assert.equal(declAt(RECORDS.price, 'situations', 'marked', 'option').type, 'int');
    assert.equal(declAt(RECORDS.log, 'character', 'name').type, 'text');
  });
});

describe('check', () => {
  it('answers the value in declaration order, or throws a CheckError naming the path', () => {
    const rec = { type: 'record', fields: [INT, { ...INT, name: 'm', label: 'M' }] };
    assert.deepEqual(Object.keys(check(rec, { m: 1, n: 2 }, 'r')), ['n', 'm']);
    assert.throws(
      () => check(INT, 7, 'sheet.will'),
      (e) => e instanceof CheckError && e.message === "'sheet.will' must be from 0 to 5, got 7",
    );
  });

  const cases = [
    ['a number that is not whole', INT, 2.5, "'x' must be a whole number from 0 to 5, got 2.5"],
    ['true for a number', INT, true, "'x' must be a whole number from 0 to 5, got True"],
    [
      'text past its length, counted as Python does',
      { type: 'text', max_len: 3 },
      '😀😀😀😀',
      "'x' must be text of at most 3 characters, got '😀😀😀😀'",
    ],
    ['four emoji within a length of 4', { type: 'text', max_len: 4 }, '😀😀😀😀', null],
    ['a bool as 0', { type: 'bool' }, 0, "'x' must be true or false, got 0"],
    [
      'a missing field',
      { type: 'record', fields: [{ ...INT, name: 'a', label: 'A' }] },
      {},
      "'x.a' is missing: A, a whole number from 0 to 5",
    ],
    ['an absent field that may be absent', { type: 'record', fields: [{ ...INT, may_be_absent: true }] }, {}, null],
    ['an unknown field', { type: 'record', fields: [INT] }, { n: 1, z: 2 }, "unknown field 'x.z'; allowed: n"],
    [
      'a repeated entry',
      { type: 'list', of: INT, min_len: 0, max_len: 3, unique: true },
      [1, 1],
      "'x[1]' repeats an earlier entry: 1",
    ],
    [
      'a repeated key',
      { type: 'list', of: { type: 'record', fields: [INT] }, min_len: 0, max_len: 3, key: 'n' },
      [{ n: 1 }, { n: 1 }],
      "'x[1].n' is the n of an earlier entry too: 1",
    ],
    [
      'a list past its length',
      { type: 'list', of: INT, min_len: 1, max_len: 1 },
      [],
      "'x' must be a list of 1 to 1 entries, got []",
    ],
    [
      'JSON past its length',
      { type: 'json', max_chars: 5 },
      { a: 1 },
      "'x' must be JSON of at most 5 characters, " + "got {'a': 1}",
    ],
    ['24:00 that ends a day', { type: 'time', words: 'a time' }, '2024-01-01T24:00:00.000Z', null],
    [
      'a minute 60',
      { type: 'time', words: 'a time' },
      '2024-01-01T23:60:00Z',
      "'x' must be a time, got " + "'2024-01-01T23:60:00Z'",
    ],
  ];
  for (const [name, decl, value, message] of cases) {
    it(`${name}: ${message ? 'refused' : 'accepted'}`, () => assert.equal(problem(decl, value, 'x'), message));
  }

  it('says what each type allows, as fields.describe does', () => {
    assert.equal(
      words({ type: 'nullable', of: { type: 'choice', options: [{ value: 'a' }, { value: 'b' }] } }),
      'null or one of a, b',
    );
  });
});

describe('the two doors', () => {
  it('check_sheet: a sheet of the character that rolls the procedure', () => {
    assert.throws(
      () => checkSheet('luck', { ...newSheet('threat'), extra: 1 }),
      /^CheckError: unknown field 'sheet.extra'/,
    );
    assert.throws(() => checkSheet('d20', {}), /^CheckError: 'system' must be one of arbitration, .*, got 'd20'$/);
  });

  it("check_record: a character's sheet is its kind's; the current Situation is one of them", () => {
    const c = { kind: 'threat', name: 'Ada', created: TIME, sheet: newSheet('ten_again') };
    assert.throws(() => checkRecord('character', c), /^CheckError: unknown field 'character.sheet.attributes'/);
    const price = { current: 's2', situations: [{ id: 's1', name: '', marked: [], player: '' }] };
    assert.throws(
      () => checkRecord('price', price, 'price'),
      /^CheckError: 'price.current' must be the id of one of the situations, got 's2'$/,
    );
    assert.throws(
      () => checkRecord('sheet', {}),
      /^CheckError: 'name' must be one of character, price, struggle, scheme/,
    );
  });
});

describe("a record's limits across its fields", () => {
  const decl = {
    type: 'record',
    fields: [
      { ...INT, name: 'a', min: 1 },
      { ...INT, name: 'b', min: 1 },
      { ...INT, name: 'will', max: 8 },
    ],
    limits: [{ type: 'at_most_sum', name: 'will', of: ['a', 'b'] }],
  };

  it("mostOf: a field's declared max, or the sum its limit allows, whichever is lower", () => {
    assert.equal(mostOf(decl, { a: 1, b: 2, will: 0 }, 'will'), 3);
    assert.equal(mostOf(decl, { a: 5, b: 5, will: 0 }, 'will'), 8);
    assert.equal(mostOf(decl, { a: 1, b: 2, will: 0 }, 'a'), 5);
  });

  it("at_most_sum: refused above the sum, once each field is checked, in the engine's words", () => {
    assert.deepEqual(check(decl, { a: 1, b: 2, will: 3 }, 'r'), { a: 1, b: 2, will: 3 });
    assert.equal(problem(decl, { a: 1, b: 2, will: 4 }, 'r'), "'r.will' must be from 0 to 3 (a + b), got 4");
    assert.equal(problem(decl, { a: 0, b: 2, will: 4 }, 'r'), "'r.a' must be from 1 to 5, got 0");
    assert.throws(
      () => check({ ...decl, limits: [{ type: 'odd', name: 'will' }] }, { a: 1, b: 2, will: 3 }, 'r'),
      /unknown limit type odd/,
    );
  });

  it("the d10 pool's Will is at most resolve + composure, by its published declaration", () => {
    const sheet = { ...newSheet('ten_again'), resolve: 1, composure: 2 };
    assert.equal(mostOf(sheetOf('ten_again'), sheet, 'will'), 3);
    assert.throws(
      () => checkSheet('ten_again', { ...sheet, will: 4 }),
      /^CheckError: 'sheet.will' must be from 0 to 3 \(resolve \+ composure\), got 4$/,
    );
  });
});

describe('repr', () => {
  const cases = [
    [null, 'None'],
    [true, 'True'],
    [3, '3'],
    [-2.5, '-2.5'],
    [1e-7, '1e-07'],
    [0.0001, '0.0001'],
    ["it's", '"it\'s"'],
    ['say "hi"', '\'say "hi"\''],
    ['both \' and "', "'both \\' and \"'"],
    ['a\nb\t\\', "'a\\nb\\t\\\\'"],
    ['\x7f\x01', "'\\x7f\\x01'"],
    ['é😀', "'é😀'"],
    ['\u00a0\u200b\u{e0001}', "'\\xa0\\u200b\\U000e0001'"],
    [[1, 'a'], "[1, 'a']"],
    [{ a: [null] }, "{'a': [None]}"],
  ];
  for (const [value, want] of cases) it(`${JSON.stringify(value)} is ${want}`, () => assert.equal(repr(value), want));

  it("writes a parsed value's lists as tuples", () => {
    assert.equal(repr({ a: [1] }, true), "{'a': (1,)}");
    assert.equal(repr([1, 2], true), '(1, 2)');
  });

  it('cuts at 100 code points', () => assert.equal(repr100('😀'.repeat(200)), `'${'😀'.repeat(99)}`));
});
