// When the Table asks for a backup: once BACKUP_AFTER's rolls or days (table_spec()'s, a product setting) have passed
// since the last backup, or, never backed up, since the table was made on this device. Pure.

import { BACKUP_AFTER } from './schema.js';

const DAY_MS = 86400000;

/** Where `meta` (the store's meta record) leaves the backups at `now` (ms), with `rollTimes` the times of the log's
 * rolls (follow-ups are not rolls): {last: the last backup's time or null, rolls and days since it (or since the
 * table was made), over: which of them reached BACKUP_AFTER's, due: whether either did}. */
export function backupState(meta, rollTimes, now = Date.now()) {
  const last = meta?.backup ?? null;
  const since = last ?? meta?.created ?? null;
  const from = since === null ? now : Date.parse(since);
  const rolls = rollTimes.filter((t) => since === null || t > since).length;
  const days = Math.max(0, Math.floor((now - from) / DAY_MS));
  const over = { rolls: rolls >= BACKUP_AFTER.rolls, days: days >= BACKUP_AFTER.days };
  return { last, rolls, days, over, due: over.rolls || over.days };
}
