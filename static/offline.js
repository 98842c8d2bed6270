// Offline support: registers the service worker (sw.js at the site's root, written by build.py) and offers
// "New version — reload" when a newer build has been downloaded in the background. The service worker does the
// rest: it keeps this page on the build it was loaded from until the player chooses to reload.
//
// Registration waits until the rules are loaded, so the service worker's download of the whole build finds the
// files this first visit has just fetched in the HTTP cache instead of fetching them a second time.
import { arbiter } from './arbiter-client.js';

const SW_URL = new URL('../sw.js', import.meta.url);
const SCOPE = new URL('../', import.meta.url);
const CHECK_EVERY_MS = 60 * 60 * 1000; // a phone may keep the page open for days: look for a new build hourly

const banner = document.getElementById('update-banner');
let reloading = false;

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
    if (waiting) waiting.postMessage({ type: 'SKIP_WAITING' }); // it takes over, then `controllerchange` reloads
    else location.reload(); // already taken over (by another tab): this page only has to load it
  });
  banner.replaceChildren(text, button);
  banner.hidden = false;
}

function watch(registration) {
  const waitFor = (worker) => {
    if (!worker) return;
    const check = () => {
      // Installed while an older build controls this page: a new version waits for the player.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offerReload(registration);
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

async function register() {
  try {
    await arbiter.ready;
  } catch {
    // Python did not load (offline on a first visit?): still register, so the next visit can work offline.
  }
  try {
    watch(await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.pathname, type: 'classic' }));
  } catch (error) {
    console.warn(`Arbiter: no offline copy: ${error.message}`); // e.g. service workers blocked by the browser
  }
}

if ('serviceWorker' in navigator) register();
