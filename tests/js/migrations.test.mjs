// static/store/migrations.js: a store from nothing, the Pay the Price marks kept before there was a store, and the
// marks of schema 1 (bare option numbers) named as kept without a name.

import './published.mjs';

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { LEGACY_PRICE_KEY, SCHEMA, forgetLegacyMarks, legacyMarks, migrate } from '../../static/store/migrations.js';
import { checkRecord } from '../../static/store/schema.js';
import { recordOf } from '../../static/store/ids.js';

function withLocalStorage(value) {
  const items = new Map(value === null ? [] : [[LEGACY_PRICE_KEY, value]]);
  globalThis.localStorage = { getItem: (key) => items.get(key) ?? null, removeItem: (key) => items.delete(key) };
}

afterEach(() => {
  delete globalThis.localStorage;
});

describe('legacyMarks', () => {
  it('reads the marks, each once', () => {
    withLocalStorage('[1, 4, 4]');
    assert.deepEqual(legacyMarks(), [1, 4]);
  });

  for (const stored of ['[8]', '[1.5]', '"x"', 'not json', null]) {
    it(`reads ${stored} as no marks`, () => {
      withLocalStorage(stored);
      assert.deepEqual(legacyMarks(), []);
    });
  }

  it('no localStorage at all is no marks', () => assert.deepEqual(legacyMarks(), []));

  it('once forgotten, the key is gone', () => {
    withLocalStorage('[2]');
    forgetLegacyMarks();
    assert.equal(localStorage.getItem(LEGACY_PRICE_KEY), null);
  });
});

describe('migrate', () => {
  it('from nothing: the records a working table needs, each as declared', () => {
    const records = migrate([], 0);
    assert.deepEqual(records.map((r) => r.id).sort(), ['meta', 'shared:price', 'shared:scheme']);
    for (const r of records) assert.deepEqual(checkRecord(recordOf(r.id), r.data), r.data, r.id);
    assert.equal(records.find((r) => r.id === 'meta').data.schema, SCHEMA);
  });

  it("folds the older page's marks into the first Situation, marked by someone unnamed", () => {
    withLocalStorage('[2, 0]');
    const price = migrate([], 0).find((r) => r.id === 'shared:price').data;
    assert.equal(price.situations.length, 1);
    assert.equal(price.situations[0].id, price.current);
    assert.deepEqual(price.situations[0].marked, [
      { option: 2, by: null },
      { option: 0, by: null },
    ]);
    assert.equal(price.situations[0].player, '');
  });

  it('keeps a Scheme that is there already, tracked on this device', () => {
    const records = migrate([{ id: 'shared:scheme', data: { scheme: 4 } }], 0);
    assert.deepEqual(
      records.filter((r) => r.id === 'shared:scheme'),
      [{ id: 'shared:scheme', data: { scheme: 4, tracked: true, set: true } }],
    );
  });

  it('from schema 2: the Scheme is tracked on this device (the declared default), a setting already there kept', () => {
    const records = migrate(
      [
        { id: 'meta', data: { schema: 2, created: '2024-05-01T12:00:00.000Z' } },
        { id: 'shared:scheme', data: { scheme: 3 } },
      ],
      2,
    );
    assert.deepEqual(records, [
      { id: 'meta', data: { schema: SCHEMA, created: '2024-05-01T12:00:00.000Z' } },
      { id: 'shared:scheme', data: { scheme: 3, tracked: true, set: true } },
    ]);
    const kept = [{ id: 'shared:scheme', data: { scheme: 3, tracked: false, set: true } }];
    assert.deepEqual(migrate(kept, 2), kept);
    const garbage = [{ id: 'shared:scheme', data: 'garbage' }];
    assert.deepEqual(migrate(garbage, 2), garbage);
  });

  it('from schema 1: each bare mark kept without a name, a player for each Situation, the meta at SCHEMA', () => {
    withLocalStorage('[7]'); // read only for a table made from nothing
    const records = migrate(
      [
        { id: 'meta', data: { schema: 1, created: '2024-05-01T12:00:00.000Z' } },
        { id: 'shared:price', data: { current: 'a', situations: [{ id: 'a', name: 'Fight', marked: [3, 1] }] } },
        { id: 'char:x', data: { kept: 'as it is' } },
      ],
      1,
    );
    assert.deepEqual(records, [
      { id: 'meta', data: { schema: SCHEMA, created: '2024-05-01T12:00:00.000Z' } },
      {
        id: 'shared:price',
        data: {
          current: 'a',
          situations: [
            {
              id: 'a',
              name: 'Fight',
              player: '',
              marked: [
                { option: 3, by: null },
                { option: 1, by: null },
              ],
            },
          ],
        },
      },
      { id: 'char:x', data: { kept: 'as it is' } },
    ]);
  });

  it('from schema 3: only the number changes (a character remembers its last choices once it rolls)', () => {
    const character = { id: 'char:x', data: { kind: 'threat', name: 'Mira', sheet: { kept: 'as it is' } } };
    const records = migrate([{ id: 'meta', data: { schema: 3, created: '2024-05-01T12:00:00.000Z' } }, character], 3);
    const meta = { id: 'meta', data: { schema: SCHEMA, created: '2024-05-01T12:00:00.000Z' } };
    assert.deepEqual(records, [meta, character]);
  });

  it('from schema 6: only the number changes (the last backup is absent until the first)', () => {
    const records = migrate([{ id: 'meta', data: { schema: 6, created: '2024-05-01T12:00:00.000Z' } }], 6);
    assert.deepEqual(records, [{ id: 'meta', data: { schema: SCHEMA, created: '2024-05-01T12:00:00.000Z' } }]);
  });

  it('from schema 7: the Scheme says whether it was set here: a count above 0 was, 0 is read as never set', () => {
    const meta = { id: 'meta', data: { schema: 7, created: '2024-05-01T12:00:00.000Z' } };
    const scheme = (data) => ({ id: 'shared:scheme', data });
    const records = migrate([meta, scheme({ scheme: 3, tracked: true })], 7);
    assert.deepEqual(records, [
      { id: 'meta', data: { schema: SCHEMA, created: '2024-05-01T12:00:00.000Z' } },
      scheme({ scheme: 3, tracked: true, set: true }),
    ]);
    assert.deepEqual(migrate([scheme({ scheme: 0, tracked: false })], 7), [
      scheme({ scheme: 0, tracked: false, set: false }),
    ]);
    const kept = [scheme({ scheme: 0, tracked: true, set: true })];
    assert.deepEqual(migrate(kept, 7), kept);
    for (const r of records) assert.deepEqual(checkRecord(recordOf(r.id), r.data), r.data, r.id);
  });

  it('from nothing: the Scheme was never set on this device', () => {
    const scheme = migrate([], 0).find((r) => r.id === 'shared:scheme').data;
    assert.equal(scheme.set, false);
  });

  it('leaves what it cannot read for the checks to refuse', () => {
    const price = { id: 'shared:price', data: { current: 'a', situations: 'garbage' } };
    assert.deepEqual(migrate([price], 1), [price]);
  });

  it('data of the current schema is left as it is', () => {
    const records = [{ id: 'shared:scheme', data: { scheme: 1, tracked: true } }];
    assert.equal(migrate(records, SCHEMA), records);
  });
});
