// The page's one element builder, for every part that draws (the views, the outcome line, a procedure's form, the
// table): strings become text nodes, never HTML. Knows nothing of the page; `document` is touched only inside calls.

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
