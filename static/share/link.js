// What a pasted or scanned text names, read as an address's fragment: a roll shared by link (`#r=…`) or a table
// (`#t=…`), each base64url of the engine's packed JSON (py/arbiter/share.py). A link copied out of a chat comes with
// words around it, brackets, quotes, a full stop after it, or a line break inside it (issue 30): this finds each place
// a link starts and the pieces of text that may be its fragment, shortest first; which of them is a link is the
// engine's to say (arbiter.api.read_links: it unpacks and its id checks), and `chosen` then picks. A live table's
// codes (`#j=`, `#a=`: issue 32) are found the same way but are no engine's: the page checks them itself
// (live/signal.js, handed to `chosen` as `own`). Knows nothing of the page.

/** The most a fragment may hold here, past which a piece is not read: py/arbiter/share.py's LINK_CHARS (2000) for a
 * roll, with room for a table's. */
export const FRAGMENT_CHARS = 20_000;
/** The most places a link may start in one text, and the pieces of text (after the first) joined to each. */
export const MOST_LINKS = 8;
export const MOST_JOINED = 3;

export const NOT_A_LINK = 'That is not an Arbiter roll link.';
export const TWO_LINKS = 'This text holds two different Arbiter links: paste one at a time.';

/** The kinds of link the page reads itself, not the engine: a live table's join code and a player's answer. */
export const OWN = ['j', 'a'];

// a link's start (`#r=`, `#t=`, `#j=`, `#a=`, or `r=` at the very start of the text), then its fragment's characters
const START = /(?:^|#)([rtja])=([A-Za-z0-9_-]+={0,2})/g;
// what may continue a fragment cut by a line break or spaces: more of its characters, up to the next space
const MORE = /^\s+([A-Za-z0-9_-]+={0,2})/;

/** Each place in `text` a link may start: {kind ('r' a roll, 't' a table, 'j' or 'a' a live table's code), pieces} with `pieces` the fragments to
 * try, shortest first (the characters after `#r=`, then with the next run of fragment characters after a space or
 * a line break joined on, and so on). An empty list when the text names no link at all. */
export function linkPlaces(text) {
  if (typeof text !== 'string' || text.length > FRAGMENT_CHARS * 2 + 4096) return [];
  const trimmed = text.trim();
  const places = [];
  for (const m of trimmed.matchAll(START)) {
    if (places.length === MOST_LINKS) break;
    let piece = m[2];
    const pieces = [piece];
    let rest = trimmed.slice(m.index + m[0].length);
    for (let k = 0; k < MOST_JOINED && !piece.endsWith('='); k++) {
      const more = MORE.exec(rest);
      if (!more) break;
      piece += more[1];
      pieces.push(piece);
      rest = rest.slice(more[0].length);
    }
    places.push({ kind: m[1], pieces: pieces.filter((p) => p.length <= FRAGMENT_CHARS) });
  }
  return places.filter((p) => p.pieces.length);
}

/** The pieces of `places` for the engine to check, as arbiter.api.read_links takes them: [kind, fragment] (a live
 * table's codes are not the engine's). */
export const piecesOf = (places) =>
  places.filter(({ kind }) => !OWN.includes(kind)).flatMap(({ kind, pieces }) => pieces.map((piece) => [kind, piece]));

/** What a text whose `places` the engine checked (`verdicts`: read_links' answer for piecesOf(places), in order:
 * 'ok', 'newer' or null) names: {fragment: '#r=…'} (each place's shortest piece that is a link; the same link found
 * twice is one), or {refused: words} (no link, or two different ones). A live table's code is a link when
 * `own(kind, piece)` says so. */
export function chosen(places, verdicts, own = () => false) {
  const found = new Set();
  let at = 0;
  for (const { kind, pieces } of places) {
    const mine = OWN.includes(kind);
    const k = pieces.findIndex((piece, i) => (mine ? own(kind, piece) : verdicts[at + i]));
    if (k >= 0) found.add(`#${kind}=${pieces[k]}`);
    if (!mine) at += pieces.length;
  }
  if (found.size === 1) return { fragment: [...found][0] };
  return { refused: found.size ? TWO_LINKS : NOT_A_LINK };
}
