// The only place Python runs: a module Web Worker that restores Pyodide from this site's memory snapshot (Python
// already started, the rules already imported: py/tools/pyodide_build.mjs takes it, snapshot.js reads it) and
// answers the page's requests, so the page never blocks on the rules. Nothing else is fetched: no stdlib, no
// packages, no lock file.
//
// Page -> worker: {id, method, args: [...]}: method one of arbiter.api's doors (DOORS below), args its arguments
// Worker -> page: {progress: 0..1, label}       while loading: the bytes of the two downloads, then the steps
//                 {ready: true, version, timeline}  once the rules answer (progress 1); timeline: [[what, epoch ms]]
//                 {failed: message}             if loading failed (the page may start a new worker)
//                 {id, ok: true, value}         an answer: the same JSON as the Python API
//                 {id, ok: false, kind, error}  kind "RulesError": its message; otherwise a clear text

// The two big downloads start on the first line, before Pyodide's JavaScript is even imported: the wasm compiles
// as it streams in (once the page says go, below), and the snapshot arrives meanwhile. (Imports are dynamic for that
// reason: static ones would all be fetched before any line here runs.)
const WASM_URL = new URL('../../pyodide/pyodide.asm.wasm', import.meta.url);
const SNAPSHOT_URL = new URL('../../pyodide/snapshot.bin', import.meta.url);
// The rest waits for the page's word ({go: true}, or its first call): Python's start keeps a core or two busy for a
// second, and the page draws its first screen meanwhile (static/engine/client.js). The bytes go on arriving.
let go;
const going = new Promise((resolve) => (go = resolve)).then(() => mark('go'));
const wasm = fetch(WASM_URL).then(counted);
const compiled = WebAssembly.compileStreaming(going.then(() => wasm));
const snapshotBytes = fetch(SNAPSHOT_URL).then(async (response) => {
  if (!response.ok) throw new Error(`${SNAPSHOT_URL.pathname}: HTTP ${response.status}`);
  return new Uint8Array(await counted(response).arrayBuffer());
});
// Pyodide's 1.2 MB of Emscripten JavaScript: fetched and parsed while the wasm compiles (loadPyodide would only ask
// for it once pyodide.mjs has loaded), then handed to loadPyodide as its `createPyodideModule`.
const emscripten = going.then(() => import('../../pyodide/pyodide.asm.mjs'));
for (const promise of [wasm, compiled, snapshotBytes, emscripten]) promise.catch(() => {}); // reported by load()

const INDEX_URL = new URL('../../pyodide/', import.meta.url);

// A .wasm served with the wrong MIME type, or a stalled download, can leave loading waiting
// forever: give up after this long. `?timeout=ms` on the worker's URL overrides it (tests use it).
const LOAD_TIMEOUT_MS = Number(new URL(self.location.href).searchParams.get('timeout')) || 120_000;

// arbiter.api's doors (api.DOORS), each reached through api.call_json: written here by build.py (py/tools/doors.py).
const DOORS = new Set(/* DOORS */ [] /* DOORS */);

let stage = 'Starting';
let shown = 0; // the progress last sent: it never goes back
let settled = false; // ready or failed: a download still arriving (the wasm, when the snapshot failed) says no more
const timeline = []; // [what, when (ms since the epoch)]: sent with {ready}, for the start-up benchmark
const mark = (what) => timeline.push([what, performance.timeOrigin + performance.now()]);
mark('worker started');

/** Move the bar to `value` (never back) and say `label`; `progress` also marks the label on the timeline. */
function show(value, label) {
  if (settled) return;
  stage = label;
  shown = Math.max(shown, value);
  self.postMessage({ progress: shown, label });
}

function progress(value, label) {
  mark(label);
  show(value, label);
}

// --- the bar while downloading -------------------------------------------------------------------------------------
// The bar starts at STARTED once this worker runs (the page and the worker are in: about that share of a slow
// phone's wait), and the two downloads fill it up to DOWNLOADED, byte by byte as they arrive: on a slow phone they are
// most of the wait. SIZES is each file's size as read here (decoded), written by build.py (py/tools/snapshot.py's
// write_download_sizes): Content-Length is the gzipped size, or absent. A message at most per STEP of the bytes and
// per GAP_MS: each message is a frame for the page to draw (and for a phone to pay for) while it is busiest; where the
// bytes arrive fast, as from the offline copy, the bar moves a few times instead of sixty times a second.
const SIZES = /* BUILD */ {} /* BUILD */;
const STARTED = 0.02;
const DOWNLOADED = 0.8;
const STEP = 0.02;
const GAP_MS = 250;
const bytes = { received: 0, total: Object.values(SIZES).reduce((a, b) => a + b, 0), reported: 0, at: 0, left: 2 };
progress(STARTED, 'Loading Python runtime…');

/** `response` with its body counted into the bar as it is read (the same bytes, the same headers and status). */
function counted(response) {
  if (!response.ok || !response.body) return response;
  // Its readable side never pushes back: the bytes are counted (and kept) as they arrive, read or not yet.
  const counter = new TransformStream(
    {
      transform(chunk, controller) {
        bytes.received += chunk.byteLength;
        const done = Math.min(bytes.received / bytes.total, 1);
        const now = performance.now();
        if (bytes.total && done - bytes.reported >= STEP && now - bytes.at >= GAP_MS) {
          Object.assign(bytes, { reported: done, at: now });
          show(STARTED + (DOWNLOADED - STARTED) * done, stage);
        }
        controller.enqueue(chunk);
      },
      flush() {
        if (--bytes.left === 0) progress(DOWNLOADED, 'Starting Python…');
      },
    },
    undefined,
    { highWaterMark: Infinity },
  );
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
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

const STEPS = { instantiated: 0.85, decoded: 0.9 }; // snapshot.js's steps after the downloads, on the bar

async function load() {
  compiled.then(
    () => mark('wasm compiled'),
    () => {},
  );
  const [{ loadPyodide }, { EMPTY_ZIP, restoreOptions, parseSnapshot }, { default: createPyodideModule }] =
    await Promise.all([import('../../pyodide/pyodide.mjs'), import('./snapshot.js'), emscripten]);
  const snapshot = snapshotBytes.then((bytes) => {
    const parsed = parseSnapshot(bytes);
    mark('snapshot fetched');
    return parsed;
  });
  snapshot.catch(() => {}); // reported by loadPyodide, which awaits it
  const restoring = restoreOptions(snapshot, {
    compiled,
    wasmUrl: WASM_URL,
    // Once the bytes are in, the steps left move the bar too; before (the wasm compiled ahead of the snapshot's
    // arrival), the bytes do.
    step: (step) => {
      mark(step);
      if (step in STEPS && bytes.left === 0) show(STEPS[step], 'Starting Python…');
    },
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
    progress(0.95, 'Starting the rules…');
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
  go();
  if (event.data?.go) return;
  const { id, method, args } = event.data ?? {};
  let reply;
  try {
    const { call } = await loading;
    if (!DOORS.has(method)) throw new Error(`Unknown method ${JSON.stringify(method)}`);
    reply = JSON.parse(call(method, JSON.stringify(args ?? [])));
  } catch (error) {
    reply = { ok: false, error: String(error?.message ?? error) };
  }
  self.postMessage({ id, ...reply });
};

const loading = withTimeout(going.then(load), LOAD_TIMEOUT_MS);
loading.then(
  ({ version }) => {
    settled = true;
    mark('ready');
    self.postMessage({ ready: true, version, timeline });
  },
  (error) => {
    settled = true;
    self.postMessage({ failed: String(error?.message ?? error) });
  },
);
