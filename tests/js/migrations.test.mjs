// static/table/migrations.js: a store from nothing, the Pay the Price marks kept before there was a store.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { LEGACY_PRICE_KEY, SCHEMA, legacyMarks, migrate } from '../../static/table/migrations.js';
import { dataErrors } from '../../static/table/schema.js';

function withLocalStorage(value) {
  globalThis.localStorage = { getItem: (key) => (key === LEGACY_PRICE_KEY ? value : null) };
}

afterEach(() => { delete globalThis.localStorage; });

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
});

describe('migrate', () => {
  it('from nothing: the records a working table needs, each as declared', () => {
    const records = migrate([], 0);
    assert.deepEqual(records.map((r) => r.id).sort(), ['meta', 'shared:price', 'shared:scheme']);
    for (const r of records) assert.deepEqual(dataErrors(r.id, r.data), [], r.id);
    assert.equal(records.find((r) => r.id === 'meta').data.schema, SCHEMA);
  });

  it('folds the older page\'s marks into the first Situation', () => {
    withLocalStorage('[2, 0]');
    const price = migrate([], 0).find((r) => r.id === 'shared:price').data;
    assert.equal(price.situations.length, 1);
    assert.equal(price.situations[0].id, price.current);
    assert.deepEqual(price.situations[0].marked, [2, 0]);
  });

  it('keeps a Scheme that is there already', () => {
    const records = migrate([{ id: 'shared:scheme', data: { scheme: 4 } }], 0);
    assert.deepEqual(records.filter((r) => r.id === 'shared:scheme'), [{ id: 'shared:scheme', data: { scheme: 4 } }]);
  });

  it('data of the current schema is left as it is', () => {
    const records = [{ id: 'shared:scheme', data: { scheme: 1 } }];
    assert.equal(migrate(records, SCHEMA), records);
  });
});
