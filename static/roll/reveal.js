// One view per roll on a phone: after a tap on Roll, the dice and the words under them are scrolled into view above
// what style.css keeps at the bottom of the screen (the form's Roll bar, the views' navigation), so the player never
// has to scroll to see a roll.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const MARGIN = 8; // CSS px between what is revealed and the screen's edge (or the bars)

/** The top of what covers the bottom of the screen in `form`'s view: its Roll bar where it is fixed there or stuck
 * there, and the views' navigation where it is shown; the screen's height when nothing does. */
function roomAbove(form) {
  let room = innerHeight;
  const covers = [form.querySelector('[data-bar]'), document.querySelector('nav.views')];
  for (const el of covers) {
    if (!el) continue;
    const css = getComputedStyle(el),
      box = el.getBoundingClientRect();
    const stuck = css.position === 'sticky' && box.bottom >= innerHeight - parseFloat(css.bottom) - 1;
    if ((css.position === 'fixed' && css.display !== 'none') || stuck) room = Math.min(room, box.top);
  }
  return room;
}

/** Scroll `canvas` and what is below it down to the bottom of `parts` into view above the bottom bars of `form`: as
 * much as fits with the canvas's top in view, smoothly unless motion is reduced; no scroll when they are in view. */
export function reveal(form, canvas, ...parts) {
  const room = roomAbove(form);
  const top = canvas.getBoundingClientRect().top;
  const bottom = Math.max(...parts.map((el) => el.getBoundingClientRect().bottom));
  let dy = 0;
  if (top < 0) dy = top - MARGIN;
  else if (bottom > room) dy = Math.min(bottom - room + MARGIN, top - MARGIN);
  if (dy) scrollBy({ top: dy, behavior: reducedMotion.matches ? 'instant' : 'smooth' });
}
