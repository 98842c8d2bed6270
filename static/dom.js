// The page's DOM helpers, for every part that draws (the views, the outcome line, a procedure's form, the table and
// the log): its one element builder, `h` (strings become text nodes, never HTML); a redraw that keeps focus and a
// half-typed value; whole-number inputs, labelled checkboxes and selects; a download. Knows nothing of the page;
// `document` is touched only inside calls.
import { toInt } from './store/data.js';

/** An element: its attributes (false, null or undefined left out, true as an empty one, on<event> a listener), then
 * its children, nested at any depth (null, undefined and false left out; strings become text nodes). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** Replace `container`'s children, keeping focus (and a half-typed value) on the element with the same data-k. */
export function swap(container, nodes) {
  const active = document.activeElement;
  let key = null;
  let typed = null;
  let selection = null;
  if (active && container.contains(active) && active.dataset.k) {
    key = active.dataset.k;
    if (active.matches('input[type=text], textarea')) {
      if (active.value !== active.defaultValue) typed = active.value;
      selection = [active.selectionStart, active.selectionEnd, active.selectionDirection];
    }
  }
  container.replaceChildren(...nodes.flat().filter(Boolean));
  if (key) {
    const el = container.querySelector(`[data-k="${CSS.escape(key)}"]`);
    if (el) {
      if (typed !== null) el.value = typed;
      el.focus({ preventScroll: true });
      // a redraw while typing must not move the caret or drop a selection (typing would then add, not replace)
      if (selection && el.setSelectionRange && selection[0] !== null) el.setSelectionRange(...selection);
    }
  }
}

/** A whole-number field: a text input (so a redraw can keep its caret and selection), a numeric keyboard where no
 * minus sign is needed, and ArrowUp/ArrowDown stepping within min..max. */
export function intInput(attrs) {
  const { min, max } = attrs;
  const el = h('input', {
    type: 'text',
    inputmode: min >= 0 ? 'numeric' : 'text',
    pattern: min >= 0 ? '[0-9]*' : '-?[0-9]*',
    autocomplete: 'off',
    spellcheck: 'false',
    'data-min': min,
    'data-max': max,
    ...attrs,
    min: null,
    max: null,
  });
  el.classList.add('int');
  el.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const v = toInt(el.value);
    if (!Number.isInteger(v)) return;
    event.preventDefault();
    const next = v + (event.key === 'ArrowUp' ? 1 : -1);
    el.value = String(Math.min(Number(el.dataset.max), Math.max(Number(el.dataset.min), next)));
  });
  return el;
}

export function checkbox(key, label, checked, onchange) {
  const box = h('input', { type: 'checkbox', checked, 'data-k': key });
  box.addEventListener('change', () => onchange(box.checked));
  return h('label', { class: 'tf check' }, box, h('span', {}, label));
}

/** A labelled select of [value, text] options. */
export function select(key, label, options, value, onchange) {
  const el = h(
    'select',
    { 'data-k': key },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
  el.addEventListener('change', () => onchange(el.value));
  return h('label', { class: 'tf' }, h('span', {}, label), el);
}

export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
