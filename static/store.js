// The table's memory on this device: IndexedDB records, each with its own revision, under a schema version with
// migrations. A store that cannot be read, or that a newer Arbiter wrote, is copied aside untouched and the page
// goes on; a whole-table file is validated field by field before anything changes; open tabs stay in step through
// a BroadcastChannel, and a write lands only on the revision it was computed from (compare-and-set), so no tab
// ever overwrites newer data. Knows no rules: the sheets' limits here are the storage contract, the rules are in
// arbiter.api.
//
//   const store = await Store.open();          // never rejects: falls back to memory and says why in .problems
//   store.subscribe((ids) => …);               // ids: a Set of changed record ids, or 'all'
//   await store.update('char:…', async (data) => ({ ...data, name }));   // re-run on a newer revision
//
// Records: { id, rev, updated, by, data }. Ids: 'meta', 'shared:scheme', 'shared:price', 'char:<id>',
// 'struggle:<id>', 'log:<id>' and 'aside:<id>' (an untouched copy of a store that could not be used).

export const SCHEMA = 1;
export const APP = 'arbiter-table';
export const LEGACY_PRICE_KEY = 'arbiter.payThePrice.marked';
export const LOG_MAX = 5000; // the oldest entries go beyond this many
export const KINDS = ['arbitration', 'two_dice', 'threat', 'ten_again', 'ability_test'];
export const SYSTEMS = ['arbitration', 'two_dice', 'threat', 'luck', 'ten_again', 'ability_test'];
export const THREAT_RATINGS = ['Charm', 'Command', 'Finesse', 'Muscle', 'Rig', 'Scout', 'Scramble', 'Shadow'];
export const THREAT_COUNTERS = ['renown', 'aether', 'insight', 'gear', 'harm'];
export const ABILITY_ATTRIBUTES = ['Mental', 'Physical', 'Social', 'Weird', 'Control', 'Endurance', 'Power', 'Presence'];

const DB_NAME = 'arbiter-table';
const DB_VERSION = 1; // IndexedDB's own layout (one object store); the data's version is SCHEMA, kept in 'meta'
const OS = 'records';
const CHANNEL = 'arbiter-table';
const MAX_ERRORS = 20;

export const newId = () => (globalThis.crypto?.randomUUID?.() ??
  [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join(''));

/** A log id that sorts by time: base-36 milliseconds, then randomness. */
export const logId = (ms = Date.now()) => `${ms.toString(36).padStart(9, '0')}-${newId().slice(0, 8)}`;

// --- declarations: what each field may hold, with labels for the page ------------------------------------------
export const T = {
  int: (min, max, label = '') => ({ t: 'int', min, max, label }),
  text: (max, label = '') => ({ t: 'text', max, label }),
  bool: (label = '') => ({ t: 'bool', label }),
  oneOf: (values, label = '') => ({ t: 'oneOf', values, label }),
  list: (of, max, label = '', extra = {}) => ({ t: 'list', of, max, label, ...extra }),
  obj: (fields, label = '') => ({ t: 'obj', fields, label }),
  nullable: (of) => ({ t: 'nullable', of }),
  json: (maxChars) => ({ t: 'json', maxChars }),
  id: { t: 'id' },
  time: { t: 'time' },
};

const NAME = T.text(80, 'Name');
const named = (fields, max = 50, label = '') => T.list(T.obj({ id: T.id, name: NAME, ...fields }), max, label);
const intMap = (keys, min, max) => T.obj(Object.fromEntries(keys.map((k) => [k, T.int(min, max, k)])));

/** The character sheet of each kind: what its procedure's text names. */
export const SHEETS = {
  arbitration: T.obj({
    skills: named({ value: T.int(0, 30, 'Value') }, 50, 'Skills'),
    traits: named({ modifier: T.int(-5, 5, 'Modifier') }, 50, 'Trait modifiers'),
  }),
  two_dice: T.obj({
    traits: named({ value: T.int(0, 10, 'Value') }, 50, 'Malleable traits'),
    abilities: named({ value: T.int(-10, 10, 'Value') }, 50, 'Abilities'),
  }),
  threat: T.obj({
    ratings: intMap(THREAT_RATINGS, 0, 10),
    counters: T.obj(Object.fromEntries(THREAT_COUNTERS.map((k) => [k, T.int(0, 999, k[0].toUpperCase() + k.slice(1))]))),
  }),
  ten_again: T.obj({
    attributes: named({ dots: T.int(0, 10, 'Dots') }, 50, 'Attributes'),
    skills: named({ dots: T.int(0, 10, 'Dots'), trained: T.bool('Trained') }, 50, 'Skills'),
    resolve: T.int(1, 10, 'Resolve'),
    composure: T.int(1, 10, 'Composure'),
    will: T.int(0, 20, 'Will (current)'),
  }),
  ability_test: T.obj({
    attributes: intMap(ABILITY_ATTRIBUTES, 1, 5),
    skills: named({ level: T.int(0, 10, 'Level'), focused: T.bool('Focused'), masteries: T.int(0, 10, 'Masteries') }, 50, 'Skills'),
    items: named({ unique: T.bool('Unique'), level: T.int(0, 5, 'Level') }, 50, 'Items'),
    convictions: T.list(T.obj({ id: T.id, text: T.text(200, 'Conviction'), significance: T.int(1, 3, 'Significance') }), 50, 'Convictions'),
    exertion: T.int(0, 99, 'Exertion'),
    xp: T.int(0, 99999, 'XP'),
    moved_this_session: T.bool('Significance moved this Session'),
  }),
};

/** A fresh sheet of `kind`: empty lists, the texts' average values. */
export function newSheet(kind) {
  switch (kind) {
    case 'arbitration': return { skills: [], traits: [] };
    case 'two_dice': return { traits: [], abilities: [] };
    case 'threat': return { ratings: Object.fromEntries(THREAT_RATINGS.map((k) => [k, 1])),
      counters: Object.fromEntries(THREAT_COUNTERS.map((k) => [k, 0])) };
    case 'ten_again': return { attributes: [], skills: [], resolve: 2, composure: 2, will: 4 };
    case 'ability_test': return { attributes: Object.fromEntries(ABILITY_ATTRIBUTES.map((k) => [k, 2])), skills: [], items: [],
      convictions: [], exertion: 0, xp: 0, moved_this_session: false };
    default: throw new Error(`unknown kind ${kind}`);
  }
}

const CHARACTER = { kind: T.oneOf(KINDS, 'Kind'), name: NAME, created: T.time /* sheet: by kind */ };
const STRUGGLE = T.obj({
  name: NAME, character: T.nullable(T.id), created: T.time,
  target: T.int(1, 50, 'Successes needed'), accumulated: T.int(0, 10000), turns: T.int(0, 1000),
  status: T.oneOf(['ongoing', 'done', 'aborted']), contest: T.bool('An ongoing contest'),
  notes: T.list(T.text(300), 200),
});
const SCHEME = T.obj({ scheme: T.int(0, 99, 'Dice in the Scheme') });
const PRICE = T.obj({
  current: T.id,
  situations: T.list(T.obj({ id: T.id, name: NAME, marked: T.list(T.int(0, 7), 8, '', { unique: true }) }), 100, '', { min: 1 }),
});
const LOG = T.obj({
  time: T.time, character: T.nullable(T.obj({ id: T.id, name: NAME })), system: T.oneOf(SYSTEMS),
  kind: T.oneOf(['roll', 'follow-up', 'note']), request: T.nullable(T.json(4000)), action: T.nullable(T.json(1000)),
  dice: T.list(T.int(1, 10), 500), outcome: T.text(40), summary: T.text(1000), note: T.text(500),
});
const META = T.obj({ schema: T.int(1, 1e6), created: T.time });

// --- field-by-field checks ---------------------------------------------------------------------------------------
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v) => { let s; try { s = JSON.stringify(v); } catch { s = String(v); } s = s === undefined ? String(v) : s; return s.length > 40 ? `${s.slice(0, 40)}…` : s; };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Check `value` against declaration `s`; push one "path: what is wrong" per problem into `errors`. */
export function check(value, s, path, errors) {
  if (errors.length >= MAX_ERRORS) return errors;
  const bad = (what) => errors.push(`${path}: must be ${what}, got ${show(value)}`);
  switch (s.t) {
    case 'int': if (!Number.isInteger(value) || value < s.min || value > s.max) bad(`a whole number from ${s.min} to ${s.max}`); break;
    case 'text': if (typeof value !== 'string' || value.length > s.max) bad(`a text of at most ${s.max} characters`); break;
    case 'bool': if (typeof value !== 'boolean') bad('true or false'); break;
    case 'oneOf': if (!s.values.includes(value)) bad(`one of ${s.values.join(', ')}`); break;
    case 'id': if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) bad('an id (1 to 64 letters, digits, - or _)'); break;
    case 'time': if (typeof value !== 'string' || !ISO.test(value) || Number.isNaN(Date.parse(value))) bad('a time like 2024-05-01T12:00:00.000Z'); break;
    case 'nullable': if (value !== null) check(value, s.of, path, errors); break;
    case 'json': {
      let text;
      try { text = JSON.stringify(value); } catch { text = undefined; }
      if (text === undefined || text.length > s.maxChars) bad(`JSON of at most ${s.maxChars} characters`);
      break;
    }
    case 'list': {
      if (!Array.isArray(value) || value.length > s.max || value.length < (s.min ?? 0)) {
        bad(`a list of ${s.min ?? 0} to ${s.max} entries`);
        break;
      }
      value.forEach((v, i) => check(v, s.of, `${path}[${i}]`, errors));
      if (s.unique && new Set(value).size !== value.length) errors.push(`${path}: must not repeat an entry`);
      if (s.of.t === 'obj' && 'id' in s.of.fields) {
        const ids = value.map((v) => v?.id);
        if (new Set(ids).size !== ids.length) errors.push(`${path}: two entries have the same id`);
      }
      break;
    }
    case 'obj': {
      if (!isObj(value)) { bad('an object'); break; }
      for (const k of Object.keys(value)) if (!(k in s.fields)) errors.push(`${path}.${k}: is not a known field`);
      for (const [k, sub] of Object.entries(s.fields)) {
        if (!(k in value)) errors.push(`${path}.${k}: is missing`);
        else check(value[k], sub, `${path}.${k}`, errors);
      }
      break;
    }
    default: throw new Error(`unknown declaration ${s.t}`);
  }
  return errors;
}

function checkCharacter(value, path, errors) {
  if (!isObj(value)) return errors.push(`${path}: must be an object, got ${show(value)}`);
  const { sheet, ...rest } = value;
  check(rest, T.obj(CHARACTER), path, errors);
  if (!('sheet' in value)) errors.push(`${path}.sheet: is missing`);
  else if (KINDS.includes(value.kind)) check(sheet, SHEETS[value.kind], `${path}.sheet`, errors);
  return errors;
}

function checkPrice(value, path, errors) {
  check(value, PRICE, path, errors);
  if (!errors.length && !value.situations.some((s) => s.id === value.current)) {
    errors.push(`${path}.current: must be the id of one of the situations, got ${show(value.current)}`);
  }
  return errors;
}

/** The declaration a record's data must meet, by its id. */
function dataErrors(id, data, path = 'data') {
  const errors = [];
  if (id === 'meta') check(data, META, path, errors);
  else if (id === 'shared:scheme') check(data, SCHEME, path, errors);
  else if (id === 'shared:price') checkPrice(data, path, errors);
  else if (id.startsWith('char:')) checkCharacter(data, path, errors);
  else if (id.startsWith('struggle:')) check(data, STRUGGLE, path, errors);
  else if (id.startsWith('log:')) check(data, LOG, path, errors);
  else errors.push(`${path}: no record is called ${show(id)}`);
  return errors;
}

function recordErrors(rec) {
  if (!isObj(rec) || typeof rec.id !== 'string') return [`a record without an id: ${show(rec)}`];
  const errors = [];
  const where = rec.id;
  for (const k of Object.keys(rec)) if (!['id', 'rev', 'updated', 'by', 'data'].includes(k)) errors.push(`${where}.${k}: is not a known field`);
  if (!Number.isInteger(rec.rev) || rec.rev < 1) errors.push(`${where}.rev: must be a whole number from 1, got ${show(rec.rev)}`);
  if (typeof rec.updated !== 'number') errors.push(`${where}.updated: must be a time in milliseconds, got ${show(rec.updated)}`);
  if (typeof rec.by !== 'string') errors.push(`${where}.by: must be a text, got ${show(rec.by)}`);
  const idOk = rec.id === 'meta' || rec.id === 'shared:scheme' || rec.id === 'shared:price'
    || /^(char|struggle|log):[A-Za-z0-9_-]{1,64}$/.test(rec.id);
  if (!idOk) errors.push(`${show(rec.id)}: is not a record this version keeps`);
  else errors.push(...dataErrors(rec.id, rec.data, `${where}.data`));
  return errors;
}

// --- migrations ----------------------------------------------------------------------------------------------------
/** The Pay the Price marks procedures.js kept in localStorage before there was a store (a list of 0..7). */
export function legacyMarks() {
  try {
    const m = JSON.parse(localStorage.getItem(LEGACY_PRICE_KEY));
    return Array.isArray(m) && m.every((i) => Number.isInteger(i) && i >= 0 && i <= 7) ? [...new Set(m)] : [];
  } catch {
    return [];
  }
}

const nowIso = () => new Date().toISOString();

/** MIGRATIONS[n] turns the data of schema n into schema n + 1 (records without revisions: {id, data}).
 * 0 is "no store yet": only the Pay the Price marks in localStorage, folded in as the first Situation. */
const MIGRATIONS = [
  (records) => {
    const situation = newId();
    const out = records.filter((r) => r.id !== 'meta');
    if (!out.some((r) => r.id === 'shared:scheme')) out.push({ id: 'shared:scheme', data: { scheme: 0 } });
    if (!out.some((r) => r.id === 'shared:price')) {
      out.push({ id: 'shared:price', data: { current: situation, situations: [{ id: situation, name: 'Situation 1', marked: legacyMarks() }] } });
    }
    out.push({ id: 'meta', data: { schema: 1, created: nowIso() } });
    return out;
  },
];

/** Bring {id, data} records from schema `from` up to SCHEMA. */
export function migrate(records, from) {
  let out = records;
  for (let v = from; v < SCHEMA; v++) out = MIGRATIONS[v](out);
  return out;
}

// --- backends: IndexedDB, or memory when the browser gives none --------------------------------------------------
const range = (prefix) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

class IdbBackend {
  constructor(db) { this.db = db; this.persistent = true; }

  /** Run `body(tx)` in one transaction; resolves with what body set as tx.result once it has committed. */
  run(mode, body) {
    return new Promise((resolve, reject) => {
      let t;
      try { t = this.db.transaction(OS, mode); } catch (error) { reject(error); return; }
      const os = t.objectStore(OS);
      let failure = null;
      const guard = (fn) => (...args) => { try { fn(...args); } catch (error) { failure = error; try { t.abort(); } catch { /* already over */ } } };
      const tx = {
        result: undefined,
        get: (key, cb) => { const r = os.get(key); r.onsuccess = guard(() => cb(r.result)); },
        all: (prefix, cb) => { const r = prefix ? os.getAll(range(prefix)) : os.getAll(); r.onsuccess = guard(() => cb(r.result)); },
        keys: (prefix, limit, cb) => { const r = os.getAllKeys(range(prefix), limit); r.onsuccess = guard(() => cb(r.result)); },
        count: (prefix, cb) => { const r = os.count(range(prefix)); r.onsuccess = guard(() => cb(r.result)); },
        slice: (after, limit, cb) => {
          const r = os.getAll(after === null ? null : IDBKeyRange.lowerBound(after, true), limit);
          r.onsuccess = guard(() => cb(r.result));
        },
        put: (rec) => os.put(rec),
        del: (key) => os.delete(key),
        delPrefix: (prefix) => os.delete(range(prefix)),
      };
      t.oncomplete = () => resolve(tx.result);
      t.onabort = () => reject(failure ?? t.error ?? new Error('The table could not be saved (the write was aborted)'));
      guard(body)(tx);
    });
  }
}

class MemoryBackend {
  constructor() { this.map = new Map(); this.persistent = false; }

  run(mode, body) {
    return new Promise((resolve, reject) => {
      const staged = new Map(this.map);
      const sorted = (prefix) => [...staged.keys()].filter((k) => k.startsWith(prefix)).sort();
      const tx = {
        result: undefined,
        get: (key, cb) => cb(structuredClone(staged.get(key))),
        all: (prefix, cb) => cb(sorted(prefix ?? '').map((k) => structuredClone(staged.get(k)))),
        keys: (prefix, limit, cb) => cb(sorted(prefix).slice(0, limit)),
        count: (prefix, cb) => cb(sorted(prefix).length),
        slice: (after, limit, cb) => cb(sorted('').filter((k) => after === null || k > after).slice(0, limit).map((k) => structuredClone(staged.get(k)))),
        put: (rec) => staged.set(rec.id, structuredClone(rec)),
        del: (key) => staged.delete(key),
        delPrefix: (prefix) => sorted(prefix).forEach((k) => staged.delete(k)),
      };
      try { body(tx); } catch (error) { reject(error); return; }
      if (mode === 'readwrite') this.map = staged;
      resolve(tx.result);
    });
  }
}

function openDb(name) {
  return new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) { reject(new Error('this browser offers no IndexedDB')); return; }
    let req;
    try { req = indexedDB.open(name, DB_VERSION); } catch (error) { reject(error); return; }
    req.onupgradeneeded = () => { if (!req.result.objectStoreNames.contains(OS)) req.result.createObjectStore(OS, { keyPath: 'id' }); };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB refused to open'));
    req.onblocked = () => reject(new Error('another tab holds an older version of the table open'));
  });
}

/** Every record, read in slices inside the one transaction `tx` (each slice its own short task), then `done(all)`. */
function readAll(tx, done, size = 500) {
  const all = [];
  const next = (after) => tx.slice(after, size, (batch) => {
    all.push(...batch);
    if (batch.length === size) next(batch.at(-1).id);
    else done(all);
  });
  next(null);
}

// --- the store -----------------------------------------------------------------------------------------------------
export class ConflictError extends Error {}

export class Store {
  constructor(backend) {
    this.backend = backend;
    this.tab = newId();
    this.records = new Map(); // id -> record, as last read or written
    this.keyCache = new Map(); // prefix -> its record ids, sorted
    this.listeners = new Set();
    this.problems = []; // {kind: 'damaged'|'newer'|'unavailable'|'readonly', message, aside?}
    this.readOnly = false;
    this.channel = null;
  }

  /** Open the table's store; never rejects: with no usable IndexedDB the table lives in memory and says so. */
  static async open({ name = DB_NAME } = {}) {
    let store;
    try {
      const db = await openDb(name);
      store = new Store(new IdbBackend(db));
      db.onversionchange = () => { db.close(); store.stopWriting('A newer version of Arbiter opened the table in another tab: reload this tab to go on saving.'); };
      await store.load();
    } catch (error) {
      store = new Store(new MemoryBackend());
      store.problems.push({ kind: 'unavailable', message: `This browser does not let the page keep the table (${error.message}): changes last until the page is closed.` });
      await store.load();
    }
    store.listen();
    return store;
  }

  /** Read everything; migrate an older schema, set aside a newer or damaged one, create what is missing. */
  async load() {
    const report = await this.backend.run('readwrite', (tx) => readAll(tx, (raw) => {
      // the repair's writes, also kept as the records this page starts from
      const records = new Map(raw.map((r) => [r.id, r]));
      const out = { put: (r) => { tx.put(r); records.set(r.id, r); }, del: (id) => { tx.del(id); records.delete(id); } };
      tx.result = { ...this.repair(out, raw), records };
    }));
    this.problems.push(...report.problems);
    this.setAll(report.records);
  }

  repair(tx, raw) {
    const problems = [];
    const stamp = (rec, rev = 1) => ({ id: rec.id, rev, updated: Date.now(), by: this.tab, data: rec.data });
    const records = raw.filter((r) => !(typeof r?.id === 'string' && r.id.startsWith('aside:')));
    const aside = (reason, details, schema = null) => {
      const id = `aside:${logId()}`;
      tx.put({ id, rev: 1, updated: Date.now(), by: this.tab, data: { at: nowIso(), reason, schema, problems: details, records } });
      return id;
    };
    const revs = new Map(records.map((r) => [r?.id, r?.rev]));
    const revOf = (id) => { const rev = revs.get(id); return Number.isInteger(rev) && rev > 0 ? rev : 0; };
    const fresh = () => { for (const rec of migrate([], 0)) tx.put(stamp(rec, revOf(rec.id) + 1)); };
    if (records.length === 0) { fresh(); return { problems }; }

    const meta = records.find((r) => r?.id === 'meta');
    const schema = isObj(meta?.data) && Number.isInteger(meta.data.schema) && meta.data.schema >= 1 ? meta.data.schema : null;
    if (schema !== null && schema > SCHEMA) {
      const id = aside('newer', [`schema ${schema}; this page reads schema ${SCHEMA} and older`], schema);
      for (const r of records) tx.del(r.id);
      fresh();
      problems.push({ kind: 'newer', aside: id, message: `The table saved here was written by a newer version of Arbiter (schema ${schema}; this page knows ${SCHEMA}). It is kept aside untouched; reload to get the newer version. Meanwhile this page starts a fresh table.` });
      return { problems };
    }

    const errors = [];
    let work = records;
    if (schema === null) {
      errors.push(meta ? `meta.data.schema: must be a whole number from 1, got ${show(meta?.data?.schema)}` : 'meta: is missing');
      work = records.filter((r) => r?.id !== 'meta');
    } else if (schema < SCHEMA) {
      try {
        work = migrate(records.map((r) => ({ id: r.id, data: r.data })), schema).map((r) => stamp(r, revOf(r.id) + 1));
      } catch (error) {
        errors.push(`the migration from schema ${schema} failed: ${error.message}`);
        work = [];
      }
    }
    const good = [];
    for (const rec of work) {
      const e = recordErrors(rec);
      if (e.length) errors.push(...e);
      else good.push(rec);
    }
    const kept = new Set(good.map((r) => r.id));
    if (errors.length) {
      const id = aside('damaged', errors.slice(0, MAX_ERRORS), schema);
      const dropped = records.filter((r) => !kept.has(r?.id));
      for (const r of dropped) tx.del(r.id);
      const n = dropped.filter((r) => r?.id !== 'meta').length;
      problems.push({ kind: 'damaged', aside: id, details: errors.slice(0, MAX_ERRORS),
        message: `Some of the table saved here could not be read (${errors.length} problem${errors.length === 1 ? '' : 's'}; ${n} record${n === 1 ? '' : 's'} left out). An untouched copy is kept aside (see “Save and restore”); everything else goes on working.` });
    }
    if (schema !== null && schema < SCHEMA) for (const r of good) tx.put(r);
    // the records a working table needs: meta, the Scheme, the Situations
    for (const r of migrate([], 0)) if (!kept.has(r.id)) tx.put(stamp(r, revOf(r.id) + 1));
    return { problems };
  }

  /** Read every record into memory again. */
  async reload() {
    const all = await this.backend.run('readonly', (tx) => readAll(tx, (rows) => { tx.result = rows; }));
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
      while (lo < hi) { const mid = (lo + hi) >> 1; if (keys[mid] < id) lo = mid + 1; else hi = mid; }
      if (added) keys.splice(lo, 0, id); else if (keys[lo] === id) keys.splice(lo, 1);
    }
  }

  checkMeta() {
    const schema = this.records.get('meta')?.data?.schema;
    if (Number.isInteger(schema) && schema > SCHEMA) this.stopWriting(`A newer version of Arbiter (schema ${schema}) updated the table in another tab: reload this tab to go on saving.`);
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
      this.channel.onmessage = ({ data }) => { if (data?.tab !== this.tab) this.refresh(data?.ids ?? 'all'); };
    }
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') this.refresh('all'); });
  }

  announce(ids) {
    this.emit(ids);
    try { this.channel?.postMessage({ tab: this.tab, ids: ids === 'all' ? 'all' : [...ids] }); } catch { /* the channel closed */ }
  }

  /** Another tab wrote `ids` (or 'all'): read them again; a record only ever moves to a newer revision. */
  async refresh(ids) {
    if (ids === 'all' || !Array.isArray(ids)) {
      const before = this.records;
      await this.reload();
      // a write of this tab that landed after the reload read keeps its newer revision
      for (const [id, rec] of before) if ((this.records.get(id)?.rev ?? Infinity) < rec.rev) this.records.set(id, rec);
      const changed = new Set([...before.keys(), ...this.records.keys()].filter((k) => before.get(k)?.rev !== this.records.get(k)?.rev));
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
      if (!rec) { if (mine) { this.delete(id); changed.add(id); } } else if (!mine || rec.rev > mine.rev) { this.set(id, rec); changed.add(id); }
    }
    if (changed.has('meta')) this.checkMeta();
    if (changed.size) this.emit(changed);
  }

  subscribe(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  emit(ids) {
    for (const fn of this.listeners) {
      try { fn(ids); } catch (error) { console.warn(error); }
    }
  }

  // --- reading ---
  get(id) { return this.records.get(id)?.data; }

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
    if (this.readOnly) throw new Error(this.problems.find((p) => p.kind === 'readonly')?.message ?? 'The table is read-only');
  }

  /** Compute the new data of `id` from its latest revision with `fn` (which may be async, may return undefined for
   * no change, and may throw to refuse); it is written only onto that revision, else computed again. */
  async update(id, fn, { create = false } = {}) {
    this.writable();
    for (let attempt = 0; attempt < 8; attempt++) {
      const current = await this.backend.run('readonly', (tx) => tx.get(id, (rec) => { tx.result = rec; }));
      if (!current && !create) throw new Error('That was deleted (in this or another tab).');
      const data = await fn(current ? structuredClone(current.data) : undefined);
      if (data === undefined) return current?.data;
      const errors = dataErrors(id, data);
      if (errors.length) throw new Error(`Not saved: ${errors.join('; ')}`);
      const next = { id, rev: (current?.rev ?? 0) + 1, updated: Date.now(), by: this.tab, data };
      const ok = await this.backend.run('readwrite', (tx) => tx.get(id, (rec) => {
        tx.result = (rec?.rev ?? 0) === (current?.rev ?? 0);
        if (tx.result) tx.put(next);
      }));
      if (ok) {
        this.set(id, next);
        this.announce(new Set([id]));
        return data;
      }
      await this.refresh([id]); // someone else wrote first: start again from their revision
    }
    throw new ConflictError('Another tab kept changing this; try again.');
  }

  async create(prefix, data) {
    const id = `${prefix}${newId()}`;
    await this.update(id, () => data, { create: true });
    return id.slice(prefix.length);
  }

  async remove(id) {
    this.writable();
    await this.backend.run('readwrite', (tx) => tx.del(id));
    this.delete(id);
    this.announce(new Set([id]));
  }

  /** Add a roll-log entry; past LOG_MAX the oldest go. */
  async append(entry) {
    this.writable();
    const id = `log:${logId()}`;
    const errors = dataErrors(id, entry);
    if (errors.length) throw new Error(`Not logged: ${errors.join('; ')}`);
    const rec = { id, rev: 1, updated: Date.now(), by: this.tab, data: entry };
    const dropped = await this.backend.run('readwrite', (tx) => {
      tx.put(rec);
      tx.result = [];
      tx.count('log:', (n) => {
        if (n > LOG_MAX) tx.keys('log:', n - LOG_MAX, (keys) => { tx.result = keys; keys.forEach((k) => tx.del(k)); });
      });
    });
    this.set(id, rec);
    for (const k of dropped) this.delete(k);
    this.announce(new Set([id, ...dropped]));
    return id;
  }

  async clearLog() {
    this.writable();
    await this.backend.run('readwrite', (tx) => tx.delPrefix('log:'));
    const ids = this.list('log:').map(([id]) => `log:${id}`);
    ids.forEach((k) => this.delete(k));
    this.announce(new Set(ids));
  }

  // --- the whole table as one file ---
  exportTable() {
    const rest = ([id, data]) => ({ id, ...data });
    return {
      app: APP, schema: SCHEMA, exported: nowIso(),
      characters: this.list('char:').map(rest),
      scheme: this.get('shared:scheme')?.scheme ?? 0,
      price: this.get('shared:price'),
      struggles: this.list('struggle:').map(rest),
      log: this.list('log:').map(rest),
    };
  }

  /** Replace the table (not the kept-aside copies) with a file `parseTableFile` accepted, in one transaction. */
  async replaceTable(file) {
    this.writable();
    const records = [
      { id: 'shared:scheme', data: { scheme: file.scheme } },
      { id: 'shared:price', data: file.price },
      ...file.characters.map(({ id, ...data }) => ({ id: `char:${id}`, data })),
      ...file.struggles.map(({ id, ...data }) => ({ id: `struggle:${id}`, data })),
      ...file.log.map(({ id, ...data }) => ({ id: `log:${id}`, data })),
    ];
    await this.backend.run('readwrite', (tx) => readAll(tx, (rows) => {
      const revs = new Map(rows.map((r) => [r.id, r.rev]));
      for (const r of rows) if (r.id !== 'meta' && !r.id.startsWith('aside:')) tx.del(r.id);
      // in slices, each after the last one's request answered: one transaction, no long task
      const putFrom = (start) => {
        for (const r of records.slice(start, start + 500)) tx.put({ id: r.id, rev: (revs.get(r.id) ?? 0) + 1, updated: Date.now(), by: this.tab, data: r.data });
        if (start + 500 < records.length) tx.get('meta', () => putFrom(start + 500));
      };
      putFrom(0);
    }));
    await this.reload();
    this.announce('all');
  }

  async removeAside(id) { return this.remove(id); }
}

/** Read a whole-table file: {table} when every field is right, else {errors: ["path: what is wrong", …]}. */
export function parseTableFile(text) {
  let file;
  try { file = JSON.parse(text); } catch (error) { return { errors: [`The file is not JSON: ${error.message}`] }; }
  if (!isObj(file)) return { errors: [`The file must hold one JSON object, got ${show(file)}`] };
  if (file.app !== APP) return { errors: [`app: must be "${APP}" (a table exported by Arbiter), got ${show(file.app)}`] };
  if (!Number.isInteger(file.schema) || file.schema < 1) return { errors: [`schema: must be a whole number from 1, got ${show(file.schema)}`] };
  if (file.schema > SCHEMA) return { errors: [`schema: the file was saved by a newer version of Arbiter (schema ${file.schema}); this page reads schema ${SCHEMA} and older. Reload to update, then import.`] };
  const errors = [];
  const known = ['app', 'schema', 'exported', 'characters', 'scheme', 'price', 'struggles', 'log'];
  for (const k of Object.keys(file)) if (!known.includes(k)) errors.push(`${k}: is not a known field`);
  for (const k of known) if (!(k in file)) errors.push(`${k}: is missing`);
  if (errors.length) return { errors };
  check(file.exported, T.time, 'exported', errors);
  check(file.scheme, SCHEME.fields.scheme, 'scheme', errors);
  checkPrice(file.price, 'price', errors);
  const entries = (name, max, each) => {
    if (!Array.isArray(file[name]) || file[name].length > max) { errors.push(`${name}: must be a list of at most ${max} entries, got ${show(file[name])}`); return; }
    const seen = new Set();
    file[name].forEach((entry, i) => {
      const path = `${name}[${i}]`;
      if (!isObj(entry)) { errors.push(`${path}: must be an object, got ${show(entry)}`); return; }
      const { id, ...data } = entry;
      check(id, T.id, `${path}.id`, errors);
      if (seen.has(id)) errors.push(`${path}.id: ${show(id)} is used twice`);
      seen.add(id);
      each(data, path);
    });
  };
  entries('characters', 500, (data, path) => checkCharacter(data, path, errors));
  entries('struggles', 500, (data, path) => check(data, STRUGGLE, path, errors));
  entries('log', LOG_MAX, (data, path) => check(data, LOG, path, errors));
  if (errors.length) return { errors: errors.slice(0, MAX_ERRORS) };
  return { table: file };
}
