// The data's schema version and the migrations that bring older data up to it. A migration is a pure function over
// {id, data} records; only legacyMarks reads the browser (localStorage, inside the call).

import { newId, nowIso } from './ids.js';

export const SCHEMA = 1;
export const LEGACY_PRICE_KEY = 'arbiter.payThePrice.marked';

/** The Pay the Price marks procedures.js kept in localStorage before there was a store (a list of 0..7). */
export function legacyMarks() {
  try {
    const m = JSON.parse(localStorage.getItem(LEGACY_PRICE_KEY));
    return Array.isArray(m) && m.every((i) => Number.isInteger(i) && i >= 0 && i <= 7) ? [...new Set(m)] : [];
  } catch {
    return [];
  }
}

/** MIGRATIONS[n] turns the data of schema n into schema n + 1 (records without revisions: {id, data}).
 * 0 is "no store yet": only the Pay the Price marks in localStorage, folded in as the first Situation. */
const MIGRATIONS = [
  (records) => {
    const situation = newId();
    const out = records.filter((r) => r.id !== 'meta');
    if (!out.some((r) => r.id === 'shared:scheme')) out.push({ id: 'shared:scheme', data: { scheme: 0 } });
    if (!out.some((r) => r.id === 'shared:price')) {
      const first = { id: situation, name: 'Situation 1', marked: legacyMarks() };
      out.push({ id: 'shared:price', data: { current: situation, situations: [first] } });
    }
    out.push({ id: 'meta', data: { schema: 1, created: nowIso() } });
    return out;
  },
];

/** Bring {id, data} records from schema `from` up to SCHEMA. */
export function migrate(records, from) {
  let out = records;
  for (let v = from; v < SCHEMA; v++) out = MIGRATIONS[v](out);
  return out;
}
