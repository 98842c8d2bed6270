// static/table/file.js: a whole-table file is checked field by field before anything changes.

import './published.mjs';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { APP, fileRecords, parseTableFile } from '../../static/table/file.js';
import { SCHEMA } from '../../static/table/migrations.js';
import { newSheet } from '../../static/table/schema.js';

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
    ['not JSON', '{', /^The file is not JSON: /],
    ['not an object', '[1]', /^The file must hold one JSON object, got \[1\]$/],
    ['another app', { ...valid(), app: 'other' }, /^app: must be "arbiter-table"/],
    ['a newer schema', { ...valid(), schema: SCHEMA + 1 }, /^schema: the file was saved by a newer version/],
    ['no schema', { ...valid(), schema: '1' }, /^schema: must be a whole number from 1/],
    ['an unknown field', { ...valid(), extra: 1 }, /^extra: is not a known field$/],
    ['a missing field', (({ log, ...rest }) => rest)(valid()), /^log: is missing$/],
    [
      'a Scheme out of range',
      { ...valid(), scheme: { scheme: 100, tracked: true } },
      /^'scheme\.scheme' must be from 0 to 99, got 100$/,
    ],
    [
      'a Scheme of schema 3 without its setting',
      { ...valid(), scheme: 2 },
      /^'file\.tracked' is missing: Track the Scheme on this device, true or false$/,
    ],
    [
      'a sheet out of range',
      (() => {
        const f = valid();
        f.characters[0].sheet.ratings.Charm = 11;
        return f;
      })(),
      /^'characters\[0\]\.sheet\.ratings\.Charm' must be from 0 to 10, got 11$/,
    ],
    [
      'an id used twice',
      (() => {
        const f = valid();
        f.characters.push({ ...f.characters[0] });
        return f;
      })(),
      /^characters\[1\]\.id: "c1" is used twice$/,
    ],
    ['a log that is not a list', { ...valid(), log: {} }, /^log: must be a list of at most 5000 entries/],
  ];
  for (const [name, file, message] of refusals) {
    it(`refuses ${name}, saying where`, () => {
      const errors = errorsOf(file);
      assert.ok(errors?.length, 'refused');
      assert.match(errors[0], message);
    });
  }
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
    assert.deepEqual(table.scheme, { scheme: 2, tracked: true });
    const rest = (t) => ({ ...t, price: null, schema: 0, scheme: null });
    assert.deepEqual(rest(table), rest(old));
  });

  it("of schema 2 held the Scheme's count only: the Scheme is tracked on this device, as by default", () => {
    const old = { ...valid(), schema: 2, scheme: 5 };
    const { table, errors } = parseTableFile(JSON.stringify(old));
    assert.equal(errors, undefined);
    assert.deepEqual(table.scheme, { scheme: 5, tracked: true });
    assert.deepEqual({ ...table, schema: 0, scheme: null }, { ...old, schema: 0, scheme: null });
  });

  it('of schema 2 with a count out of range is refused where the file holds it', () => {
    assert.deepEqual(errorsOf({ ...valid(), schema: 2, scheme: 100 }), ["'file.scheme' must be from 0 to 99, got 100"]);
  });

  it('is refused in the words of the declarations it fails after its migration', () => {
    const old = {
      ...valid(),
      schema: 1,
      scheme: 2,
      price: { current: 's1', situations: [{ id: 's1', name: '', marked: [9] }] },
    };
    assert.deepEqual(errorsOf(old), ["'price.situations[0].marked[0].option' must be from 0 to 7, got 9"]);
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
