// The data's schema version and the migrations that bring older data up to it. A migration is a pure function over
// {id, data} records; only legacyMarks reads the browser (the older page's localStorage key, inside the call: a table
// made from nothing starts with those marks), and the Store forgets that key once the table it went into is kept.

import { newId, nowIso } from './ids.js';
import { RECORDS, declAt, isObj, problem } from './schema.js';

export const SCHEMA = 9;
export const LEGACY_PRICE_KEY = 'arbiter.payThePrice.marked';

const SITUATION = declAt(RECORDS.price, 'situations');
const OPTION = declAt(SITUATION, 'marked', 'option');
const TRACKED = declAt(RECORDS.scheme, 'tracked');
const SET = declAt(RECORDS.scheme, 'set');

/** The Pay the Price marks the threat view kept in localStorage before the table kept them: option numbers, each once,
 * those the Situation's declaration allows. */
export function legacyMarks() {
  try {
    const m = JSON.parse(localStorage.getItem(LEGACY_PRICE_KEY));
    return Array.isArray(m) && m.every((i) => problem(OPTION, i, 'option') === null) ? [...new Set(m)] : [];
  } catch {
    return [];
  }
}

/** The older page's key is read by the migrations only: once they are kept, it goes. */
export function forgetLegacyMarks() {
  try {
    localStorage.removeItem(LEGACY_PRICE_KEY);
  } catch {
    /* no localStorage: nothing to forget */
  }
}

/** Schema 2's marks of a Situation: each option with who marked it; schema 1 kept bare option numbers, marks kept
 * without a name (threat-10 reads them as marked by "someone": by null). */
const namedMarks = (marked) =>
  Array.isArray(marked) ? marked.map((m) => (Number.isInteger(m) ? { option: m, by: null } : m)) : marked;

/** MIGRATIONS[n] turns the data of schema n into schema n + 1 (records without revisions: {id, data}).
 * 0 is "no store yet": only the Pay the Price marks in localStorage, folded in as the first Situation. */
const MIGRATIONS = [
  (records) => {
    const situation = newId();
    const out = records.filter((r) => r.id !== 'meta');
    if (!out.some((r) => r.id === 'shared:scheme')) {
      out.push({ id: 'shared:scheme', data: structuredClone(RECORDS.scheme.default) });
    }
    if (!out.some((r) => r.id === 'shared:price')) {
      const first = { id: situation, name: 'Situation 1', marked: legacyMarks() };
      out.push({ id: 'shared:price', data: { current: situation, situations: [first] } });
    }
    out.push({ id: 'meta', data: { schema: 1, created: nowIso() } });
    return out;
  },
  // 1 -> 2: marks name who picked them, and a Situation keeps who pays when nobody rolls as a character
  (records) =>
    records.map(({ id, data }) => {
      if (id === 'meta' && isObj(data)) return { id, data: { ...data, schema: 2 } };
      if (id !== 'shared:price' || !Array.isArray(data?.situations)) return { id, data };
      const situations = data.situations.map((s) =>
        isObj(s) ? { ...SITUATION.of.default, ...s, marked: namedMarks(s.marked) } : s,
      );
      return { id, data: { ...data, situations } };
    }),
  // 2 -> 3: the Scheme says whether this device tracks it (as declared by default: it does)
  (records) =>
    records.map(({ id, data }) => {
      if (id === 'meta' && isObj(data)) return { id, data: { ...data, schema: 3 } };
      if (id !== 'shared:scheme' || !isObj(data) || Object.hasOwn(data, TRACKED.name)) return { id, data };
      return { id, data: { ...data, [TRACKED.name]: TRACKED.default } };
    }),
  // 3 -> 4: a character may remember what was picked for its last roll (absent until it rolls): nothing to change
  // but the number, which tells an older page in another tab to stop writing rather than refuse the character
  (records) =>
    records.map(({ id, data }) => (id === 'meta' && isObj(data) ? { id, data: { ...data, schema: 4 } } : { id, data })),
  // 4 -> 5: a follow-up's log entry may say what it did in words (absent on older entries): only the number changes
  (records) =>
    records.map(({ id, data }) => (id === 'meta' && isObj(data) ? { id, data: { ...data, schema: 5 } } : { id, data })),
  // 5 -> 6: a log entry may say whose dice (source), the faces its step drew and the roll a follow-up follows
  // (absent on older entries: their dice were the app's): only the number changes
  (records) =>
    records.map(({ id, data }) => (id === 'meta' && isObj(data) ? { id, data: { ...data, schema: 6 } } : { id, data })),
  // 6 -> 7: a log entry added from a shared roll keeps its step's id, who rolled it and when, and the store's meta
  // may say when the table was last saved as a file (a backup); both absent until then:
  // only the number changes
  (records) =>
    records.map(({ id, data }) => (id === 'meta' && isObj(data) ? { id, data: { ...data, schema: 7 } } : { id, data })),
  // 7 -> 8: the Scheme says whether its count was ever set on this device (by hand, by a roll, from the Host's
  // table), so an empty one never set can say where the Scheme lives: a count above 0 was set; 0 cannot be told
  // from one never set, and is read so (its refusal then offers both ways out)
  (records) =>
    records.map(({ id, data }) => {
      if (id === 'meta' && isObj(data)) return { id, data: { ...data, schema: 8 } };
      if (id !== 'shared:scheme' || !isObj(data) || Object.hasOwn(data, SET.name)) return { id, data };
      return { id, data: { ...data, [SET.name]: Number.isInteger(data.scheme) && data.scheme > 0 } };
    }),
  // 8 -> 9: a log entry of a roll made on a player's phone joined to a live table says whether it reached the Host
  // (absent on every other entry): only the number changes
  (records) =>
    records.map(({ id, data }) => (id === 'meta' && isObj(data) ? { id, data: { ...data, schema: 9 } } : { id, data })),
];

/** Bring {id, data} records from schema `from` up to SCHEMA. */
export function migrate(records, from) {
  let out = records;
  for (let v = from; v < SCHEMA; v++) out = MIGRATIONS[v](out);
  return out;
}
