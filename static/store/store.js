// The table's memory on this device: records, each with its own revision, under a schema version with migrations.
// A store that cannot be read, or that a newer Arbiter wrote, is copied aside untouched and the page goes on (the
// repair is repair.js'); open tabs stay in step through a BroadcastChannel, and a write lands only on the revision it
// was computed from (compare-and-set), so no tab ever overwrites newer data. Keeps the envelope (ids, revisions, the
// log's cap, the kept-aside copies) and knows no rules: what a record's data may hold is arbiter.api's declarations,
// read by schema.js; where it is kept is backends.js's, a whole-table file file.js's.
//
//   const store = await Store.open();          // never rejects: falls back to memory and says why in .problems
//   store.subscribe((ids) => …);               // ids: a Set of changed record ids, or 'all'
//   await store.update('char:…', async (data) => ({ ...data, name }));   // re-run on a newer revision
//
// Records: { id, rev, updated, by, data }. Ids: 'meta', 'shared:scheme', 'shared:price', 'char:<id>',
// 'struggle:<id>', 'log:<id>' and 'aside:<id>' (an untouched copy of a store that could not be used).

import { DB_NAME, IdbBackend, MemoryBackend, openDb, readAll, readNewer } from './backends.js';
import { fileRecords } from './file.js';
import { logId, newId } from './ids.js';
import { SCHEMA, forgetLegacyMarks, migrate } from './migrations.js';
import { checkInSlices, dataProblem, repair } from './repair.js';
import { LOG_MAX } from './schema.js';

const CHANNEL = 'arbiter-table';
const nextTask = () =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });

export class ConflictError extends Error {}

// A write the browser refused for lack of space: nothing of it is kept (its transaction is undone), nothing kept
// before it is touched.
export const FULL =
  'Not saved: this phone has no space left for Arbiter. Everything saved before is still kept. ' +
  'Free some space on the phone, or save a backup and clear the roll log.';
// A table a newer Arbiter saved in a layout this page cannot open (IndexedDB's own version past ours): shown from a
// copy read once, its records left as they are; nothing this page does is kept, and each form says so before a roll.
export const NEWER_LAYOUT =
  'This table was saved by a newer version of Arbiter: reload the page to update. The table is kept as it is; ' +
  'until you reload, nothing done here is saved, rolls included.';
// Chromium, Firefox and WebKit name it; an older WebKit gave only its legacy code
const refusedForSpace = (error) => error?.name === 'QuotaExceededError' || error?.code === 22;

export class Store {
  constructor(backend) {
    this.backend = backend;
    this.tab = newId();
    this.records = new Map(); // id -> record, as last read or written
    this.keyCache = new Map(); // prefix -> its record ids, sorted
    this.listeners = new Set();
    this.problems = []; // {kind: 'damaged'|'newer'|'newer-layout'|'unavailable'|'readonly'|'full', message, aside?}
    this.readOnly = false;
    this.channel = null;
  }

  /** Open the table's store; never rejects: with no usable IndexedDB the table lives in memory and says so. */
  static async open({ name = DB_NAME } = {}) {
    let store;
    try {
      const db = await openDb(name);
      store = new Store(new IdbBackend(db));
      db.onversionchange = () => {
        db.close();
        store.stopWriting(
          'A newer version of Arbiter opened the table in another tab: ' + 'reload this tab to go on saving.',
        );
      };
      await store.load();
    } catch (error) {
      store = new Store(new MemoryBackend());
      console.warn('The table lives in memory:', error); // why, for whoever debugs; the player's words are below
      if (error?.name === 'VersionError') {
        // a newer Arbiter raised IndexedDB's own layout: its table is shown from a copy, and never written to
        store.backend.map = new Map((await readNewer(name).catch(() => [])).map((r) => [r.id, r]));
        store.problems.push({ kind: 'newer-layout', message: NEWER_LAYOUT });
      } else {
        store.problems.push({
          kind: 'unavailable',
          message:
            'This browser keeps nothing after the page closes: the table works until then. Save a backup to keep it.',
        });
      }
      await store.load();
    }
    store.listen();
    return store;
  }

  /** Read everything; migrate an older schema, set aside a newer or damaged one, create what is missing. Each record
   * is checked first, outside the transaction and a few milliseconds per task (a slow phone keeps answering while a
   * big table opens); the transaction that repairs reuses those verdicts for every revision it finds unchanged. */
  async load() {
    const stored = await this.backend.run('readonly', (tx) =>
      readAll(tx, (rows) => {
        tx.result = rows;
      }),
    );
    const verdicts = await checkInSlices(stored);
    const blank = migrate([], 0); // what a table needs, made here: its first read of localStorage can take a while
    await nextTask();
    const report = await this.backend.run('readwrite', (tx) =>
      readAll(tx, (raw) => {
        // the repair's writes, also kept as the records this page starts from
        const records = new Map(raw.map((r) => [r.id, r]));
        const out = {
          put: (r) => {
            tx.put(r);
            records.set(r.id, r);
          },
          del: (id) => {
            tx.del(id);
            records.delete(id);
          },
        };
        tx.result = { ...repair(out, raw, { verdicts, blank, tab: this.tab }), records };
      }),
    );
    this.problems.push(...report.problems);
    this.setAll(report.records);
    if (this.backend.persistent) forgetLegacyMarks(); // what the migrations folded in is kept now
  }

  /** Read every record into memory again. */
  async reload() {
    const all = await this.backend.run('readonly', (tx) =>
      readAll(tx, (rows) => {
        tx.result = rows;
      }),
    );
    this.setAll(new Map(all.map((r) => [r.id, r])));
  }

  setAll(records) {
    this.records = records;
    this.keyCache.clear();
    this.checkMeta();
  }

  /** Keep the sorted id lists in step with one record coming or going. */
  set(id, rec) {
    const added = !this.records.has(id);
    this.records.set(id, rec);
    if (added) this.keyMoved(id, true);
  }

  delete(id) {
    if (this.records.delete(id)) this.keyMoved(id, false);
  }

  keyMoved(id, added) {
    for (const [prefix, keys] of this.keyCache) {
      if (!id.startsWith(prefix)) continue;
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid] < id) lo = mid + 1;
        else hi = mid;
      }
      if (added) keys.splice(lo, 0, id);
      else if (keys[lo] === id) keys.splice(lo, 1);
    }
  }

  checkMeta() {
    const schema = this.records.get('meta')?.data?.schema;
    if (Number.isInteger(schema) && schema > SCHEMA) {
      this.stopWriting(
        'A newer version of Arbiter updated the table in another tab: ' + 'reload this tab to go on saving.',
      );
    }
  }

  stopWriting(message) {
    if (this.readOnly) return;
    this.readOnly = true;
    this.problems.push({ kind: 'readonly', message });
    this.emit('all');
  }

  // --- two tabs ---
  listen() {
    if (typeof BroadcastChannel === 'function' && this.backend.persistent) {
      this.channel = new BroadcastChannel(CHANNEL);
      this.channel.onmessage = ({ data }) => {
        if (data?.tab !== this.tab) this.refresh(data?.ids ?? 'all');
      };
    }
    globalThis.document?.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.refresh('all');
    });
  }

  announce(ids) {
    this.emit(ids);
    try {
      this.channel?.postMessage({ tab: this.tab, ids: ids === 'all' ? 'all' : [...ids] });
    } catch {
      /* the channel closed */
    }
  }

  /** Another tab wrote `ids` (or 'all'): read them again; a record only ever moves to a newer revision. */
  async refresh(ids) {
    if (ids === 'all' || !Array.isArray(ids)) {
      const before = this.records;
      await this.reload();
      // a write of this tab that landed after the reload read keeps its newer revision
      for (const [id, rec] of before) if ((this.records.get(id)?.rev ?? Infinity) < rec.rev) this.records.set(id, rec);
      const changed = new Set(
        [...before.keys(), ...this.records.keys()].filter((k) => before.get(k)?.rev !== this.records.get(k)?.rev),
      );
      if (changed.size) this.emit(changed);
      return;
    }
    const rows = await this.backend.run('readonly', (tx) => {
      tx.result = [];
      for (const id of ids) tx.get(id, (rec) => tx.result.push([id, rec]));
    });
    const changed = new Set();
    for (const [id, rec] of rows) {
      const mine = this.records.get(id);
      if (!rec) {
        if (mine) {
          this.delete(id);
          changed.add(id);
        }
      } else if (!mine || rec.rev > mine.rev) {
        this.set(id, rec);
        changed.add(id);
      }
    }
    if (changed.has('meta')) this.checkMeta();
    if (changed.size) this.emit(changed);
  }

  subscribe(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(ids) {
    for (const fn of this.listeners) {
      try {
        fn(ids);
      } catch (error) {
        console.warn(error);
      }
    }
  }

  // --- reading ---
  get(id) {
    return this.records.get(id)?.data;
  }

  /** [id without prefix, data] of every record under `prefix`, in id order. */
  list(prefix) {
    let keys = this.keyCache.get(prefix);
    if (!keys) {
      keys = [...this.records.keys()].filter((k) => typeof k === 'string' && k.startsWith(prefix)).sort();
      this.keyCache.set(prefix, keys);
    }
    return keys.map((k) => [k.slice(prefix.length), this.records.get(k).data]);
  }

  // --- writing ---
  writable() {
    if (this.readOnly) {
      throw new Error(this.problems.find((p) => p.kind === 'readonly')?.message ?? 'The table is read-only');
    }
  }

  /** Compute the new data of `id` from its latest revision with `fn` (which may be async, may return undefined for
   * no change, and may throw to refuse); it is written only onto that revision, else computed again. */
  async update(id, fn, { create = false } = {}) {
    this.writable();
    for (let attempt = 0; attempt < 8; attempt++) {
      const current = await this.backend.run('readonly', (tx) =>
        tx.get(id, (rec) => {
          tx.result = rec;
        }),
      );
      if (!current && !create) throw new Error('That was deleted (in this or another tab).');
      const data = await fn(current ? structuredClone(current.data) : undefined);
      if (data === undefined) return current?.data;
      const wrong = dataProblem(id, data);
      if (wrong) throw new Error(`Not saved: ${wrong}`);
      const next = { id, rev: (current?.rev ?? 0) + 1, updated: Date.now(), by: this.tab, data };
      const ok = await this.write((tx) =>
        tx.get(id, (rec) => {
          tx.result = (rec?.rev ?? 0) === (current?.rev ?? 0);
          if (tx.result) tx.put(next);
        }),
      );
      if (ok) {
        this.set(id, next);
        this.announce(new Set([id]));
        return data;
      }
      await this.refresh([id]); // someone else wrote first: start again from their revision
    }
    throw new ConflictError('Another tab kept changing this; try again.');
  }

  /** One readwrite transaction. Refused for lack of space, it is said (a 'full' problem, until a later write lands)
   * and refused in a player's words (FULL). */
  async write(body) {
    let result;
    try {
      result = await this.backend.run('readwrite', body);
    } catch (error) {
      if (!refusedForSpace(error)) throw error;
      if (!this.problems.some((p) => p.kind === 'full')) this.problems.push({ kind: 'full', message: FULL });
      this.emit(new Set(['problems']));
      throw new Error(FULL);
    }
    if (this.problems.some((p) => p.kind === 'full')) {
      this.problems = this.problems.filter((p) => p.kind !== 'full');
      this.emit(new Set(['problems']));
    }
    return result;
  }

  async create(prefix, data) {
    const id = `${prefix}${newId()}`;
    await this.update(id, () => data, { create: true });
    return id.slice(prefix.length);
  }

  async remove(id) {
    this.writable();
    await this.write((tx) => tx.del(id));
    this.delete(id);
    this.announce(new Set([id]));
  }

  /** Add a roll-log entry; past LOG_MAX the oldest go. */
  async append(entry) {
    this.writable();
    const id = `log:${logId()}`;
    const wrong = dataProblem(id, entry);
    if (wrong) throw new Error(`Not logged: ${wrong}`);
    const rec = { id, rev: 1, updated: Date.now(), by: this.tab, data: entry };
    const dropped = await this.write((tx) => {
      tx.put(rec);
      tx.result = [];
      tx.count('log:', (n) => {
        if (n > LOG_MAX) {
          tx.keys('log:', n - LOG_MAX, (keys) => {
            tx.result = keys;
            keys.forEach((k) => tx.del(k));
          });
        }
      });
    });
    this.set(id, rec);
    for (const k of dropped) this.delete(k);
    this.announce(new Set([id, ...dropped]));
    return id;
  }

  async clearLog() {
    this.writable();
    await this.write((tx) => tx.delPrefix('log:'));
    const ids = this.list('log:').map(([id]) => `log:${id}`);
    ids.forEach((k) => this.delete(k));
    this.announce(new Set(ids));
  }

  // --- the whole table as one file (file.js shapes and checks it) ---
  /** Replace the table (not the kept-aside copies) with a file `parseTableFile` accepted, in one transaction. */
  async replaceTable(file) {
    this.writable();
    const records = fileRecords(file);
    await this.write((tx) =>
      readAll(tx, (rows) => {
        const revs = new Map(rows.map((r) => [r.id, r.rev]));
        for (const r of rows) if (r.id !== 'meta' && !r.id.startsWith('aside:')) tx.del(r.id);
        // in slices, each after the last one's request answered: one transaction, no long task
        const putFrom = (start) => {
          for (const r of records.slice(start, start + 500)) {
            tx.put({ id: r.id, rev: (revs.get(r.id) ?? 0) + 1, updated: Date.now(), by: this.tab, data: r.data });
          }
          if (start + 500 < records.length) tx.get('meta', () => putFrom(start + 500));
        };
        putFrom(0);
      }),
    );
    await this.reload();
    this.announce('all');
  }

  /** Put `records` ({id, data} each, checked as any write) in place of those of the same ids, in one transaction;
   * what they replace is first copied aside untouched (an 'aside:<id>' record, `reason` 'replaced'), the rest of
   * the table (its log, the other characters) left as it is. Resolves to the aside's id. */
  async replaceWithAside(records) {
    this.writable();
    for (const r of records) {
      const wrong = dataProblem(r.id, r.data);
      if (wrong) throw new Error(`Not replaced: ${wrong}`);
    }
    const ids = new Set(records.map((r) => r.id));
    const asideId = `aside:${logId()}`;
    await this.write((tx) =>
      readAll(tx, (rows) => {
        const replaced = rows.filter((r) => ids.has(r.id));
        const data = {
          at: new Date().toISOString(),
          reason: 'replaced',
          schema: SCHEMA,
          problems: [],
          records: replaced,
        };
        tx.put({ id: asideId, rev: 1, updated: Date.now(), by: this.tab, data });
        const revs = new Map(rows.map((r) => [r.id, r.rev]));
        for (const r of records) {
          tx.put({ id: r.id, rev: (revs.get(r.id) ?? 0) + 1, updated: Date.now(), by: this.tab, data: r.data });
        }
      }),
    );
    await this.reload();
    this.announce('all');
    return asideId;
  }

  async removeAside(id) {
    return this.remove(id);
  }
}
