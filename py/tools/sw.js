// Arbiter's service worker. build.py writes dist/sw.js from this file, filling in BUILD: the build's content hash
// and every file of the build with its sha256 (as a fetch() integrity string). Everything is relative to the
// worker's scope, so the site works at any sub-path (https://USER.github.io/REPO/).
//
// - install: every file of the build into the cache "arbiter-<version>", each checked against its hash, so a cache
//   never holds a mix of two builds (a CDN still serving an older file makes the install fail; it is retried later).
// - lazy files (BUILD.lazy: the QR encoder and decoder, py/tools/vendor.py) are not fetched at install: the first time
//   a page asks for one it is fetched, checked against its hash and kept in the build's cache, so it works offline
//   from then on. A new build's install keeps those an older build's cache already holds, when their hash is the same.
// - saved after ready: once the page is ready it posts SAVE_AFTER_READY naming parts of BUILD.afterReady (the encoder;
//   the decoder where the browser has no BarcodeDetector), and those lazy files are fetched and kept the same way, in
//   the background; the answer ({saved: true|false}) comes on the message's port.
// - fetch: cache first. A page, and the Web Worker it starts, are served from the build the page was loaded from
//   ("pinned"), even after a newer build has taken over: a page that keeps running never sees a newer file.
// - A newer build waits until the page asks for it ("New version — reload" in offline/offline.js posts SKIP_WAITING),
//   then deletes every cache that no open page is pinned to.

const BUILD = /* BUILD */ { version: 'unbuilt', files: {}, lazy: {}, afterReady: {} } /* BUILD */;
const PREFIX = 'arbiter-';
const CURRENT = PREFIX + BUILD.version;
const PINS = PREFIX + 'pins'; // one entry, pins.json: {clientId: version} for the pages and workers still open
const SCOPE = new URL(self.registration.scope);

/** "static/main.js" for a URL of this site, "index.html" for the scope's folder; null for anything else. */
function keyOf(url) {
  const u = new URL(url);
  if (u.origin !== SCOPE.origin || !u.pathname.startsWith(SCOPE.pathname)) return null;
  const path = decodeURIComponent(u.pathname.slice(SCOPE.pathname.length));
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}

const cacheUrl = (key) => new URL(key, SCOPE).href;

// --- install: the whole build, verified ----------------------------------------------------------------------------

async function precache() {
  const cache = await caches.open(CURRENT);
  await Promise.all(
    Object.entries(BUILD.files).map(async ([key, integrity]) => {
      if (await cache.match(cacheUrl(key))) return; // put by an earlier, interrupted install: it was verified then
      let response;
      try {
        // Revalidated, so a copy the HTTP cache holds is used only if the server still has it (usually a 304).
        response = await fetch(cacheUrl(key), { cache: 'no-cache', integrity });
      } catch {
        response = await fetch(cacheUrl(key), { cache: 'reload', integrity }); // rejects again: the install fails
      }
      if (!response.ok) throw new Error(`${key}: HTTP ${response.status}`);
      await cache.put(cacheUrl(key), response);
    }),
  );
}

/** The sha256 integrity string of `response`'s body (as sw.py writes them). */
async function integrityOf(response) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await response.arrayBuffer()));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

/** The lazy files an older build's cache already holds, with the same hash, kept in this build's cache too. Never
 * fails the install: a lazy file not kept here is fetched when first asked for. */
async function keepLazy() {
  const cache = await caches.open(CURRENT);
  await Promise.all(
    Object.entries(BUILD.lazy).map(async ([key, integrity]) => {
      try {
        const old = await caches.match(cacheUrl(key));
        if (old && (await integrityOf(old.clone())) === integrity) await cache.put(cacheUrl(key), old);
      } catch {
        // fetched when first asked for
      }
    }),
  );
}

self.addEventListener('install', (event) => event.waitUntil(precache().then(keepLazy)));

self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') self.skipWaiting();
  if (event.data?.type === 'SAVE_AFTER_READY') {
    const saved = saveAfterReady(event.data.parts);
    event.waitUntil(saved.then((ok) => event.ports[0]?.postMessage({ saved: ok })));
  }
});

/** The lazy files of `parts` (names in BUILD.afterReady) kept in this build's cache, each fetched unless it is there
 * already: whether they all are. Never rejects (offline now: the page asks again on its next load). */
async function saveAfterReady(parts) {
  const keys = (Array.isArray(parts) ? parts : []).flatMap((part) =>
    Object.hasOwn(BUILD.afterReady, part) ? BUILD.afterReady[part] : [],
  );
  const cache = await caches.open(CURRENT);
  const kept = await Promise.all(
    keys.map(async (key) => {
      try {
        if (await cache.match(cacheUrl(key))) return true;
        return (await lazily(cache, key)).ok;
      } catch {
        return false;
      }
    }),
  );
  return kept.every(Boolean);
}

// --- pins: which build each open client was started from ----------------------------------------------------------

const pins = new Map(); // clientId -> {version, at, seen}
// A client is listed by clients.matchAll only once it runs: a pin is dropped when its client, once seen, is gone,
// or when it was never seen for this long.
const GRACE_MS = 60_000;

async function savedPins() {
  const saved = await (await caches.open(PINS)).match('pins.json');
  return saved ? saved.json() : {};
}
const pinsLoaded = savedPins()
  .then((saved) => {
    for (const [id, pin] of Object.entries(saved)) if (!pins.has(id)) pins.set(id, pin);
  })
  .catch(() => {});

/** Merge the saved pins (another service worker, older or newer, may have written some), drop those of clients
 * that are gone, and save. */
async function savePins() {
  for (const [id, pin] of Object.entries(await savedPins())) if (!pins.has(id)) pins.set(id, pin);
  const open = new Set((await self.clients.matchAll({ includeUncontrolled: true, type: 'all' })).map((c) => c.id));
  const now = Date.now();
  for (const [id, pin] of pins) {
    if (open.has(id)) pin.seen = true;
    else if (pin.seen || now - pin.at > GRACE_MS) pins.delete(id);
  }
  const body = JSON.stringify(Object.fromEntries(pins));
  await (await caches.open(PINS)).put(
    'pins.json',
    new Response(body, { headers: { 'Content-Type': 'application/json' } }),
  );
}

/** The build `event` must be served from: a navigation gets this one; anything else its client's. */
function versionFor(event) {
  const version =
    event.request.mode === 'navigate' ? BUILD.version : (pins.get(event.clientId)?.version ?? BUILD.version);
  if (event.resultingClientId && pins.get(event.resultingClientId)?.version !== version) {
    // a new page, or a worker a page starts: the worker gets the same build as its page
    pins.set(event.resultingClientId, { version, at: Date.now(), seen: false });
    event.waitUntil(savePins());
  }
  if (event.request.mode === 'navigate') event.waitUntil(dropUnpinnedSoon());
  return version;
}

// Tidying up waits a little: a page load is some twenty requests, and none of them should wait for it.
const TIDY_AFTER_MS = 2000;
let tidying = null;
function dropUnpinnedSoon() {
  tidying ??= new Promise((resolve) => setTimeout(resolve, TIDY_AFTER_MS))
    .then(() => dropUnpinned())
    .finally(() => (tidying = null));
  return tidying;
}

/** Save the pins, and delete the caches of builds no open client is pinned to (on activation, and a little after
 * a page or a worker starts). */
async function dropUnpinned() {
  await pinsLoaded;
  await savePins();
  const keep = new Set([CURRENT, PINS, ...[...pins.values()].map((pin) => PREFIX + pin.version)]);
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && !keep.has(name)) {
      opened.delete(name);
      await caches.delete(name);
    }
  }
}

self.addEventListener('activate', (event) => {
  event.waitUntil(dropUnpinned().then(() => self.clients.claim()));
});

// --- fetch: cache first --------------------------------------------------------------------------------------------

const opened = new Map(); // cache name -> Promise of the open Cache
function openCache(name) {
  if (!opened.has(name)) opened.set(name, caches.open(name));
  return opened.get(name);
}

async function respond(event, key) {
  await pinsLoaded;
  const version = versionFor(event);
  const name = version === BUILD.version || (await caches.has(PREFIX + version)) ? PREFIX + version : CURRENT;
  const cache = await openCache(name);
  const hit = await cache.match(cacheUrl(key));
  if (hit) return hit;
  if (name === CURRENT && Object.hasOwn(BUILD.lazy, key)) return lazily(cache, key);
  return fetch(event.request); // not part of the build (or not cached yet): the network, as without us
}

/** A lazy file asked for the first time: fetched, checked against its hash (a file that does not match rejects, and
 * is never kept), and kept in the build's cache. */
async function lazily(cache, key) {
  const response = await fetch(cacheUrl(key), { cache: 'no-cache', integrity: BUILD.lazy[key] });
  if (response.ok) await cache.put(cacheUrl(key), response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  const key = keyOf(event.request.url);
  if (key !== null) event.respondWith(respond(event, key));
});
