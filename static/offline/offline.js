// Offline support: registers the service worker (sw.js at the site's root, written by build.py) and offers
// "New version — reload" when a newer build has been downloaded in the background. The service worker does the
// rest: it keeps this page on the build it was loaded from until the player chooses to reload.
//
// Registration waits until the rules are loaded, so the service worker's download of the whole build finds the
// files this first visit has just fetched in the HTTP cache instead of fetching them a second time. Then, in the
// background, the QR encoder (and the decoder, where the browser has no BarcodeDetector) are saved too (issue 30:
// sharing and scanning work offline from the first visit), as <html data-offline-qr="saved"> (or "failed": asked
// again on the next load).
import { arbiter } from '../engine/client.js';

const SW_URL = new URL('../../sw.js', import.meta.url);
const SCOPE = new URL('../../', import.meta.url);
const CHECK_EVERY_MS = 60 * 60 * 1000; // a phone may keep the page open for days: look for a new build hourly

const banner = document.getElementById('update-banner');
const status = document.getElementById('offline-status');
let reloading = false;

// Whether this device holds a copy of Arbiter for offline use, in Settings and as <html data-offline="…">:
// "saving" while the service worker downloads the build, "saved" once it serves it, "failed" if that download
// failed (it is tried again on the next visit), "unsupported" where the browser offers no service workers.
const SAID = {
  saving: 'Saving a copy for offline use…',
  saved: 'Works offline: this device holds a copy of Arbiter.',
  failed: 'Could not save a copy for offline use; Arbiter tries again on the next visit.',
  unsupported: 'This browser cannot keep a copy of Arbiter for offline use.',
};
// The same, short, as the header's mark, with whether there is a signal now.
const MARK = {
  saving: 'Saving for offline…',
  saved: '✓ Works offline',
  failed: '⚠ Not saved for offline',
  unsupported: 'Needs a signal',
};
const mark = document.querySelector('[data-offline-mark]');
function setOffline(state) {
  document.documentElement.dataset.offline = state;
  if (status) status.textContent = SAID[state];
  showMark();
}
function showMark() {
  const state = document.documentElement.dataset.offline;
  if (!mark || !state) return;
  mark.textContent = navigator.onLine ? MARK[state] : `No signal · ${MARK[state]}`;
  mark.title = SAID[state];
}
addEventListener('online', showMark);
addEventListener('offline', showMark);

function offerReload(registration) {
  if (!banner || !banner.hidden) return;
  const text = document.createElement('span');
  text.textContent = 'A new version of Arbiter has been downloaded.';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'New version — reload';
  button.addEventListener('click', () => {
    button.disabled = true;
    reloading = true;
    const waiting = registration.waiting;
    if (waiting)
      waiting.postMessage({ type: 'SKIP_WAITING' }); // it takes over, then `controllerchange` reloads
    else location.reload(); // already taken over (by another tab): this page only has to load it
  });
  banner.replaceChildren(text, button);
  banner.hidden = false;
}

function watch(registration) {
  const pending = (worker) => worker && worker.state !== 'redundant';
  const saved = () => {
    if (registration.active) setOffline('saved');
    else if (!pending(registration.installing) && !pending(registration.waiting)) setOffline('failed'); // first install
  };
  saved();
  const waitFor = (worker) => {
    if (!worker) return;
    const check = () => {
      // Installed while an older build controls this page: a new version waits for the player.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offerReload(registration);
      if (worker.state === 'activated' || worker.state === 'redundant') saved();
    };
    worker.addEventListener('statechange', check);
    check();
  };
  waitFor(registration.waiting);
  waitFor(registration.installing);
  registration.addEventListener('updatefound', () => waitFor(registration.installing));
  let controlled = !!navigator.serviceWorker.controller; // false on a first visit, until the first install claims it
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) location.reload();
    else if (controlled) offerReload(registration); // another tab took a new build; this page keeps its own
    controlled = true;
  });
  const check = () => registration.update().catch(() => {}); // offline: try again later
  setInterval(check, CHECK_EVERY_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
}

/** Whether this browser reads QR codes itself (Chrome on Android): then the page never needs the decoder. */
async function readsQrCodes() {
  try {
    return 'BarcodeDetector' in globalThis && (await BarcodeDetector.getSupportedFormats()).includes('qr_code');
  } catch {
    return false;
  }
}

/** Ask the active service worker to keep the QR encoder, and the decoder where it is needed (py/tools/sw.py
 * AFTER_READY), then say whether it did. Called once the page is ready, never before. */
async function saveQrForOffline() {
  const { active } = await navigator.serviceWorker.ready;
  const parts = (await readsQrCodes()) ? ['encoder'] : ['encoder', 'decoder'];
  const channel = new MessageChannel();
  const answer = new Promise((resolve) => {
    channel.port1.onmessage = ({ data }) => resolve(data?.saved === true);
  });
  active.postMessage({ type: 'SAVE_AFTER_READY', parts }, [channel.port2]);
  document.documentElement.dataset.offlineQr = (await answer) ? 'saved' : 'failed';
  channel.port1.close();
}

async function register() {
  setOffline(navigator.serviceWorker.controller ? 'saved' : 'saving');
  let ready = true;
  try {
    await arbiter.ready;
  } catch {
    // Python did not load (offline on a first visit?): still register, so the next visit can work offline.
    ready = false;
  }
  try {
    watch(await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.pathname, type: 'classic' }));
    if (ready) {
      saveQrForOffline().catch((error) => console.warn(`Arbiter: the QR code's files not saved: ${error.message}`));
    }
  } catch (error) {
    console.warn(`Arbiter: no offline copy: ${error.message}`); // e.g. service workers blocked by the browser
    setOffline('unsupported');
  }
}

if ('serviceWorker' in navigator) register();
else setOffline('unsupported');
