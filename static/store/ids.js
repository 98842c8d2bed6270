// Ids and times for the table's records: random ids, log ids that sort by time, ISO times, the record each stored id
// holds. Pure.

export const newId = () =>
  globalThis.crypto?.randomUUID?.() ??
  [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** A log id that sorts by time: base-36 milliseconds, then randomness. */
export const logId = (ms = Date.now()) => `${ms.toString(36).padStart(9, '0')}-${newId().slice(0, 8)}`;

export const nowIso = () => new Date().toISOString();

/** The name of the record (a key of table_spec()'s records) kept under the stored id `id`, or null for an id this
 * version keeps not. */
export function recordOf(id) {
  const fixed = { meta: 'meta', 'shared:scheme': 'scheme', 'shared:price': 'price' };
  if (Object.hasOwn(fixed, id)) return fixed[id];
  const m = /^(char|struggle|log):[A-Za-z0-9_-]{1,64}$/.exec(id);
  return m ? { char: 'character', struggle: 'struggle', log: 'log' }[m[1]] : null;
}
