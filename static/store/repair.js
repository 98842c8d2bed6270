// A store as read from the device, made one this page can use (store.js' load): each record checked (in slices, a
// few milliseconds per task), an older schema migrated, a store that cannot be read or that a newer Arbiter wrote
// copied aside untouched (an 'aside:<id>' record), and the records a working table needs created. Knows no rules:
// what a record's data may hold is arbiter.api's declarations, read by schema.js.

import { show } from './data.js';
import { MAX_ERRORS } from './file.js';
import { logId, nowIso, recordOf } from './ids.js';
import { SCHEMA, migrate } from './migrations.js';
import { checkRecord, isObj, refusal } from './schema.js';

/** What is wrong with `data` as the record `id` holds, in arbiter.api's words (check_record's); null when nothing. */
export function dataProblem(id, data) {
  const name = recordOf(id);
  if (!name) return `${show(id)}: is not a record this version keeps`;
  return refusal(() => checkRecord(name, data));
}

/** A whole stored record: {id, rev, updated, by, data}, its id one this version keeps, its data as declared. */
export function recordErrors(rec) {
  if (!isObj(rec) || typeof rec.id !== 'string') return [`a record without an id: ${show(rec)}`];
  const errors = [];
  const where = rec.id;
  for (const k of Object.keys(rec)) {
    if (!['id', 'rev', 'updated', 'by', 'data'].includes(k)) errors.push(`${where}.${k}: is not a known field`);
  }
  if (!Number.isInteger(rec.rev) || rec.rev < 1) {
    errors.push(`${where}.rev: must be a whole number from 1, got ${show(rec.rev)}`);
  }
  if (typeof rec.updated !== 'number') {
    errors.push(`${where}.updated: must be a time in milliseconds, got ${show(rec.updated)}`);
  }
  if (typeof rec.by !== 'string') errors.push(`${where}.by: must be a text, got ${show(rec.by)}`);
  const wrong = dataProblem(rec.id, rec.data);
  if (wrong) errors.push(recordOf(rec.id) ? `${where}: ${wrong}` : wrong);
  return errors;
}

const nextTask = () =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
// A record's revision as stored (its data changes only with a new one): the key of its verdict in checkInSlices.
const revisionOf = (rec) => (typeof rec?.id === 'string' ? JSON.stringify([rec.id, rec.rev, rec.updated, rec.by]) : '');

/** Each record's recordErrors by its revision, checked 8 ms at a time, each slice a task of its own. */
export async function checkInSlices(records, verdicts = new Map(), since = performance.now()) {
  for (const rec of records.filter((r) => !String(r?.id).startsWith('aside:'))) {
    // asides are kept, never read
    if (performance.now() - since > 8) since = await nextTask().then(() => performance.now());
    if (revisionOf(rec)) verdicts.set(revisionOf(rec), recordErrors(rec));
  }
  return verdicts;
}

/** Repair what `raw` (every stored record) holds, through `tx` (put, del): the verdicts of checkInSlices reused for
 * every revision still unchanged, `blank` the records a new table starts with, `tab` the writer. Returns the
 * problems to tell the player. */
export function repair(tx, raw, { verdicts, blank, tab }) {
  const problems = [];
  const stamp = (rec, rev = 1) => ({ id: rec.id, rev, updated: Date.now(), by: tab, data: rec.data });
  const records = raw.filter((r) => !(typeof r?.id === 'string' && r.id.startsWith('aside:')));
  const aside = (reason, details, schema = null) => {
    const id = `aside:${logId()}`;
    const data = { at: nowIso(), reason, schema, problems: details, records };
    tx.put({ id, rev: 1, updated: Date.now(), by: tab, data });
    return id;
  };
  const revs = new Map(records.map((r) => [r?.id, r?.rev]));
  const revOf = (id) => {
    const rev = revs.get(id);
    return Number.isInteger(rev) && rev > 0 ? rev : 0;
  };
  const fresh = () => {
    for (const rec of blank) tx.put(stamp(rec, revOf(rec.id) + 1));
  };
  if (records.length === 0) {
    fresh();
    return { problems };
  }

  const meta = records.find((r) => r?.id === 'meta');
  const schema =
    isObj(meta?.data) && Number.isInteger(meta.data.schema) && meta.data.schema >= 1 ? meta.data.schema : null;
  if (schema !== null && schema > SCHEMA) {
    const id = aside('newer', [`schema ${schema}; this page reads schema ${SCHEMA} and older`], schema);
    for (const r of records) tx.del(r.id);
    fresh();
    problems.push({
      kind: 'newer',
      aside: id,
      message:
        'The table saved here was written by a newer version of Arbiter. It is kept aside untouched; reload to get ' +
        'the newer version. Meanwhile this page starts a fresh table.',
    });
    return { problems };
  }

  const errors = [];
  let work = records;
  if (schema === null) {
    errors.push(
      meta ? `meta.data.schema: must be a whole number from 1, got ${show(meta?.data?.schema)}` : 'meta: is missing',
    );
    work = records.filter((r) => r?.id !== 'meta');
  } else if (schema < SCHEMA) {
    try {
      work = migrate(
        records.map((r) => ({ id: r.id, data: r.data })),
        schema,
      ).map((r) => stamp(r, revOf(r.id) + 1));
    } catch (error) {
      errors.push(`the migration from schema ${schema} failed: ${error.message}`);
      work = [];
    }
  }
  const good = [];
  for (const rec of work) {
    const e = verdicts.get(revisionOf(rec)) ?? recordErrors(rec);
    if (e.length) errors.push(...e);
    else good.push(rec);
  }
  const kept = new Set(good.map((r) => r.id));
  if (errors.length) {
    const id = aside('damaged', errors.slice(0, MAX_ERRORS), schema);
    const dropped = records.filter((r) => !kept.has(r?.id));
    for (const r of dropped) tx.del(r.id);
    const n = dropped.filter((r) => r?.id !== 'meta').length;
    problems.push({
      kind: 'damaged',
      aside: id,
      details: errors.slice(0, MAX_ERRORS),
      message:
        'Some of the table saved here could not be read ' +
        `(${errors.length} problem${errors.length === 1 ? '' : 's'}; ${n} record${n === 1 ? '' : 's'} left out). ` +
        'An untouched copy is kept aside (see “Save and restore”); everything else goes on working.',
    });
  }
  if (schema !== null && schema < SCHEMA) for (const r of good) tx.put(r);
  // the records a working table needs: meta, the Scheme, the Situations
  for (const r of blank) if (!kept.has(r.id)) tx.put(stamp(r, revOf(r.id) + 1));
  return { problems };
}
