// Back closes what is open over the view (issue 30): the Share sheet, Settings, any <dialog>, the scanner. Each, as
// it opens, pushes an entry of the page's own address into the history (the same address: no view changes), so a
// phone's Back takes that entry back and closes it, instead of moving between views or leaving the app. Closed by
// its own control (Done, Escape, a code read), its entry is taken back too, so Back is never pressed for nothing.
// main.js asks `closeOver()` first at each popstate.
//
//   const release = openOver(() => camera.stop());   // ... camera.stop() then calls release()
//   showDialog(dialog);                              // dialog.showModal(), closed by Back

/** The state of every history entry the page makes (pushState, replaceState) or has routed: Back or Forward onto one
 * returns to a view the player left, and the form numbers its address holds are older than the form's now, so
 * main.js' route keeps the form as the player last had it. An entry without it is new (a link opened, an address
 * typed) and fills the form. */
export const SEEN = Object.freeze({ arbiterSeen: true });

/** Whether the current history entry is one the page made or has routed (see SEEN). */
export const returned = () => history.state?.arbiterSeen === true;

const open = []; // what is open over the view, newest last: {close}
let skip = 0; // popstates of entries this module took back itself, to let pass

/** Something opened over the view, which `close()` closes: its history entry pushed. Returns `release`, to call when
 * it closes by its own control (its entry is taken back; nothing if Back closed it). `release({keep: true})` leaves
 * the entry for the caller to replace (location.replace), when it closes by moving the page on. */
export function openOver(close) {
  const item = { close };
  history.pushState({ ...SEEN, arbiterOver: true }, '', location.href);
  open.push(item);
  return ({ keep = false } = {}) => {
    const at = open.indexOf(item);
    if (at < 0) return; // Back closed it
    open.splice(at, 1);
    if (!keep && history.state?.arbiterOver) {
      skip++;
      history.back();
    }
  };
}

/** How long after a tap on a sheet's own button closed it (Done) a tap on the same spot is that double tap's second,
 * and is swallowed: it would land on what the sheet covered (the Roll bar, the views' links) and roll or leave. */
export const DOUBLE_TAP_MS = 300; // a phone's double-tap timeout (Android's ViewConfiguration)

let ghost = null; // the spot of the tap that just closed a sheet, and until when a tap there is its second: {rect, until}

/** A click on the spot `ghost` guards: swallowed. Listened for in the capture phase from the first guard on, so the page
 * under the spot never hears it. Only a pointer's click (detail > 0) is: a key press is never a double tap's stray. */
function swallow(event) {
  if (!ghost || !event.isTrusted || event.detail === 0) return;
  const { rect, until } = ghost;
  ghost = null; // one tap at most: the next is the player's
  const at = event.clientX >= rect.left && event.clientX <= rect.right;
  if (performance.now() > until || !at || event.clientY < rect.top || event.clientY > rect.bottom) return;
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** Show `dialog` as a modal one that Back closes. A tap that closes it (its form's submit button: Done) leaves its
 * spot guarded for DOUBLE_TAP_MS. */
export function showDialog(dialog) {
  if (dialog.open) return;
  dialog.showModal();
  const release = openOver(() => dialog.close());
  const tapped = ({ submitter }) => {
    if (!submitter) return;
    ghost = { rect: submitter.getBoundingClientRect(), until: performance.now() + DOUBLE_TAP_MS };
    addEventListener('click', swallow, true); // once: the same listener is not added twice
  };
  dialog.addEventListener('submit', tapped);
  dialog.addEventListener(
    'close',
    () => {
      dialog.removeEventListener('submit', tapped);
      release();
    },
    { once: true },
  );
}

/** At a popstate: whether it closed what was open over the view (then the page stays where it is). */
export function closeOver() {
  if (skip) {
    skip--;
    return true;
  }
  const item = open.pop();
  if (!item) return false;
  item.close();
  return true;
}
