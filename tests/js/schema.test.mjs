// static/table/schema.js: the declarations every stored field is held to, and the checks that say what is wrong.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  KINDS, SHEETS, T, check, checkCharacter, checkPrice, dataErrors, newSheet, recordErrors,
} from '../../static/table/schema.js';

const errorsOf = (value, decl) => check(value, decl, 'x', []);
const TIME = '2024-05-01T12:00:00.000Z';

describe('check', () => {
  const cases = [
    ['int in range', 3, T.int(0, 5), 0],
    ['int below', -1, T.int(0, 5), 1],
    ['int above', 6, T.int(0, 5), 1],
    ['int not whole', 2.5, T.int(0, 5), 1],
    ['int as text', '3', T.int(0, 5), 1],
    ['text short enough', 'abc', T.text(3), 0],
    ['text too long', 'abcd', T.text(3), 1],
    ['bool', false, T.bool(), 0],
    ['bool as 0', 0, T.bool(), 1],
    ['oneOf listed', 'b', T.oneOf(['a', 'b']), 0],
    ['oneOf not listed', 'c', T.oneOf(['a', 'b']), 1],
    ['id', 'a-b_C9', T.id, 0],
    ['id with a space', 'a b', T.id, 1],
    ['id too long', 'a'.repeat(65), T.id, 1],
    ['time', TIME, T.time, 0],
    ['time without Z', '2024-05-01T12:00:00', T.time, 1],
    ['time that is no date', '2024-13-45T12:00:00Z', T.time, 1],
    ['nullable null', null, T.nullable(T.int(0, 1)), 0],
    ['nullable wrong', 2, T.nullable(T.int(0, 1)), 1],
    ['json small', { a: [1, 2] }, T.json(20), 0],
    ['json too long', { a: 'x'.repeat(30) }, T.json(20), 1],
    ['list', [1, 2], T.list(T.int(0, 5), 2), 0],
    ['list too long', [1, 2, 3], T.list(T.int(0, 5), 2), 1],
    ['list below its min', [], T.list(T.int(0, 5), 2, '', { min: 1 }), 1],
    ['list with a repeat', [1, 1], T.list(T.int(0, 5), 2, '', { unique: true }), 1],
  ];
  for (const [name, value, decl, n] of cases) {
    it(`${name}: ${n ? 'refused' : 'accepted'}`, () => assert.equal(errorsOf(value, decl).length, n));
  }

  it('names the path, what is expected and what was given', () => {
    assert.deepEqual(check(7, T.int(0, 5), 'sheet.will', []),
      ['sheet.will: must be a whole number from 0 to 5, got 7']);
  });

  it('names each unknown and missing field of an object', () => {
    const errors = errorsOf({ a: 1, b: 2 }, T.obj({ a: T.int(0, 1), c: T.int(0, 1) }));
    assert.deepEqual(errors, ['x.b: is not a known field', 'x.c: is missing']);
  });

  it('refuses two list entries with the same id', () => {
    const decl = T.list(T.obj({ id: T.id }), 5);
    assert.deepEqual(errorsOf([{ id: 'a' }, { id: 'a' }], decl), ['x: two entries have the same id']);
  });

  it('stops after 20 problems', () => {
    assert.equal(errorsOf(Array(50).fill('no'), T.list(T.int(0, 1), 50)).length, 20);
  });
});

describe('sheets', () => {
  for (const kind of KINDS) {
    it(`a fresh ${kind} sheet meets its declaration`, () => {
      assert.deepEqual(check(newSheet(kind), SHEETS[kind], 'sheet', []), []);
    });
  }

  it('checks a character sheet by its kind', () => {
    const c = { kind: 'ten_again', name: 'Ada', created: TIME, sheet: { ...newSheet('ten_again'), will: 21 } };
    assert.deepEqual(checkCharacter(c, 'c', []), ['c.sheet.will: must be a whole number from 0 to 20, got 21']);
    assert.ok(checkCharacter({ ...c, kind: 'arbitration' }, 'c', []).length > 0);
  });

  it('refuses a character without a sheet', () => {
    assert.deepEqual(checkCharacter({ kind: 'threat', name: 'B', created: TIME }, 'c', []), ['c.sheet: is missing']);
  });
});

describe('records', () => {
  const price = { current: 's1', situations: [{ id: 's1', name: 'Situation 1', marked: [0, 3] }] };

  it('the current Situation must be one of them', () => {
    assert.deepEqual(checkPrice(price, 'p', []), []);
    assert.match(checkPrice({ ...price, current: 's2' }, 'p', [])[0],
      /^p\.current: must be the id of one of the situations/);
  });

  it('chooses the declaration by the record id', () => {
    assert.deepEqual(dataErrors('shared:scheme', { scheme: 3 }), []);
    assert.equal(dataErrors('shared:scheme', { scheme: 100 }).length, 1);
    assert.deepEqual(dataErrors('nonsense', {}), ['data: no record is called "nonsense"']);
  });

  it('checks a whole record: its fields, revision and id', () => {
    const rec = { id: 'shared:scheme', rev: 1, updated: 1, by: 'tab', data: { scheme: 0 } };
    assert.deepEqual(recordErrors(rec), []);
    assert.deepEqual(recordErrors({ ...rec, rev: 0 }), ['shared:scheme.rev: must be a whole number from 1, got 0']);
    assert.deepEqual(recordErrors({ ...rec, id: 'char:a b' }), ['"char:a b": is not a record this version keeps']);
    assert.deepEqual(recordErrors({ ...rec, extra: 1 }), ['shared:scheme.extra: is not a known field']);
    assert.deepEqual(recordErrors(42), ['a record without an id: 42']);
  });
});
