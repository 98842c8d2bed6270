// Build-time steps that need Python 3.14 itself, run inside the pinned Pyodide under Node (build.py runs them;
// their results are cached in .cache/ by the hashes of their inputs).
//
//   node py/tools/pyodide_build.mjs stdlib   CONFIG.json   precompile the stdlib to .pyc (optimize=2) into one zip
//   node py/tools/pyodide_build.mjs snapshot CONFIG.json   boot Python, import the rules, write the memory snapshot
//   node py/tools/pyodide_build.mjs verify   CONFIG.json   restore that snapshot as the page does, and use the rules
//
// The snapshot file (its format: static/engine/snapshot.js) is what static/engine/worker.js restores instead of booting
// Python.
// It uses Pyodide's private snapshot API (`_makeSnapshot`, `makeMemorySnapshot`, `_loadSnapshot`); tests pin it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { EMPTY_ZIP, restoreOptions, fnv1a32, parseSnapshot } = await import(
  path.join(here, '..', '..', 'static', 'engine', 'snapshot.js')
);

const [command, configPath] = process.argv.slice(2);
const config = JSON.parse(fs.readFileSync(configPath, 'utf8'));
const { loadPyodide } = await import(path.join(config.pyodide, 'pyodide.mjs'));

// --- the stdlib, precompiled ------------------------------------------------------------------------------------

async function stdlib() {
  const py = await loadPyodide({ indexURL: config.pyodide + '/', stdout: () => {}, stderr: (l) => console.error(l) });
  py.FS.writeFile('/tmp/in.zip', fs.readFileSync(config.input));
  py.runPython(`
import importlib._bootstrap_external as bootstrap, importlib.util, zipfile

STAMP = (1980, 1, 1, 0, 0, 0)  # fixed dates: the same stdlib always gives the same zip
with zipfile.ZipFile('/tmp/in.zip') as src, zipfile.ZipFile('/tmp/out.zip', 'w') as dst:
    for name in sorted(src.namelist()):
        if not name.endswith('.py'):
            continue
        source = src.read(name)
        # optimize=2: no docstrings or asserts in the stdlib (smaller snapshot); the rules likewise (make_snapshot).
        code = compile(source, '/lib/python314.zip/' + name, 'exec', dont_inherit=True, optimize=2)
        # an unchecked hash-based pyc: valid without its source, whatever the file dates
        pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        info = zipfile.ZipInfo(name[:-3] + '.pyc', date_time=STAMP)
        info.compress_type = zipfile.ZIP_DEFLATED
        dst.writestr(info, bytes(pyc))
`);
  fs.writeFileSync(config.output, py.FS.readFile('/tmp/out.zip'));
}

// --- the memory snapshot ----------------------------------------------------------------------------------------
//
// The file format is described, and read, in static/engine/snapshot.js. The XOR reference is the memory as the page's
// pyodide.asm.wasm is instantiated: the stock wasm's data segments, less those build.py emptied (`config.emptied`).

async function snapshot() {
  // The memory as instantiated (before anything runs) is the reference the browser will have too.
  let reference = null;
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const result = await instantiate(...args);
    const exports = (result.instance ?? result).exports;
    if (exports.__stack_low && !reference) {
      const end = exports.__stack_low.value;
      reference = new Uint8Array(exports.memory.buffer, 0, end).slice();
      for (const [offset, length] of config.emptied ?? []) reference.fill(0, offset, offset + length);
    }
    return result;
  };
  const py = await loadPyodide({
    indexURL: config.pyodide + '/',
    stdLibURL: config.stdlib,
    _makeSnapshot: true,
    stdout: () => {},
    stderr: (line) => console.error(line),
  });
  WebAssembly.instantiate = instantiate;
  if (!reference) throw new Error('did not see pyodide.asm.wasm being instantiated');

  // The wheel is pure Python: unpacked into site-packages it is installed. (Pyodide's loadPackage would work too, but
  // a snapshot refuses to be taken once loadPackage has recorded a package.)
  py.FS.writeFile('/tmp/wheel.whl', fs.readFileSync(config.wheel));
  py.runPython(`import site, zipfile; zipfile.ZipFile('/tmp/wheel.whl').extractall(site.getsitepackages()[0])`);
  // The rules compiled as the stdlib is (optimize=2: no docstrings, no asserts), into the .pyc the import system looks
  // for first, so the snapshot holds no docstring of theirs (the page reads none; CPython's tests run them as written).
  py.runPython(`
import importlib.util, pathlib, py_compile, site
root = pathlib.Path(site.getsitepackages()[0])
for source in sorted([*root.glob('arbiter/**/*.py'), *root.glob('arbiter_procedures/**/*.py')]):
    py_compile.compile(str(source), importlib.util.cache_from_source(str(source), optimization=''), optimize=2,
                       doraise=True)
`);
  const report = JSON.parse(py.runPython(config.setup));
  if (report.late_imports.length) {
    throw new Error(
      `the rules imported ${report.late_imports.join(', ')} only on a second call: import them at the top`,
    );
  } // defines the bridge, exercises it, tidies up
  zeroFreeMemory(py._module);
  const snap = py.makeMemorySnapshot();

  const header = new Uint32Array(snap.buffer, snap.byteOffset, 4);
  const headerLength = header[1];
  const memory = snap.subarray(headerLength);
  // Memory nothing will read (snapshot.py's UNREACHABLE: tables of builtin modules that cannot be imported) is zero.
  for (const [offset, length] of config.unreachable ?? []) memory.fill(0, offset, offset + length);
  const referenceEnd = reference.length;
  for (let i = 0; i < referenceEnd; i++) memory[i] ^= reference[i];

  // Only the 64 KiB pages that are not all zero go into the zstd frame (the stack and the top of the heap are).
  const PAGE = 65536;
  const runs = [];
  for (let page = 0; page * PAGE < memory.length; page++) {
    const words = new Uint32Array(memory.buffer, memory.byteOffset + page * PAGE, PAGE / 4);
    if (!words.some((w) => w !== 0)) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === page) last[1]++;
    else runs.push([page, 1]);
  }
  const pages = new Uint8Array(runs.reduce((n, [, count]) => n + count * PAGE, 0));
  let at = 0;
  for (const [first, count] of runs) {
    pages.set(memory.subarray(first * PAGE, (first + count) * PAGE), at);
    at += count * PAGE;
  }
  py.FS.writeFile('/tmp/memory', pages);
  // Window 23 (8 MiB): 13 kB smaller than 22 over 13.8 MB of pages; decoding needs 4 MiB more of the fresh instance's
  // scratch memory (static/engine/snapshot.js checks it fits). Level 22 or window 24 save 1-3 kB more, not worth it.
  py.runPython(`
from compression import zstd
P = zstd.CompressionParameter
options = {P.compression_level: ${config.level ?? 19}, P.window_log: ${config.windowLog ?? 23}, P.checksum_flag: 1}
with open('/tmp/memory', 'rb') as f:
    data = f.read()
with open('/tmp/memory.zst', 'wb') as f:
    f.write(zstd.compress(data, options=options))
`);
  const zst = py.FS.readFile('/tmp/memory.zst');
  const meta = new TextEncoder().encode(
    JSON.stringify({ lock: { info: py.lockfile.info, packages: {} }, emptied: config.emptied ?? [], runs }),
  );
  const out = new Uint8Array(32 + headerLength + meta.length + zst.length);
  out.set(new TextEncoder().encode('ARBSNAP1'), 0);
  const fields = new Uint32Array(out.buffer, 8, 6);
  fields.set([headerLength, memory.length, referenceEnd, fnv1a32(reference), zst.length, meta.length]);
  out.set(snap.subarray(0, headerLength), 32);
  out.set(meta, 32 + headerLength);
  out.set(zst, 32 + headerLength + meta.length);
  fs.writeFileSync(config.output, out);
  console.log(JSON.stringify({ ...report, memoryLength: memory.length, referenceEnd, bytes: out.length }));
}

// --- the check: restore as static/engine/worker.js does, with the wasm the page loads ---------------------------

async function verify() {
  const bytes = new Uint8Array(fs.readFileSync(config.snapshot));
  const snapshot = Promise.resolve(parseSnapshot(bytes));
  const restoring = restoreOptions(snapshot); // decoded in place (the page decodes on a second thread)
  const stdlib = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-verify-')), 'empty.zip');
  fs.writeFileSync(stdlib, EMPTY_ZIP);
  const py = await Promise.race([
    restoring.failed,
    loadPyodide({
      indexURL: config.pyodide + '/',
      stdLibURL: stdlib,
      ...restoring.options,
      stdout: () => {},
      stderr: (line) => console.error(line),
    }),
  ]);
  restoring.restore();
  fs.rmSync(path.dirname(stdlib), { recursive: true });
  const api = py.pyimport('arbiter.api'); // as static/engine/worker.js does
  const version = api.start();
  const call = api.call_json;
  const systems = JSON.parse(call('systems', '[]'));
  if (!systems.ok) throw new Error(`systems() failed after the restore: ${systems.error}`);
  for (const system of systems.value) {
    for (const method of ['odds', 'roll']) {
      const answer = JSON.parse(call(method, JSON.stringify([system.id, system.defaults])));
      if (!answer.ok) throw new Error(`${method}(${system.id}) failed after the restore: ${answer.error}`);
    }
  }
  const dice = () => JSON.parse(call('roll', JSON.stringify(['ten_again', { pool: 30 }]))).value.dice.join(',');
  if (dice() === dice()) throw new Error('two rolls of 30 dice after the restore came out the same');
  // The builtin modules whose tables the snapshot holds as zeros (snapshot.py's UNREACHABLE) cannot be imported.
  const leftOut = py.runPython(`
import importlib
refused = []
for name in ['_codecs_cn', '_codecs_hk', '_codecs_iso2022', '_codecs_jp', '_codecs_kr', '_codecs_tw']:
    try:
        importlib.import_module(name)
    except ImportError as error:
        refused.append(name if 'left out' in str(error) else f'{name}: {error}')
','.join(refused)
`);
  if (leftOut !== '_codecs_cn,_codecs_hk,_codecs_iso2022,_codecs_jp,_codecs_kr,_codecs_tw') {
    throw new Error(`after the restore, importing the CJK codecs was not refused as it should be: ${leftOut}`);
  }
  console.log(JSON.stringify({ version, systems: systems.value.length }));
}

// Freed heap memory still holds old bytes; zeroed, it costs nothing once compressed. Take every free chunk that
// lies below the current break with malloc, zero it and give it back.
function zeroFreeMemory(Module) {
  const brk = Module.HEAPU32[Module._emscripten_get_sbrk_ptr() >>> 2];
  const taken = [];
  for (let size = 1 << 22; size >= 16; size >>= 1) {
    for (;;) {
      const p = Module._malloc(size) >>> 0;
      if (!p) break;
      if (p + size > brk) {
        Module._free(p);
        break;
      }
      Module.HEAPU8.fill(0, p, p + size);
      taken.push(p);
    }
  }
  for (const p of taken) Module._free(p);
}

try {
  if (command === 'stdlib') await stdlib();
  else if (command === 'snapshot') await snapshot();
  else if (command === 'verify') await verify();
  else throw new Error(`unknown command ${command}`);
} catch (error) {
  // (Node would print the offending source line: for Pyodide's minified runtime that is a megabyte.)
  console.error(String(error?.stack ?? error).slice(0, 4000));
  process.exit(1);
}
