// One view per roll on a phone: after a tap on Roll, the dice and the words under them are scrolled into view above
// the Roll bars that style.css pins to the bottom of the screen, so the player never has to scroll to see a roll.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const MARGIN = 8; // CSS px between what is revealed and the screen's edge (or the bars)

/** How much of the screen's bottom the Roll bars of `panel` cover: those fixed there, or stuck there (style.css). */
function coveringBars(panel) {
  let covered = 0;
  for (const bar of panel.querySelectorAll('[data-bar]')) {
    const css = getComputedStyle(bar), box = bar.getBoundingClientRect();
    const stuck = css.position === 'sticky' && box.bottom >= innerHeight - parseFloat(css.bottom) - 1;
    if (css.position === 'fixed' || stuck) covered += box.height;
  }
  return covered;
}

/** Scroll `canvas` and what is below it down to the bottom of `parts` into view above the Roll bars of `panel`: as
 * much as fits with the canvas's top in view, smoothly unless motion is reduced; no scroll when they are in view. */
export function reveal(panel, canvas, ...parts) {
  const room = innerHeight - coveringBars(panel);
  const top = canvas.getBoundingClientRect().top;
  const bottom = Math.max(...parts.map((el) => el.getBoundingClientRect().bottom));
  let dy = 0;
  if (top < 0) dy = top - MARGIN;
  else if (bottom > room) dy = Math.min(bottom - room + MARGIN, top - MARGIN);
  if (dy) scrollBy({ top: dy, behavior: reducedMotion.matches ? 'instant' : 'smooth' });
}
