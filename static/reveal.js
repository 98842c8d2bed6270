// One view per roll on a phone: after a tap on Roll, the dice and the words under them are scrolled into view above
// the Roll bars that style.css pins to the bottom of the screen, so the player never has to scroll to see a roll.

const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
const MARGIN = 8; // CSS px between what is revealed and the screen's edge (or the bars)

/** How much of the screen's bottom the Roll bars of `panel` cover: those fixed there, or stuck there (style.css). */
function coveringBars(panel) {
  let covered = 0;
  for (const bar of panel.querySelectorAll('[data-bar]')) {
    const css = getComputedStyle(bar),
      box = bar.getBoundingClientRect();
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

/** A tab with two forms (Threat & Luck) on a phone: style.css fixes the later form's Roll bar at the screen's bottom
 * and sets the first form's bar on top of it. Fixed only until the bar's own place in its form (data-bar-place, just
 * before it) comes up to where the fixed bar is: from there on the bar rests in its form as any other (data-bar-home),
 * so it never covers what follows the tab (the Table). The first form's bar sits on the fixed one however tall that
 * grows (a refusal's line: --fixed-bar-h). */
export function keepBarsInPlace(panel) {
  const later = panel.querySelector(':scope > form + form'),
    bar = later?.querySelector('[data-bar]');
  if (!bar) return;
  const home = ([at]) => later.toggleAttribute('data-bar-home', at.isIntersecting || at.boundingClientRect.top < 0);
  let watch = null;
  new ResizeObserver(() => {
    // the fixed bar covers as much of the screen as it is tall now
    panel.style.setProperty('--fixed-bar-h', `${bar.offsetHeight}px`);
    watch?.disconnect();
    watch = new IntersectionObserver(home, { rootMargin: `0px 0px -${Math.ceil(bar.offsetHeight)}px 0px` });
    watch.observe(later.querySelector('[data-bar-place]'));
  }).observe(bar);
}
