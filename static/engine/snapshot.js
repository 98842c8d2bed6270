// Reading pyodide/snapshot.bin, the memory of a Pyodide that has booted and imported the rules (written at build
// time by py/tools/pyodide_build.mjs, which also uses this module to check what it wrote). No side effects: the
// worker (static/engine/worker.js) and the build both import it.
//
// FORMAT (little-endian):
//   0  "ARBSNAP1"
//   8  u32 headerLength      Pyodide's own snapshot header (its magic, build id, JSON of JS references)
//  12  u32 memoryLength      the wasm memory that follows that header in Pyodide's snapshot format
//  16  u32 referenceEnd      memory[0:referenceEnd] is stored XORed with the memory as instantiated
//  20  u32 referenceHash     fnv1a32 of that reference: a snapshot is never XORed with another wasm's memory
//  24  u32 zstdLength
//  28  u32 metaLength
//  32  Pyodide's header; then JSON {lock, emptied, runs}: the lock file for loadPyodide (the runtime's `info`, no
//      packages); the [offset, length] ranges whose data segments build.py emptied in the page's
//      pyodide.asm.wasm; the [first, count] runs of 64 KiB pages of the XORed memory that are not all zero;
//      then one zstd frame (with its checksum) of those pages, one after the other.
// The memory as instantiated holds what pyodide.asm.wasm's data segments put there, so the snapshot does not carry
// that data a second time. Decoding uses the zstd that pyodide.asm.wasm itself exports.

const MAGIC = 'ARBSNAP1';
const PAGE = 65536;

/** The parts of a snapshot file, and `image`: what Pyodide's `_loadSnapshot` takes (its memory part still empty). */
export function parseSnapshot(bytes) {
  if (bytes.length < 32 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw new Error('pyodide/snapshot.bin is not an Arbiter snapshot');
  }
  const [headerLength, memoryLength, referenceEnd, referenceHash, zstdLength, metaLength] = new Uint32Array(
    bytes.buffer.slice(bytes.byteOffset + 8, bytes.byteOffset + 32),
  );
  let at = 32;
  const header = bytes.subarray(at, (at += headerLength));
  const { lock, emptied, runs } = JSON.parse(new TextDecoder().decode(bytes.subarray(at, (at += metaLength))));
  const zstd = bytes.subarray(at, (at += zstdLength));
  if (at !== bytes.length || referenceEnd % 4 || referenceEnd > memoryLength) {
    throw new Error('pyodide/snapshot.bin is damaged (its lengths do not add up)');
  }
  // The restore copies only as much memory as it is given: past the last page that is not zero, the fresh
  // instance's memory is zero already.
  const end = Math.max(referenceEnd, ...runs.map(([first, count]) => (first + count) * PAGE));
  if (end > memoryLength) throw new Error('pyodide/snapshot.bin is damaged (its pages lie outside its memory)');
  const image = new Uint8Array(headerLength + end);
  image.set(header);
  return {
    image,
    memory: image.subarray(headerLength),
    memoryLength,
    lock,
    emptied,
    runs,
    referenceEnd,
    referenceHash,
    zstd,
  };
}

/** fnv1a32 over every 16th little-endian word (the build hashes the reference with this same function): enough to
 * tell one wasm's data from another's, in a millisecond. */
export function fnv1a32(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i += 16) h = Math.imul(h ^ words[i], 0x01000193);
  return h >>> 0;
}

const align = (n, to = 64) => Math.ceil(n / to) * to;

/**
 * Fill `snapshot.memory` from its zstd frame, with the zstd exported by a fresh instance of pyodide.asm.wasm
 * (Pyodide's own, before anything has run in it). The scratch area above the stack is zeroed again afterwards.
 */
export function decodeSnapshot(exports, snapshot) {
  const { memory, memoryLength, zstd, referenceEnd, referenceHash, emptied, runs } = snapshot;
  const wasmMemory = exports.memory;
  if (wasmMemory.buffer.byteLength < memoryLength) {
    wasmMemory.grow(Math.ceil((memoryLength - wasmMemory.buffer.byteLength) / PAGE));
  }
  const heap = new Uint8Array(wasmMemory.buffer);
  const reference = heap.slice(0, referenceEnd);
  if (fnv1a32(reference) !== referenceHash) {
    throw new Error('pyodide/snapshot.bin was made for another pyodide.asm.wasm');
  }
  const z = exports;
  const words = new Uint32Array(wasmMemory.buffer);
  const base = align(z.__heap_base.value);
  const inStruct = base; // ZSTD_inBuffer {src, size, pos}
  const outStruct = base + 16; // ZSTD_outBuffer {dst, size, pos}
  const src = base + 64;
  const workspace = align(src + zstd.length);
  const chunk = 1 << 20;
  if (workspace > heap.length) throw new Error('pyodide/snapshot.bin: the zstd frame does not fit in memory');
  heap.set(zstd, src);
  const workspaceSize = z.ZSTD_estimateDStreamSize_fromFrame(src, zstd.length) >>> 0;
  const dst = align(workspace + workspaceSize);
  if (z.ZSTD_isError(workspaceSize) || dst + chunk > heap.length) {
    throw new Error('pyodide/snapshot.bin: the zstd frame does not fit in memory');
  }
  const stream = z.ZSTD_initStaticDStream(workspace, workspaceSize);
  if (!stream) throw new Error('pyodide/snapshot.bin: could not set up zstd');
  words.set([src, zstd.length, 0], inStruct >>> 2);
  words.set([dst, chunk, 0], outStruct >>> 2);
  // The decoded bytes are the non-zero pages, run after run: put each where it belongs.
  let run = 0;
  let inRun = 0; // bytes of runs[run] already placed
  for (;;) {
    const hint = z.ZSTD_decompressStream(stream, outStruct, inStruct) >>> 0;
    if (z.ZSTD_isError(hint)) throw new Error('pyodide/snapshot.bin is damaged (zstd could not decode it)');
    const produced = words[(outStruct >>> 2) + 2];
    for (let p = 0; p < produced; ) {
      if (run >= runs.length) throw new Error('pyodide/snapshot.bin holds more memory than it says');
      const [first, count] = runs[run];
      const take = Math.min(produced - p, count * PAGE - inRun);
      memory.set(heap.subarray(dst + p, dst + p + take), first * PAGE + inRun);
      p += take;
      inRun += take;
      if (inRun === count * PAGE) [run, inRun] = [run + 1, 0];
    }
    words[(outStruct >>> 2) + 2] = 0;
    if (hint === 0) break; // the frame is complete and its checksum holds
    if (produced === 0 && words[(inStruct >>> 2) + 2] === zstd.length) {
      throw new Error('pyodide/snapshot.bin is damaged (its zstd frame ends early)');
    }
  }
  if (run !== runs.length) throw new Error('pyodide/snapshot.bin holds less memory than it says');
  heap.fill(0, base, dst + chunk);
  const delta = new Uint32Array(memory.buffer, memory.byteOffset, referenceEnd >>> 2);
  const ref = new Uint32Array(reference.buffer, 0, referenceEnd >>> 2);
  for (let i = 0; i < delta.length; i++) delta[i] ^= ref[i];
}

/**
 * Put into Pyodide's fresh instance what the data segments build.py emptied would have put there (their tables,
 * as the decoded snapshot holds them): the C constructors run next, on memory as they expect it. The restore then
 * replaces all memory anyway.
 */
export function putEmptiedSegments(wasmMemory, snapshot) {
  const heap = new Uint8Array(wasmMemory.buffer);
  for (const [offset, length] of snapshot.emptied) heap.set(snapshot.memory.subarray(offset, offset + length), offset);
}

/**
 * What loadPyodide needs to restore `snapshot` (a Promise of parseSnapshot's result), and the machinery around it:
 *
 * - `compiled`, if given, is a Promise of the wasm's WebAssembly.Module, compiled by the caller from the start
 *   (Pyodide would only start once its 1.2 MB pyodide.asm.mjs has loaded): Pyodide's own instantiation uses it, and
 *   its own fetch of the wasm (at `wasmUrl`) is answered with an empty response it never reads.
 * - Pyodide's `fsInit` hook, which runs after instantiation (before anything has run in the instance) and before
 *   the C constructors, decodes the snapshot with Pyodide's own instance into the image Pyodide restores from, and
 *   puts the emptied data segments' tables into the instance. (Decoding on a second thread with a throwaway
 *   instance, while Pyodide sets itself up, was tried: on two cores it was slower.)
 *
 * Returns {options, failed, restore}: `options` for loadPyodide; `failed` rejects if decoding fails (Pyodide would
 * only log that, then restore garbage or wait forever: the restore is held back instead); `restore()` puts
 * WebAssembly and fetch back (done by itself once the instance is seen). `step(what)` is told "instantiating",
 * "instantiated", "decoding" and "decoded".
 */
export function restoreOptions(snapshot, { compiled = null, wasmUrl = null, step = () => {} } = {}) {
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  const originalFetch = globalThis.fetch;
  const restore = () => {
    Object.assign(WebAssembly, originals);
    globalThis.fetch = originalFetch;
  };
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  failed.catch(() => {});
  let instance;
  if (compiled && wasmUrl) {
    globalThis.fetch = function (resource, ...rest) {
      if (String(resource) === String(wasmUrl)) return Promise.resolve(new Response(null));
      return originalFetch.call(this, resource, ...rest);
    };
  }
  for (const [name, original] of Object.entries(originals)) {
    if (!original) continue;
    WebAssembly[name] = async function (source, imports) {
      step('instantiating');
      try {
        let result;
        if (compiled && name === 'instantiateStreaming') {
          const module = await compiled;
          result = { module, instance: await originals.instantiate(module, imports) };
        } else {
          result = await original.call(this, source, imports);
        }
        const exports = result?.instance?.exports;
        if (exports?.ZSTD_decompressStream && exports.__heap_base) {
          restore();
          instance = result.instance;
          step('instantiated');
        }
        return result;
      } catch (error) {
        restore();
        fail(error);
        throw error;
      }
    };
  }

  async function fsInit() {
    try {
      const parsed = await snapshot;
      step('decoding');
      decodeSnapshot(instance.exports, parsed);
      step('decoded');
      putEmptiedSegments(instance.exports.memory, parsed);
    } catch (error) {
      fail(error);
      await new Promise(() => {}); // never restore a snapshot that did not decode
    }
  }

  const options = {
    lockFileContents: snapshot.then((s) => s.lock),
    _loadSnapshot: snapshot.then((s) => s.image), // Pyodide's private snapshot API: pinned by tests
    fsInit,
  };
  for (const promise of Object.values(options)) promise.catch?.(() => {}); // reported through `failed`/loadPyodide
  return { options, failed, restore };
}

// An empty zip: the stdlib mounted after a restore. Every module the rules use is already imported in the snapshot.
export const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
