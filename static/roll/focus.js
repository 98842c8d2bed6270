// The focus through a follow-up: a Procedure's choices are drawn anew, so the control used is found again by its
// place. Knows nothing of procedures; `document` is touched only inside calls.
export const CONTROLS = 'button, input, select, textarea, summary, a[href]';
// A control's place: its choice, its option, its kind; its rank among the controls of the same place tells it apart.
const placeOf = (c) => [c.closest('[data-choice]')?.dataset.choice, c.dataset.option, c.tagName, c.type].join('|');
const like = (box, place) => [...box.querySelectorAll(CONTROLS)].filter((c) => placeOf(c) === place);

/** Where the focused control sits in `box`, or null when the focus is elsewhere. */
export function controlKey(box) {
  const el = document.activeElement;
  if (!el || !box.contains(el) || !el.matches(CONTROLS)) return null;
  const place = placeOf(el);
  return { place, rank: like(box, place).indexOf(el) };
}

/** Focus the control in `box` at that place and rank, if it is there and enabled; else focus `fallback`. */
export function refocus(box, { place, rank }, fallback) {
  const el = like(box, place)[rank];
  (el && !el.disabled ? el : fallback)?.focus({ preventScroll: true });
}
