// The outcome at a glance: the roll's summary with the mark of its class (the engine's `tone`, arbiter.tone: success,
// mixed, failure, botch), shown by a colour and a shape with a glyph, so it reads without colour too; below it the
// worked steps in smaller type, folded after two lines on a narrow screen, with a toggle that unfolds them.
import { reveal } from './reveal.js';
import { h } from '../dom.js';

// Each class's glyph and words (the glyph is drawn in a badge whose shape the stylesheet gives each class).
const TONES = {
  success: ['✓', 'Success'],
  mixed: ['◐', 'Partly'],
  failure: ['✗', 'Failure'],
  botch: ['‼\uFE0E', 'Botch or fumble'],
};

let stepsIds = 0;
// The toggle shows only while its steps are folded and do not fit (a narrow screen, long steps): asked again whenever
// their size changes, on the next frame (showing the toggle narrows the steps: changed inside the observer's callback,
// that would be a "ResizeObserver loop"). One observer for every form's steps; steps a later roll replaced are let go.
const toggles = new WeakMap();
const fit = new ResizeObserver((entries) =>
  requestAnimationFrame(() => {
    for (const { target } of entries) {
      const toggle = toggles.get(target);
      if (!target.isConnected) fit.unobserve(target);
      else if (toggle.getAttribute('aria-expanded') !== 'true') {
        toggle.hidden = target.scrollHeight <= target.clientHeight;
      }
    }
  }),
);

/** The outcome line and the worked steps of `roll`, for [data-result]. */
export function outcomeLines(roll) {
  const [glyph, words] = TONES[roll.tone] ?? ['', ''];
  const mark = glyph ? h('span', { class: 'tone-mark', role: 'img', 'aria-label': `${words}:` }, glyph) : null;
  const outcome = h('p', { class: 'outcome', 'data-tone': roll.tone }, mark, ' ', roll.summary);
  const id = `steps-${++stepsIds}`;
  const steps = h('p', { class: 'steps', id }, roll.steps.join(' → '));
  const toggle = h(
    'button',
    { type: 'button', class: 'steps-toggle', 'aria-expanded': 'false', 'aria-controls': id, hidden: true },
    'All steps',
  );
  const box = h('div', { class: 'steps-box' }, steps, toggle);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? 'Fewer steps' : 'All steps';
    box.toggleAttribute('data-open', open);
    // opened, the steps come into view above the Roll bar (on a phone it is fixed at the screen's bottom)
    const form = box.closest('form');
    if (open && form) reveal(form, box, box);
  });
  toggles.set(steps, toggle);
  fit.observe(steps);
  return [outcome, box];
}
