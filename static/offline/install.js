// Installing Arbiter to the home screen: the browser's own install prompt, where it offers one (Chromium's
// beforeinstallprompt, which comes once and early, so this module is imported as the page starts), kept for the
// Table's "Install" button; and whether the page runs installed. Knows nothing of the table.

let deferred = null; // the browser's install prompt, held until the player asks for it
const listeners = new Set();
const tell = () => {
  for (const fn of listeners) fn();
};

globalThis.addEventListener?.('beforeinstallprompt', (event) => {
  event.preventDefault(); // shown by the player's tap on "Install", not by the browser's own banner
  deferred = event;
  tell();
});
globalThis.addEventListener?.('appinstalled', () => {
  deferred = null;
  tell();
});

/** Whether the browser offers its install prompt now. */
export const canPrompt = () => deferred !== null;

/** `fn()` whenever that, or being installed, changes. */
export function onInstallChange(fn) {
  listeners.add(fn);
}

/** Show the browser's install prompt (once: the browser gives it once); resolves true if the player accepted. */
export async function promptInstall() {
  const event = deferred;
  if (!event) return false;
  deferred = null;
  await event.prompt();
  const choice = await event.userChoice;
  tell();
  return choice?.outcome === 'accepted';
}

/** Whether Arbiter runs as an installed app (from the home screen): its own window, or Safari's home-screen app. */
export function isInstalled() {
  return Boolean(globalThis.matchMedia?.('(display-mode: standalone)').matches || globalThis.navigator?.standalone);
}

/** Where installing happens on this device, for the words that say how: 'ios' (an iPhone or iPad: Safari's Share
 * menu) or 'menu' (the browser's own menu). */
export function installPlace() {
  const nav = globalThis.navigator ?? {};
  const ios = /iPhone|iPad|iPod/.test(nav.userAgent ?? '') || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
  return ios ? 'ios' : 'menu';
}
