// Ids and times for the table's records: random ids, log ids that sort by time, ISO times. Pure.

export const newId = () => (globalThis.crypto?.randomUUID?.() ??
  [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join(''));

/** A log id that sorts by time: base-36 milliseconds, then randomness. */
export const logId = (ms = Date.now()) => `${ms.toString(36).padStart(9, '0')}-${newId().slice(0, 8)}`;

export const nowIso = () => new Date().toISOString();
