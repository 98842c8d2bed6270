// Small pure helpers over plain data: paths into a record, picking keys, whole numbers from text, bounded JSON, a value
// for a message.

export const pick = (obj, keys) => Object.fromEntries(keys.map((k) => [k, obj[k]]));

/** A whole number if the text is one; otherwise the text itself, so a check can name what is wrong. */
export const toInt = (text) => (/^\s*[+-]?\d{1,9}\s*$/.test(String(text)) ? Number(text) : String(text));

/** Walk `path` (keys, or {id} for a list entry) in `data`; undefined when something on the way is gone. */
export function at(data, path) {
  let node = data;
  for (const seg of path) {
    if (node === undefined || node === null) return undefined;
    node = typeof seg === 'object' ? node.find?.((x) => x.id === seg.id) : node[seg];
  }
  return node;
}

/** Set what `path` names in `data` and return `data`; undefined when its parent is gone. */
export function setAt(data, path, value) {
  const parent = at(data, path.slice(0, -1));
  if (parent === undefined || parent === null) return undefined; // removed meanwhile, perhaps in another tab
  parent[path.at(-1)] = value;
  return data;
}

/** A copy of `value` as JSON when it is at most `max` characters, else null. */
export function jsonOrNull(value, max) {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(value);
  return text.length <= max ? JSON.parse(text) : null;
}

/** Add `key` to `set` when `on`, else take it out. */
export function toggle(set, key, on) {
  if (on) set.add(key);
  else set.delete(key);
}

/** A value for an error message: JSON, cut at 40 characters. */
export function show(v) {
  let s;
  try {
    s = JSON.stringify(v);
  } catch {
    s = String(v);
  }
  s = s === undefined ? String(v) : s;
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
