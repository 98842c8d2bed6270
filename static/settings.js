// Settings of this device, in one panel reached from the header (index.html's <dialog id="settings">): kept in this
// browser's localStorage (they are the device's, not the table's: an imported table does not change them). The first
// is "Keep the screen on" (the Screen Wake Lock API): a scene at the table outlasts a phone's screen timeout; then
// the dice's speed (Full, Quick, Off); the sound and vibration of a landing (the speaker button by the dice, landing.js)
// are kept here too, as each form's dice source; and "Your name", which a roll shared as nobody carries (issue 30).
import { showDialog } from './back.js';
import { SPEEDS } from './dice/tray.js';

const KEY = 'arbiter-settings';
let held = null; // what was kept while storage refused it

/** The settings kept on this device ({keepAwake, sound, speed, diceSource, name}), defaults where none is kept or storage is
 * refused. */
export function readSettings() {
  if (held) return { ...held };
  try {
    return { keepAwake: false, ...JSON.parse(localStorage.getItem(KEY) ?? '{}') };
  } catch {
    return { keepAwake: false };
  }
}

function keep(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    held = settings; // storage refused (a private window): the settings hold until the page closes
  }
}

/** Whether dice make a sound and a pulse as they land on this device: off until the player turns it on. */
export function soundOn() {
  return readSettings().sound === true;
}

/** Keep sound and vibration on or off on this device. */
export function keepSound(on) {
  keep({ ...readSettings(), sound: on });
}

/** How the dice tumble: 'full', 'quick' or 'off' (tray.js' SPEEDS); reduced motion starts at 'off' until the player
 * chooses (asked at each roll: a change of the system's setting counts until a speed is chosen). */
export function diceSpeed() {
  const speed = readSettings().speed;
  if (Object.hasOwn(SPEEDS, speed)) return speed;
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 'off' : 'full';
}

/** Whose dice `system`'s form rolls on this device: 'table' (the group's own, typed in on the face pad) or 'app'. */
export function diceSourceOf(system) {
  return readSettings().diceSource?.[system] === 'table' ? 'table' : 'app';
}

/** Keep the dice source of `system`'s form on this device. */
export function keepDiceSource(system, source) {
  const settings = readSettings();
  keep({ ...settings, diceSource: { ...(settings.diceSource ?? {}), [system]: source } });
}

/** This device's player's name (Settings, "Your name"), for a roll shared as nobody (a link cuts it to its length:
 * py/arbiter/share.py NAME_CHARS); null when none is set. */
export function yourName() {
  const name = readSettings().name;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
}

/** Keep the screen on while the page is shown: a wake lock asked for when turned on and again each time the page
 * comes back (the browser lets it go when the page is hidden); a refusal turns it off, is said in `say` in the
 * player's words (never the browser's error) and told to `refused`, never thrown. */
export class KeepAwake {
  constructor(say, refused = () => {}) {
    this.say = say;
    this.refused = refused;
    this.on = false;
    this.lock = null;
    document.addEventListener('visibilitychange', () => {
      if (this.on && document.visibilityState === 'visible' && !this.lock) this.acquire();
    });
  }

  supported() {
    return 'wakeLock' in navigator;
  }

  async set(on) {
    this.on = on;
    if (!on) {
      const lock = this.lock;
      this.lock = null;
      await lock?.release().catch(() => {});
      this.say('The screen dims and locks as this device is set to.');
      return;
    }
    await this.acquire();
  }

  async acquire() {
    if (document.visibilityState !== 'visible') return; // asked when the page comes back (a hidden page is refused)
    try {
      const lock = await navigator.wakeLock.request('screen');
      if (!this.on) return void lock.release().catch(() => {});
      this.lock = lock;
      lock.addEventListener('release', () => {
        if (this.lock === lock) this.lock = null; // the page was hidden: asked again when it comes back
      });
      this.say('The screen stays on while Arbiter is open.');
    } catch {
      // NotAllowedError, mostly: a battery saver, or a page shown inside another site that does not allow it
      this.on = false;
      this.refused();
      this.say(
        'This browser would not keep the screen on just now (a battery saver can stop it), so the box is unticked: ' +
          'tick it to try again, or lengthen the screen timeout in the phone’s settings.',
        true,
      );
    }
  }
}

/** Wire the panel: its button in the header opens it; each setting is shown as kept and kept when changed. */
export function startSettings() {
  const dialog = document.getElementById('settings');
  const open = document.querySelector('[data-settings-open]');
  if (!dialog || !open) return;
  open.addEventListener('click', () => showDialog(dialog)); // Back closes it (back.js)
  startSpeed(dialog);
  startName(dialog);
  const settings = readSettings();
  const status = dialog.querySelector('[data-wake-status]');
  const box = dialog.querySelector('[data-setting="keepAwake"]');
  const say = (words, refused = false) => {
    status.textContent = words;
    status.toggleAttribute('data-refused', refused);
  };
  // a refusal unticks the box and keeps it off: ticked, it would say the screen stays on when it does not
  const awake = new KeepAwake(say, () => {
    box.checked = false;
    keep({ ...readSettings(), keepAwake: false });
  });
  if (!awake.supported()) {
    box.disabled = true;
    say('This browser cannot keep the screen on: set the screen timeout in the phone’s settings.', true);
    return;
  }
  box.checked = settings.keepAwake;
  box.addEventListener('change', () => {
    keep({ ...readSettings(), keepAwake: box.checked });
    awake.set(box.checked);
  });
  if (settings.keepAwake) awake.set(true);
}

/** The dice's speed in the panel: a radio per speed, the one in use checked (read again each time the panel opens:
 * reduced motion's default may have changed), kept when chosen. */
function startSpeed(dialog) {
  const radios = [...dialog.querySelectorAll('input[name="speed"]')];
  const show = () => {
    const speed = diceSpeed();
    for (const r of radios) r.checked = r.value === speed;
  };
  show();
  document.querySelector('[data-settings-open]').addEventListener('click', show);
  for (const r of radios) r.addEventListener('change', () => r.checked && keep({ ...readSettings(), speed: r.value }));
}

/** "Your name" in the panel: shown as kept, kept as typed (trimmed when it is used). */
function startName(dialog) {
  const input = dialog.querySelector('[data-setting="name"]');
  if (!input) return;
  input.value = readSettings().name ?? '';
  input.addEventListener('input', () => keep({ ...readSettings(), name: input.value }));
}
