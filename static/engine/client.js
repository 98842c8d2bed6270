// The page's door to the rules: starts the Python worker as soon as it is imported (its downloads begin) and turns
// its messages into Promises of the same JSON as `arbiter.api`. Python never runs on the page's thread, and it starts
// (compiling the wasm, restoring the snapshot) when the page says `go()` or at the first call.
//
//   import { arbiter } from "./client.js";   // also window.arbiter
//   arbiter.onProgress(({ progress, label, failed }) => …);
//   arbiter.go();                                     // once the page has drawn its first screen
//   await arbiter.ready;                              // rejects if Pyodide failed to load; then arbiter.retry()
//   const odds = await arbiter.odds("luck", { dice: 2, for: 0, against: 0 });
//   const next = await arbiter.oddsAfter("ten_again", roll, { spend_will: true });  // api.odds_after, camelCased
//
// A call rejects with an Error whose message is the RulesError's message (error.name "RulesError"),
// or with the load failure when Python could not be loaded.
//
// Timings, for `python3 build.py bench` and the curious: performance marks "arbiter:worker-start", "arbiter:go",
// "arbiter:progress <0..1>" and "arbiter:ready", `arbiter.loadTimeline` (the worker's steps while loading) and
// `arbiter.timings`, the last 100 calls as {method, ms} (round trips through the worker).

// `?timeout=ms` on this module's URL is passed on to the worker (its load timeout; for tests).
const LOAD_TIMEOUT = new URL(import.meta.url).searchParams.get('timeout');
// arbiter.api's doors (api.DOORS), written here by build.py (py/tools/doors.py): each is a method of `arbiter`.
const DOORS = /* DOORS */ [] /* DOORS */;
const camelCase = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
// Arguments left out at the end take the Python function's defaults (seed, args, action, earned, choices).
const withoutTrailing = (args) => {
  const out = [...args];
  while (out.length && out.at(-1) === undefined) out.pop();
  return out;
};

let worker = null;
let readyPromise = null;
let status = 'loading'; // "loading" | "ready" | "failed"
let latest = { progress: 0, label: 'Starting…' };
let nextId = 1;
const pending = new Map(); // id -> { resolve, reject }
const listeners = new Set();
const timings = [];
const KEEP_TIMINGS = 100;
let loadTimeline = [];

function emit(state) {
  latest = state;
  for (const listener of listeners) {
    try {
      listener(state);
    } catch (error) {
      console.error(error);
    }
  }
}

function rejectPending(message) {
  for (const { reject } of pending.values()) reject(new Error(message));
  pending.clear();
}

function start() {
  performance.mark('arbiter:worker-start');
  const url = new URL('./worker.js', import.meta.url);
  if (LOAD_TIMEOUT) url.searchParams.set('timeout', LOAD_TIMEOUT);
  const retried = worker !== null;
  const current = new Worker(url, { type: 'module' });
  worker = current;
  went = false;
  if (retried) go(); // the page has long been drawn
  status = 'loading';
  let settle;
  readyPromise = new Promise((resolve, reject) => (settle = { resolve, reject }));
  readyPromise.catch(() => {}); // reported through `ready` and onProgress, not as an unhandled rejection

  const fail = (message) => {
    if (worker !== current || status === 'failed') return;
    if (status === 'ready') {
      // The worker died after loading: calls must not wait on it, and `ready` must say so.
      readyPromise = Promise.reject(new Error(message));
      readyPromise.catch(() => {});
    }
    status = 'failed';
    console.warn(`Arbiter: Python failed: ${message}`);
    settle.reject(new Error(message));
    rejectPending(message);
    emit({ progress: latest.progress, label: 'Could not load Python', failed: message });
  };

  current.onmessage = ({ data }) => {
    if (worker !== current) return;
    if ('id' in data) {
      const call = pending.get(data.id);
      if (!call) return;
      pending.delete(data.id);
      if (data.ok) {
        call.resolve(data.value);
      } else {
        const error = new Error(data.error);
        error.name = data.kind ?? 'Error';
        // a RulesError's field and what it says of it, for the page's own words (see arbiter/errors.py)
        Object.assign(error, {
          path: data.path ?? null,
          says: data.says ?? null,
          holder: data.holder ?? false,
          left: data.left ?? null,
          problems: data.problems ?? [],
        });
        call.reject(error);
      }
    } else if ('failed' in data) {
      fail(data.failed);
    } else if (data.ready) {
      performance.mark('arbiter:ready');
      loadTimeline = (data.timeline ?? []).map(([what, at]) => ({ what, ms: at - performance.timeOrigin }));
      status = 'ready';
      settle.resolve({ version: data.version });
      emit({ progress: 1, label: 'Ready' });
    } else if ('progress' in data) {
      performance.mark(`arbiter:progress ${data.progress}`);
      emit({ progress: data.progress, label: data.label });
    }
  };
  // The worker script itself failed (e.g. a missing file): no message will come.
  current.onerror = (event) => {
    event.preventDefault();
    fail(event.message || 'The Python worker could not start');
  };
  emit({ progress: 0, label: 'Starting…' });
}

// Python starts in its worker (compiling the wasm, restoring the snapshot) once the page says so: it keeps a core or
// two busy for a second, and the page's first screen would meanwhile be drawn several times slower. The downloads
// start with the worker.
let went = false;
function go() {
  if (went) return;
  went = true;
  performance.mark('arbiter:go');
  worker.postMessage({ go: true });
}

function call(method, args) {
  go();
  return readyPromise.then(
    () =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const sent = performance.now();
        const timed = (settle) => (value) => {
          if (timings.push({ method, ms: performance.now() - sent }) > KEEP_TIMINGS) timings.shift();
          settle(value);
        };
        pending.set(id, { resolve: timed(resolve), reject: timed(reject) });
        worker.postMessage({ id, method, args });
      }),
  );
}

export const arbiter = {
  /** Resolves with {version} once the rules are loaded; a fresh Promise after retry(). */
  get ready() {
    return readyPromise;
  },
  /** "loading", "ready" or "failed". */
  get status() {
    return status;
  },
  /** The last calls' round trips, oldest first: [{method, ms}]. */
  get timings() {
    return timings.slice();
  },
  /** The worker's steps while loading, as [{what, ms}] since this page's navigation started. */
  get loadTimeline() {
    return loadTimeline.slice();
  },
  /** The page has drawn its first screen: Python may start now (the first call says so too). */
  go,
  /** arbiter.api's doors (DOORS), camelCased: arbiter.oddsAfter(system, roll, action) calls api.odds_after. */
  ...Object.fromEntries(DOORS.map((door) => [camelCase(door), (...args) => call(door, withoutTrailing(args))])),
  /** Calls `listener({progress, label, failed?})` now and on every change; returns an unsubscribe function. */
  onProgress(listener) {
    listeners.add(listener);
    listener(latest);
    return () => listeners.delete(listener);
  },
  /** After a failed load (or a crashed worker): end that worker and start a new one. Returns the new `ready`. */
  retry() {
    if (status === 'failed') {
      worker.terminate();
      start();
    }
    return readyPromise;
  },
};

start();
window.arbiter = arbiter;
export default arbiter;
