// One form's state (issue 29), its one owner: a pure reducer (state in, event in, state out), held by the form's
// Procedure (controller.js), which draws Roll, the tray's words, the follow-ups, Share and the pad from it and never
// reads the page back as the truth. It knows no rule and no DOM; tests/js/form-state.test.mjs runs its transitions.
//
//   phase      editing    no roll shown (or the one shown is free to be followed up: see landed)
//              rolling    Roll tapped: its answer is asked for, or its dice tumble (a tap lands them)
//              landed     the outcome is on screen since `landedAt`; a new roll waits until it has been read
//              pad        the face pad is open, for a roll or a follow-up: the shown outcome is stale
//              follow-up  a follow-up tapped: its answer is asked for, or its dice tumble
//              refused    the last tap was refused: the shown outcome (if any) is stale until the form changes
//   revision   counts the writes to the form (the player's, a sheet's, the address's, the reset after a roll): a
//              question to the worker carries the revision it was asked for, and an answer for an older one is dropped
//   touched    path → the revision of the player's last edit of that field: no answer writes into a field the player
//              touched since the revision it was asked for
//   did        what the last event asked of the Procedure: 'roll', 'act', 'skip' (land the tumbling dice), 'hold'
//              (ignored: a burst of taps is one roll) or null

/** How long an outcome stays on screen before Roll takes a new roll: any number of taps within it is one roll. */
export const HOLD_MS = 600;

export const PHASES = ['editing', 'rolling', 'landed', 'pad', 'follow-up', 'refused'];

/** A form as built: nothing rolled, nothing typed. */
export function initial() {
  return {
    phase: 'editing',
    revision: 0,
    touched: {},
    shown: false,
    landedAt: null,
    before: null,
    tap: null,
    did: null,
  };
}

/** The state after `event` ({type, ...}; `at`: a time in ms, as performance.now() gives it). Pure. */
export function next(state, event) {
  const s = { ...state, did: null };
  switch (event.type) {
    case 'edit': // the player changed field `path` (null: a list's row added or removed)
      s.revision += 1;
      s.touched = { ...s.touched, [event.path ?? '']: s.revision };
      if (s.phase === 'refused') s.phase = settled(s);
      return s;
    case 'fill': // a writer other than the player: Fill from a sheet, the reset after a roll, the address at load
      s.revision += 1;
      return s;
    case 'tap': // Roll
      if (s.phase === 'rolling' || s.phase === 'follow-up') return { ...s, did: 'skip' };
      if (s.phase === 'pad') return { ...s, did: 'hold' }; // the pad asks for faces: Roll waits for them
      if (s.phase === 'landed' && event.at - s.landedAt < HOLD_MS) return { ...s, did: 'hold' };
      return { ...s, phase: 'rolling', before: settled(s), tap: 'roll', did: 'roll' };
    case 'act': // a follow-up's control
      if (s.phase === 'rolling' || s.phase === 'follow-up') return { ...s, did: 'skip' };
      if (!s.shown || s.phase === 'pad' || s.phase === 'refused') return { ...s, did: 'hold' }; // stale: not usable
      return { ...s, phase: 'follow-up', before: settled(s), tap: 'act', did: 'act' };
    case 'pad': // the face pad opened for the tap under way
      return { ...s, phase: 'pad' };
    case 'faces': // the pad gave its faces: the tap goes on
      return s.phase === 'pad' ? { ...s, phase: s.tap === 'act' ? 'follow-up' : 'rolling' } : s;
    case 'left': // the tap ended with nothing rolled (the pad left, the engine gone): the form as it was
      return { ...s, phase: s.before ?? settled(s), before: null };
    case 'landed': // the tap's outcome is on screen
      return { ...s, phase: 'landed', shown: true, landedAt: event.at, before: null };
    case 'held': // a moment passed (the outcome held on screen long enough): nothing changes but what is drawn
      return s;
    case 'refused': // the tap was refused: nothing rolled (a follow-up's refusal is said by its control, the roll
      // it would have followed still shown and usable)
      return { ...s, phase: s.tap === 'act' ? settled(s) : 'refused', before: null };
    default:
      throw new Error(`unknown form event ${event.type}`);
  }
}

/** The phase the form rests in with no tap under way. */
const settled = (s) => (s.shown ? 'landed' : 'editing');

/** Whether an answer asked at `revision` is for the form as it is now. */
export const current = (state, revision) => revision === state.revision;

/** Whether an answer asked at `revision` may write field `name` (a request's key): the player has touched neither it
 * nor anything in it ('threats[1].name' is in 'threats') since; a list's row added or removed (path '') touches all. */
export const mayWrite = (state, name, revision) =>
  !Object.entries(state.touched).some(
    ([path, at]) =>
      at > revision &&
      (path === '' || path === name || (/^[.[]/.test(path.slice(name.length)) && path.startsWith(name))),
  );

/** Whether the shown outcome is stale (dimmed, its follow-ups and Share disabled): the pad owns the form, or a tap
 * was refused. */
export const stale = (state) => state.shown && (state.phase === 'pad' || state.phase === 'refused');

/** Whether the shown outcome's follow-ups and Share may be used. */
export const live = (state) => state.shown && state.phase === 'landed';
