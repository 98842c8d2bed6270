// static/store/store.js on its memory backend: revisions and compare-and-set, the log's cap, repairs of what
// cannot be read, replacing the whole table. Two Stores on one backend stand for two tabs.

import './published.mjs';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { MemoryBackend } from '../../static/store/backends.js';
import { exportTable, parseTableFile } from '../../static/store/file.js';
import { SCHEMA } from '../../static/store/migrations.js';
import { LOG_MAX, newSheet } from '../../static/store/schema.js';
import { dataProblem, recordErrors } from '../../static/store/repair.js';
import { FULL, Store } from '../../static/store/store.js';

const TIME = '2024-05-01T12:00:00.000Z';

async function tabs(n = 1, backend = new MemoryBackend()) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const store = new Store(backend);
    await store.load();
    out.push(store);
  }
  return out;
}

const character = (name = 'Ada', kind = 'ten_again') => ({ kind, name, created: TIME, sheet: newSheet(kind) });
const entry = (summary = 'rolled') => ({
  time: TIME,
  character: null,
  system: 'luck',
  kind: 'roll',
  request: null,
  action: null,
  dice: [6],
  outcome: '',
  summary,
  note: '',
});

describe('Store', () => {
  it('without IndexedDB it keeps the table in memory and says so', async () => {
    const store = await Store.open();
    assert.equal(store.backend.persistent, false);
    assert.deepEqual(
      store.problems.map((p) => p.kind),
      ['unavailable'],
    );
    assert.equal(store.get('shared:scheme').scheme, 0);
    assert.equal(store.get('meta').schema, SCHEMA);
  });

  it('a write refused for lack of space is said, keeps nothing of itself and loses nothing kept before', async () => {
    class Full extends MemoryBackend {
      run(mode, body) {
        if (mode === 'readwrite' && this.full) return Promise.reject(new DOMException('no room', 'QuotaExceededError'));
        return super.run(mode, body);
      }
    }
    const backend = new Full();
    const [store] = await tabs(1, backend);
    const id = await store.create('char:', character());
    await store.append(entry('kept'));
    const before = structuredClone([...backend.map]);
    backend.full = true;
    await assert.rejects(store.append(entry('lost')), { message: FULL });
    await assert.rejects(
      store.update(`char:${id}`, (c) => ({ ...c, name: 'Bea' })),
      { message: FULL },
    );
    assert.deepEqual([...backend.map], before);
    assert.deepEqual(
      store.list('log:').map(([, e]) => e.summary),
      ['kept'],
    );
    assert.equal(store.get(`char:${id}`).name, 'Ada');
    assert.deepEqual(
      store.problems.map((p) => p.kind),
      ['full'],
    );
    backend.full = false; // space freed: the next write lands, and the problem is over
    await store.append(entry('later'));
    assert.deepEqual(store.problems, []);
  });

  it('each write is a new revision', async () => {
    const [store] = await tabs();
    const id = await store.create('char:', character());
    await store.update(`char:${id}`, (c) => ({ ...c, name: 'Bea' }));
    assert.equal(store.records.get(`char:${id}`).rev, 2);
    assert.deepEqual(
      store.list('char:').map(([, c]) => c.name),
      ['Bea'],
    );
  });

  it('refuses data its declaration does not allow, and changes nothing', async () => {
    const [store] = await tabs();
    await assert.rejects(
      store.update('shared:scheme', (d) => ({ ...d, scheme: 100 })),
      /^Error: Not saved: 'scheme\.scheme' must be from 0 to 99, got 100$/,
    );
    assert.equal(store.get('shared:scheme').scheme, 0);
  });

  it('a write computed from an older revision is computed again on the newer one', async () => {
    const [a, b] = await tabs(2);
    let runs = 0;
    await a.update('shared:scheme', async (d) => {
      runs += 1;
      // the other tab was first
      if (runs === 1) await b.update('shared:scheme', (e) => ({ ...e, scheme: e.scheme + 5 }));
      return { ...d, scheme: d.scheme + 1 };
    });
    assert.equal(runs, 2);
    assert.equal(a.get('shared:scheme').scheme, 6);
    await b.refresh(['shared:scheme']);
    assert.equal(b.get('shared:scheme').scheme, 6);
  });

  it('updating what another tab deleted is refused', async () => {
    const [a, b] = await tabs(2);
    const id = await a.create('char:', character());
    await b.reload();
    await a.remove(`char:${id}`);
    await assert.rejects(
      b.update(`char:${id}`, (c) => c),
      /was deleted/,
    );
  });

  it('tells its subscribers which records changed', async () => {
    const [store] = await tabs();
    const seen = [];
    store.subscribe((ids) => seen.push([...ids]));
    await store.update('shared:scheme', (d) => ({ ...d, scheme: 2 }));
    assert.deepEqual(seen, [['shared:scheme']]);
  });

  it('keeps the newest LOG_MAX log entries', async () => {
    const backend = new MemoryBackend();
    const [store] = await tabs(1, backend);
    for (let i = 0; i < LOG_MAX; i++) {
      const id = `log:${String(i).padStart(9, '0')}-old`;
      backend.map.set(id, { id, rev: 1, updated: 0, by: 'x', data: entry(`old ${i}`) });
    }
    await store.reload();
    await store.append(entry('new'));
    const log = store.list('log:');
    assert.equal(log.length, LOG_MAX);
    assert.equal(log[0][1].summary, 'old 1');
    assert.equal(log.at(-1)[1].summary, 'new');
  });

  it('sets a damaged record aside and goes on with the rest', async () => {
    const backend = new MemoryBackend();
    await tabs(1, backend);
    backend.map.set('char:junk', { id: 'char:junk', rev: 'x', updated: 0, by: 'x', data: 42 });
    const [store] = await tabs(1, backend);
    assert.deepEqual(
      store.problems.map((p) => p.kind),
      ['damaged'],
    );
    assert.equal(store.get('char:junk'), undefined);
    const [[, aside]] = store.list('aside:');
    assert.equal(aside.reason, 'damaged');
    assert.ok(aside.records.some((r) => r.id === 'char:junk'));
    assert.equal(store.get('shared:scheme').scheme, 0);
  });

  it('checks a big table a slice at a time: other tasks run while it opens', async () => {
    const backend = new MemoryBackend();
    await tabs(1, backend);
    for (let i = 0; i < 3000; i++) {
      const id = `char:${String(i).padStart(6, '0')}`;
      backend.map.set(id, { id, rev: 1, updated: 0, by: 'x', data: character(`C${i}`) });
    }
    let ran = false;
    setTimeout(() => {
      ran = true;
    }, 0);
    const [store] = await tabs(1, backend);
    assert.ok(ran, 'no other task ran while 3000 records were checked');
    assert.equal(store.list('char:').length, 3000);
    assert.deepEqual(store.problems, []);
  });

  it('a record another tab wrote between its check and the repair is checked again', async () => {
    const backend = new MemoryBackend();
    const [first] = await tabs(1, backend);
    const id = `char:${await first.create('char:', character('Ada'))}`;
    const run = backend.run.bind(backend);
    backend.run = (mode, body) => {
      if (mode === 'readwrite') {
        // the other tab's write lands after the slices' check, before the repair
        const rec = backend.map.get(id);
        backend.map.set(id, { ...rec, rev: rec.rev + 1, data: { ...rec.data, name: 42 } });
        backend.run = run;
      }
      return run(mode, body);
    };
    const [store] = await tabs(1, backend);
    assert.deepEqual(
      store.problems.map((p) => p.kind),
      ['damaged'],
    );
    assert.equal(store.get(id), undefined);
  });

  it('names what is wrong with a damaged record in the words of arbiter.api', async () => {
    const backend = new MemoryBackend();
    const [first] = await tabs(1, backend);
    const id = await first.create('char:', character('Ada'));
    const rec = backend.map.get(`char:${id}`);
    backend.map.set(rec.id, { ...rec, data: { ...rec.data, sheet: { ...rec.data.sheet, will: 'lots' } } });
    const [store] = await tabs(1, backend);
    assert.deepEqual(store.problems[0].details, [
      `char:${id}: 'character.sheet.will' must be a whole number from 0 to 20, got 'lots'`,
    ]);
  });

  it('migrates a table of schema 1: its marks were kept without a name, its Scheme is tracked here', async () => {
    const backend = new MemoryBackend();
    const put = (id, data) => backend.map.set(id, { id, rev: 3, updated: 0, by: 'old', data });
    put('meta', { schema: 1, created: TIME });
    put('shared:scheme', { scheme: 2 });
    put('shared:price', {
      current: 's2',
      situations: [
        { id: 's1', name: 'Fight', marked: [] },
        { id: 's2', name: 'Chase', marked: [5, 0] },
      ],
    });
    const [store] = await tabs(1, backend);
    assert.deepEqual(store.problems, []);
    assert.equal(store.get('meta').schema, SCHEMA);
    assert.equal(store.get('meta').created, TIME);
    assert.deepEqual(store.get('shared:price').situations, [
      { id: 's1', name: 'Fight', marked: [], player: '' },
      {
        id: 's2',
        name: 'Chase',
        marked: [
          { option: 5, by: null },
          { option: 0, by: null },
        ],
        player: '',
      },
    ]);
    assert.equal(store.records.get('shared:price').rev, 4);
    assert.deepEqual(store.get('shared:scheme'), { scheme: 2, tracked: true, set: true });
  });

  it('sets a newer schema aside untouched and starts a fresh table', async () => {
    const backend = new MemoryBackend();
    const [old] = await tabs(1, backend);
    await old.update('shared:scheme', (d) => ({ ...d, scheme: 3 }));
    const meta = backend.map.get('meta');
    backend.map.set('meta', { ...meta, data: { ...meta.data, schema: SCHEMA + 1 } });
    const [store] = await tabs(1, backend);
    assert.deepEqual(
      store.problems.map((p) => p.kind),
      ['newer'],
    );
    assert.equal(store.get('shared:scheme').scheme, 0);
    const [[, aside]] = store.list('aside:');
    assert.equal(aside.schema, SCHEMA + 1);
    assert.equal(aside.records.find((r) => r.id === 'shared:scheme').data.scheme, 3);
  });

  it('stops writing once a newer version took over', async () => {
    const [store] = await tabs();
    store.stopWriting('reload');
    await assert.rejects(
      store.update('shared:scheme', (d) => ({ ...d, scheme: 1 })),
      /reload/,
    );
  });

  it('replaces the table with an exported file, and keeps the kept-aside copies', async () => {
    const [source] = await tabs();
    await source.create('char:', character('Ada'));
    await source.update('shared:scheme', (d) => ({ ...d, scheme: 4, tracked: false }));
    await source.append(entry());
    const { table, errors } = parseTableFile(JSON.stringify(exportTable(source)));
    assert.equal(errors, undefined);

    const backend = new MemoryBackend();
    await tabs(1, backend);
    backend.map.set('char:junk', { id: 'char:junk', rev: 1, updated: 0, by: 'x', data: 42 });
    const [target] = await tabs(1, backend);
    await target.create('char:', character('Zed'));
    await target.replaceTable(table);
    assert.deepEqual(
      target.list('char:').map(([, c]) => c.name),
      ['Ada'],
    );
    assert.deepEqual(target.get('shared:scheme'), { scheme: 4, tracked: false, set: false }); // as kept there
    assert.equal(target.list('log:').length, 1);
    assert.equal(target.list('aside:').length, 1);
  });

  it('clears the log', async () => {
    const [store] = await tabs();
    await store.append(entry());
    await store.clearLog();
    assert.deepEqual(store.list('log:'), []);
  });
});

describe('the envelope of a record', () => {
  const rec = { id: 'shared:scheme', rev: 1, updated: 1, by: 'tab', data: { scheme: 0, tracked: true } };

  it('checks its revision, time, writer and id, and its data by its declaration', () => {
    assert.deepEqual(recordErrors(rec), []);
    assert.deepEqual(recordErrors({ ...rec, rev: 0 }), ['shared:scheme.rev: must be a whole number from 1, got 0']);
    assert.deepEqual(recordErrors({ ...rec, id: 'char:a b' }), ['"char:a b": is not a record this version keeps']);
    assert.deepEqual(recordErrors({ ...rec, extra: 1 }), ['shared:scheme.extra: is not a known field']);
    assert.deepEqual(recordErrors({ ...rec, data: { scheme: -1, tracked: true } }), [
      "shared:scheme: 'scheme.scheme' must be from 0 to 99, got -1",
    ]);
    assert.deepEqual(recordErrors(42), ['a record without an id: 42']);
  });

  it('chooses the declaration by the record id', () => {
    assert.equal(dataProblem('log:x', entry()), null);
    assert.equal(
      dataProblem('struggle:x', entry()),
      "unknown field 'struggle.time'; allowed: name, character, " +
        'created, target, accumulated, turns, status, contest, notes',
    );
    assert.equal(dataProblem('nonsense', {}), '"nonsense": is not a record this version keeps');
  });
});
