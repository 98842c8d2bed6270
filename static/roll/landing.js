// The feel of dice landing: a short clatter made with the Web Audio API (synthesised here: no audio file) and a short
// pulse where the device can vibrate (navigator.vibrate; iOS Safari has none), both turned on or off by the Sound
// button by the dice and kept on this device (settings.js: off until the player turns it on). Web Audio's default
// session is kept (navigator.audioSession is never set to 'playback'), so an iPhone's silent switch silences it.
// The page says when dice landed and which moved (controller.js: one landing per tap, none for table dice or a
// follow-up that moves no die); this module knows nothing of rules, only how many dice and of how many sides.
import { keepSound, soundOn } from '../settings.js';

const PULSE_MS = 20; // a pulse for a die; a few more for a handful, never past PULSE_MAX_MS
const PULSE_MAX_MS = 45;
const MAX_HEARD = 12; // dice heard apart: more only fill the same clatter
const TAIL_S = 0.08; // room after the last hit for its ring to die away

let context = null; // one AudioContext for the page, made in a tap

/** In a tap (a user gesture, which browsers require to start sound): the page's AudioContext made, or woken. */
export function prime() {
  if (!soundOn()) return;
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context) return;
  try {
    context ??= new Context();
    if (context.state !== 'running') context.resume().catch(() => {}); // suspended, or interrupted (iOS: a call)
  } catch {
    context = null; // no sound on this device; the pulse still comes
  }
}

/** The dice `moved` ({sides}, normalised by tray.js) have landed: one clatter and one pulse, if the player wants them. */
export function land(moved) {
  if (!moved.length || !soundOn()) return;
  navigator.vibrate?.(Math.min(PULSE_MAX_MS, PULSE_MS + 5 * (moved.length - 1)));
  if (!context) return;
  const source = context.createBufferSource();
  source.buffer = clatter(context, moved);
  source.connect(context.destination);
  source.start();
}

/** The speaker button by the dice: shows whether sound and vibration are on (aria-pressed), and turns them on or off
 * for every form of this device. */
export function wireSoundButton(button) {
  if (!button) return;
  button.setAttribute('aria-pressed', String(soundOn()));
  button.addEventListener('click', () => {
    const on = !soundOn();
    keepSound(on);
    for (const b of document.querySelectorAll('[data-sound]')) b.setAttribute('aria-pressed', String(on));
    prime(); // this tap is a gesture: the sound can start at the next landing
  });
}

/** One clatter for `dice`, as one buffer: each die knocks down a few times, each knock a decaying burst of noise rung
 * through a resonance. A die of more sides rings higher, shorter and rattles once more (a d10 against a d6); more
 * dice spread their knocks over a longer moment, each a little softer. */
function clatter(ctx, dice) {
  const rate = ctx.sampleRate;
  const heard = dice.slice(0, MAX_HEARD);
  const spread = Math.min(0.2, 0.02 * heard.length); // s over which the dice come down
  const hits = [];
  for (const [i, d] of heard.entries()) {
    const pitch = 600 + 200 * Math.min(d.sides, 20); // a d6 about 1.8 kHz, a d10 about 2.6 kHz
    const ring = 0.05 / Math.sqrt(d.sides); // s: a d6 rings about 20 ms, a d10 about 16 ms
    const knocks = Math.ceil(d.sides / 4); // a d6 knocks twice, a d10 three times
    let at = (spread * (i + Math.random())) / heard.length, // one after another, each in its share of the spread
      loud = 1;
    for (let k = 0; k < knocks; k++) {
      hits.push({ at, loud, pitch: pitch * (0.95 + 0.1 * Math.random()), ring });
      at += 0.025 + 0.035 * Math.random();
      loud *= 0.45;
    }
  }
  const end = Math.max(...hits.map((x) => x.at)) + TAIL_S;
  const buffer = ctx.createBuffer(1, Math.ceil(end * rate), rate);
  const out = buffer.getChannelData(0);
  for (const x of hits) knock(out, rate, x);
  const peak = out.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
  const gain = 0.5 / peak; // as loud for one die as for thirty: their number is heard in the knocks, not the level
  for (let i = 0; i < out.length; i++) out[i] *= gain;
  return buffer;
}

/** One knock into `out`: noise under an envelope that falls by `ring` s, through a two-pole resonance at `pitch`. */
function knock(out, rate, { at, loud, pitch, ring }) {
  const w = (2 * Math.PI * pitch) / rate;
  const r = Math.exp((-Math.PI * (pitch / 4)) / rate); // bandwidth about a quarter of the pitch
  const a1 = 2 * r * Math.cos(w),
    a2 = -r * r;
  let y1 = 0,
    y2 = 0;
  const from = Math.floor(at * rate),
    n = Math.min(out.length - from, Math.ceil(5 * ring * rate));
  for (let i = 0; i < n; i++) {
    const env = loud * Math.exp(-i / (ring * rate));
    const y = (Math.random() * 2 - 1) * env * (1 - r) + a1 * y1 + a2 * y2;
    out[from + i] += y;
    y2 = y1;
    y1 = y;
  }
}
