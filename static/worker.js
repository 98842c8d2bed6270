// The only place Python runs: a module Web Worker that restores Pyodide from this site's memory snapshot (Python
// already started, the rules already imported: py/tools/pyodide_build.mjs takes it, static/snapshot.js reads it) and
// answers the page's requests, so the page never blocks on the rules. Nothing else is fetched: no stdlib, no
// packages, no lock file.
//
// Page -> worker: {id, method, args: [...]}: method one of arbiter.api's doors (METHODS below), args its arguments
// Worker -> page: {progress: 0..1, label}       while loading
//                 {ready: true, version, timeline}  once the rules answer (progress 1); timeline: [[what, epoch ms]]
//                 {failed: message}             if loading failed (the page may start a new worker)
//                 {id, ok: true, value}         an answer: the same JSON as the Python API
//                 {id, ok: false, kind, error}  kind "RulesError": its message; otherwise a clear text

// The two big downloads start on the first line, before Pyodide's JavaScript is even imported: the wasm compiles
// as it streams in, and the snapshot arrives meanwhile. (Imports are dynamic for that reason: static ones would
// all be fetched before any line here runs.)
const WASM_URL = new URL('../pyodide/pyodide.asm.wasm', import.meta.url);
const SNAPSHOT_URL = new URL('../pyodide/snapshot.bin', import.meta.url);
const compiled = WebAssembly.compileStreaming(fetch(WASM_URL));
const snapshotBytes = fetch(SNAPSHOT_URL).then(async (response) => {
  if (!response.ok) throw new Error(`${SNAPSHOT_URL.pathname}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
});
// Pyodide's 1.2 MB of Emscripten JavaScript: fetched and parsed while the wasm compiles (loadPyodide would only ask
// for it once pyodide.mjs has loaded), then handed to loadPyodide as its `createPyodideModule`.
const emscripten = import('../pyodide/pyodide.asm.mjs');
for (const promise of [compiled, snapshotBytes, emscripten]) promise.catch(() => {}); // reported by load()

const INDEX_URL = new URL('../pyodide/', import.meta.url);

// A .wasm served with the wrong MIME type, or a stalled download, can leave loading waiting
// forever: give up after this long. `?timeout=ms` on the worker's URL overrides it (tests use it).
const LOAD_TIMEOUT_MS = Number(new URL(self.location.href).searchParams.get('timeout')) || 120_000;

// arbiter.api's doors, each reached through api.call_json: the procedures, the table's ops, what a roll costs and
// what follows it, the request a sheet fills, and the table's records.
const METHODS = new Set(['systems', 'roll', 'act', 'odds', 'table', 'costs', 'after_roll', 'request_from_sheet',
  'table_spec', 'check_sheet', 'check_record']);

let stage = 'Starting';
const timeline = []; // [what, when (ms since the epoch)]: sent with {ready}, for the start-up benchmark
const mark = (what) => timeline.push([what, performance.timeOrigin + performance.now()]);
mark('worker started');

function progress(value, label) {
  stage = label;
  mark(label);
  self.postMessage({ progress: value, label });
}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Loading Python took longer than ${ms / 1000} s (stuck at: ${stage})`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function load() {
  progress(0, 'Loading Python runtime…');
  compiled.then(() => mark('wasm compiled'), () => {});
  const [{ loadPyodide }, { EMPTY_ZIP, restoreOptions, parseSnapshot }, { default: createPyodideModule }] =
    await Promise.all([import('../pyodide/pyodide.mjs'), import('./snapshot.js'), emscripten]);
  const snapshot = snapshotBytes.then((bytes) => {
    const parsed = parseSnapshot(bytes);
    mark('snapshot fetched');
    return parsed;
  });
  snapshot.catch(() => {}); // reported by loadPyodide, which awaits it
  const restoring = restoreOptions(snapshot, {
    compiled,
    wasmUrl: WASM_URL,
    step: (step) => (step === 'instantiated' ? progress(0.7, 'Restoring the rules…') : mark(step)),
  });
  const stdlib = URL.createObjectURL(new Blob([EMPTY_ZIP], { type: 'application/zip' }));
  try {
    const pyodide = await Promise.race([
      restoring.failed,
      loadPyodide({
        indexURL: INDEX_URL.href,
        stdLibURL: stdlib,
        createPyodideModule,
        ...restoring.options, // the snapshot: Pyodide's private API, pinned by tests
        stdout: () => {},
        stderr: (line) => console.warn(line),
      }),
    ]);
    progress(0.9, 'Starting the rules…');
    const api = pyodide.pyimport('arbiter.api'); // imported before the snapshot: nothing to load
    const call = api.call_json;
    const version = api.start(); // reseeds `random` from the OS: never the build's state
    return { call, version }; // the {ready} message below is the last step: progress 1
  } finally {
    restoring.restore();
    URL.revokeObjectURL(stdlib);
  }
}

self.onmessage = async (event) => {
  const { id, method, args } = event.data ?? {};
  let reply;
  try {
    const { call } = await loading;
    if (!METHODS.has(method)) throw new Error(`Unknown method ${JSON.stringify(method)}`);
    reply = JSON.parse(call(method, JSON.stringify(args ?? [])));
  } catch (error) {
    reply = { ok: false, error: String(error?.message ?? error) };
  }
  self.postMessage({ id, ...reply });
};

const loading = withTimeout(load(), LOAD_TIMEOUT_MS);
loading.then(
  ({ version }) => {
    mark('ready');
    self.postMessage({ ready: true, version, timeline });
  },
  (error) => self.postMessage({ failed: String(error?.message ?? error) }),
);

