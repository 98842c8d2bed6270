// Where the table's records live: IndexedDB, or memory when the browser gives none. A storage helper that knows
// nothing about the app: records with an `id`, read and written in transactions. Browser globals (indexedDB,
// IDBKeyRange) are touched only inside calls.

export const DB_NAME = 'arbiter-table';
const DB_VERSION = 1; // IndexedDB's own layout (one object store); the data's version is SCHEMA, kept in 'meta'
const OS = 'records';

const range = (prefix) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

export class IdbBackend {
  constructor(db) {
    this.db = db;
    this.persistent = true;
  }

  /** Run `body(tx)` in one transaction; resolves with what body set as tx.result once it has committed. */
  run(mode, body) {
    return new Promise((resolve, reject) => {
      let t;
      try {
        t = this.db.transaction(OS, mode);
      } catch (error) {
        reject(error);
        return;
      }
      const os = t.objectStore(OS);
      let failure = null;
      const guard =
        (fn) =>
        (...args) => {
          try {
            fn(...args);
          } catch (error) {
            failure = error;
            try {
              t.abort();
            } catch {
              /* already over */
            }
          }
        };
      const tx = {
        result: undefined,
        get: (key, cb) => {
          const r = os.get(key);
          r.onsuccess = guard(() => cb(r.result));
        },
        all: (prefix, cb) => {
          const r = prefix ? os.getAll(range(prefix)) : os.getAll();
          r.onsuccess = guard(() => cb(r.result));
        },
        keys: (prefix, limit, cb) => {
          const r = os.getAllKeys(range(prefix), limit);
          r.onsuccess = guard(() => cb(r.result));
        },
        count: (prefix, cb) => {
          const r = os.count(range(prefix));
          r.onsuccess = guard(() => cb(r.result));
        },
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

/** The same transactions over a Map: all or nothing, each value a copy. */
export class MemoryBackend {
  constructor() {
    this.map = new Map();
    this.persistent = false;
  }

  run(mode, body) {
    return new Promise((resolve, reject) => {
      const staged = new Map(this.map);
      const sorted = (prefix) => [...staged.keys()].filter((k) => k.startsWith(prefix)).sort();
      const copies = (keys) => keys.map((k) => structuredClone(staged.get(k)));
      const tx = {
        result: undefined,
        get: (key, cb) => cb(structuredClone(staged.get(key))),
        all: (prefix, cb) => cb(copies(sorted(prefix ?? ''))),
        keys: (prefix, limit, cb) => cb(sorted(prefix).slice(0, limit)),
        count: (prefix, cb) => cb(sorted(prefix).length),
        slice: (after, limit, cb) =>
          cb(
            copies(
              sorted('')
                .filter((k) => after === null || k > after)
                .slice(0, limit),
            ),
          ),
        put: (rec) => staged.set(rec.id, structuredClone(rec)),
        del: (key) => staged.delete(key),
        delPrefix: (prefix) => sorted(prefix).forEach((k) => staged.delete(k)),
      };
      try {
        body(tx);
      } catch (error) {
        reject(error);
        return;
      }
      if (mode === 'readwrite') this.map = staged;
      resolve(tx.result);
    });
  }
}

export function openDb(name) {
  return new Promise((resolve, reject) => {
    if (!globalThis.indexedDB) {
      reject(new Error('this browser offers no IndexedDB'));
      return;
    }
    let req;
    try {
      req = indexedDB.open(name, DB_VERSION);
    } catch (error) {
      reject(error);
      return;
    }
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(OS)) req.result.createObjectStore(OS, { keyPath: 'id' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB refused to open'));
    req.onblocked = () => reject(new Error('another tab holds an older version of the table open'));
  });
}

/** Every record of a table whose IndexedDB layout a newer Arbiter raised past DB_VERSION (opening it at ours is a
 * VersionError): opened at its own version, read in one readonly transaction and closed at once, nothing written or
 * upgraded; [] when it holds no records. */
export function readNewer(name) {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name);
    req.onupgradeneeded = () => req.transaction.abort(); // gone meanwhile: make nothing
    req.onerror = () => reject(req.error ?? new Error('IndexedDB refused to open'));
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => db.close();
      if (!db.objectStoreNames.contains(OS)) {
        db.close();
        resolve([]);
        return;
      }
      const t = db.transaction(OS, 'readonly');
      const all = t.objectStore(OS).getAll();
      t.oncomplete = () => {
        db.close();
        resolve(all.result);
      };
      t.onabort = () => {
        db.close();
        reject(t.error ?? new Error('the table could not be read'));
      };
    };
  });
}

/** Every record, read in slices inside the one transaction `tx` (each slice its own short task), then `done(all)`. */
export function readAll(tx, done, size = 500) {
  const all = [];
  const next = (after) =>
    tx.slice(after, size, (batch) => {
      all.push(...batch);
      if (batch.length === size) next(batch.at(-1).id);
      else done(all);
    });
  next(null);
}
