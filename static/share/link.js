// What a pasted or scanned text names, read as an address's fragment: a roll shared by link (`#r=…`) or a table
// (`#t=…`), each base64url of the engine's packed JSON (py/arbiter/share.py). This only finds the fragment in the
// text; what it holds is checked by the engine when the page opens it. Knows nothing of the page.

/** The most a fragment may hold here, past which a text is not read: py/arbiter/share.py's LINK_CHARS (2000) for a
 * roll, with room for a table's. */
export const FRAGMENT_CHARS = 20_000;

const FRAGMENT = /^#?([rt])=([A-Za-z0-9_-]+={0,2})$/;

/** `#r=…` or `#t=…` found in `text` (a whole link, or the fragment alone, with or without its `#`); null for
 * anything else. */
export function sharedFragment(text) {
  if (typeof text !== 'string' || text.length > FRAGMENT_CHARS + 2048) return null;
  const trimmed = text.trim();
  const at = trimmed.indexOf('#');
  const m = FRAGMENT.exec(at > 0 ? trimmed.slice(at) : trimmed);
  if (!m || m[2].length > FRAGMENT_CHARS) return null;
  return `#${m[1]}=${m[2]}`;
}
