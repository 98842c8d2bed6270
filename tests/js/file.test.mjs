// static/store/file.js: a whole-table file is checked field by field before anything changes.

import './published.mjs';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { APP, fileRecords, parseTableFile } from '../../static/store/file.js';
import { SCHEMA } from '../../static/store/migrations.js';
import { newSheet } from '../../static/store/schema.js';

const TIME = '2024-05-01T12:00:00.000Z';
const valid = () => ({
  app: APP,
  schema: SCHEMA,
  exported: TIME,
  characters: [{ id: 'c1', kind: 'threat', name: 'Ada', created: TIME, sheet: newSheet('threat') }],
  scheme: { scheme: 2, tracked: false },
  price: {
    current: 's1',
    situations: [{ id: 's1', name: 'Situation 1', marked: [{ option: 2, by: 'Ada' }], player: '' }],
  },
  struggles: [
    {
      id: 'st1',
      name: 'Climb',
      character: null,
      created: TIME,
      target: 5,
      accumulated: 1,
      turns: 1,
      status: 'ongoing',
      contest: false,
      notes: [],
    },
  ],
  log: [
    {
      id: 'l1',
      time: TIME,
      character: { id: 'c1', name: 'Ada' },
      system: 'threat',
      kind: 'roll',
      request: { rating: 1 },
      action: null,
      dice: [3, 6],
      outcome: 'success',
      summary: 'Success',
      note: '',
    },
  ],
});
const errorsOf = (file) => parseTableFile(typeof file === 'string' ? file : JSON.stringify(file)).errors;

describe('parseTableFile', () => {
  it('accepts a table that meets every declaration', () => {
    const { table, errors } = parseTableFile(JSON.stringify(valid()));
    assert.equal(errors, undefined);
    assert.deepEqual(table, valid());
  });

  const refusals = [
    ['not JSON', '{', /^This is not a table file: its text is not what Arbiter saves/],
    ['not an object', '[1]', /^This is not a table file: it holds no table\.$/],
    ['another app', { ...valid(), app: 'other' }, /^This is not a table exported by Arbiter\.$/],
    ['a newer schema', { ...valid(), schema: SCHEMA + 1 }, /^This file was saved by a newer version of Arbiter\./],
    ['no schema', { ...valid(), schema: '1' }, /^This table file does not say which version of Arbiter saved it\.$/],
    ['an unknown field', { ...valid(), extra: 1 }, /^The file holds “extra”, unknown to Arbiter\.$/],
    ['a missing field', (({ log, ...rest }) => rest)(valid()), /^The file has no roll log\.$/],
    [
      'a Scheme out of range',
      { ...valid(), scheme: { scheme: 100, tracked: true } },
      /^The Scheme’s \S.* must be from 0 to 99, got 100$/,
    ],
    [
      'a Scheme of schema 3 without its setting',
      { ...valid(), scheme: 2 },
      /^The Scheme’s Track the Scheme on this device is missing \(yes or no \(true or false\)\)$/,
    ],
    [
      'a sheet out of range',
      (() => {
        const f = valid();
        f.characters[0].sheet.ratings.Charm = 11;
        return f;
      })(),
      /^Ada’s Charm \(.*\) must be from 0 to 10, got 11$/,
    ],
    [
      'an id used twice',
      (() => {
        const f = valid();
        f.characters.push({ ...f.characters[0] });
        return f;
      })(),
      /^Ada has the same id as an earlier one$/,
    ],
    [
      'a log that is not a list',
      { ...valid(), log: {} },
      /^The file’s roll log must be a list of at most 5000 entries\.$/,
    ],
  ];
  for (const [name, file, message] of refusals) {
    it(`refuses ${name}, saying where in a player's words`, () => {
      const errors = errorsOf(file);
      assert.ok(errors?.length, 'refused');
      assert.match(errors[0], message);
      for (const e of errors) assert.doesNotMatch(e, /\b[a-z]+_[a-z_]+\b|\[\d+\]|schema|'[a-z]+\./, e);
    });
  }

  it('names a character by its name and the field by its label, each bad field at its own', () => {
    const f = valid();
    f.characters[0].name = 'Mira';
    f.characters[0].sheet.ratings.Charm = 999;
    f.log[0].dice = [0];
    const errors = errorsOf(f);
    assert.equal(errors.length, 2, errors.join(' | '));
    assert.match(errors[0], /^Mira’s Charm \(.+\) must be from 0 to 10, got 999$/);
    assert.match(errors[1], /^Log entry 1’s Faces 1 must be from 1 to 10, got 0$/);
  });
});

describe('an older file', () => {
  it("is migrated as a stored table would be: schema 1's bare marks were kept without a name", () => {
    const old = {
      ...valid(),
      schema: 1,
      scheme: 2,
      price: { current: 's1', situations: [{ id: 's1', name: 'Situation 1', marked: [4, 1] }] },
    };
    const { table, errors } = parseTableFile(JSON.stringify(old));
    assert.equal(errors, undefined);
    assert.equal(table.schema, SCHEMA);
    assert.deepEqual(table.price.situations[0], {
      id: 's1',
      name: 'Situation 1',
      player: '',
      marked: [
        { option: 4, by: null },
        { option: 1, by: null },
      ],
    });
    assert.deepEqual(table.scheme, { scheme: 2, tracked: true, set: true }); // a count above 0 was set (schema 8)
    const rest = (t) => ({ ...t, price: null, schema: 0, scheme: null });
    assert.deepEqual(rest(table), rest(old));
  });

  it("of schema 2 held the Scheme's count only: the Scheme is tracked on this device, as by default", () => {
    const old = { ...valid(), schema: 2, scheme: 5 };
    const { table, errors } = parseTableFile(JSON.stringify(old));
    assert.equal(errors, undefined);
    assert.deepEqual(table.scheme, { scheme: 5, tracked: true, set: true });
    assert.deepEqual({ ...table, schema: 0, scheme: null }, { ...old, schema: 0, scheme: null });
  });

  it('of schema 2 with a count out of range is refused where the file holds it', () => {
    assert.deepEqual(errorsOf({ ...valid(), schema: 2, scheme: 100 }), [
      'The Scheme’s Dice in the Scheme must be from 0 to 99, got 100',
    ]);
  });

  it('is refused in the words of the declarations it fails after its migration', () => {
    const old = {
      ...valid(),
      schema: 1,
      scheme: 2,
      price: { current: 's1', situations: [{ id: 's1', name: '', marked: [9] }] },
    };
    assert.deepEqual(errorsOf(old), [
      'Pay the Price’s Option (Situations 1, Pay the Price options marked this Situation 1) must be from 0 to 7, got 9',
    ]);
  });
});

describe('fileRecords', () => {
  it('gives each list entry its record id, without the id in its data', () => {
    const ids = fileRecords(valid()).map((r) => r.id);
    assert.deepEqual(ids, ['shared:scheme', 'shared:price', 'char:c1', 'struggle:st1', 'log:l1']);
    const char = fileRecords(valid()).find((r) => r.id === 'char:c1');
    assert.equal('id' in char.data, false);
    assert.deepEqual(fileRecords(valid())[0].data, { scheme: 2, tracked: false });
    assert.deepEqual(
      fileRecords(valid()).map((r) => r.at),
      ['scheme', 'price', 'characters[0]', 'struggles[0]', 'log[0]'],
    );
    assert.deepEqual(fileRecords({ ...valid(), scheme: 4 })[0], {
      id: 'shared:scheme',
      data: { scheme: 4 },
      at: 'file',
    });
  });
});
