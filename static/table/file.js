// The whole table as one file: what an export holds, and the checks an import passes, field by field, before
// anything changes: the file's own envelope here, each record by arbiter.api's declarations (schema.js). Pure: the
// Store reads and writes; this module only shapes and checks.

import { show } from './data.js';
import { nowIso, recordOf } from './ids.js';
import { SCHEMA, migrate } from './migrations.js';
import { FILE_MAX, RECORDS, checkRecord, declAt, isObj, problem, refusal } from './schema.js';

export const MAX_ERRORS = 20; // a report lists this many problems at most
export const APP = 'arbiter-table';

const ENTRY_ID = declAt(RECORDS.price, 'situations', 'id'); // a list entry's id, as a Situation's is declared
const LISTS = { characters: ['char:', 'character'], struggles: ['struggle:', 'struggle'], log: ['log:', 'log'] };

/** The file of a store's table (its kept-aside copies are not part of it). */
export function exportTable(store) {
  const rest = ([id, data]) => ({ id, ...data });
  return {
    app: APP,
    schema: SCHEMA,
    exported: nowIso(),
    characters: store.list('char:').map(rest),
    scheme: store.get('shared:scheme') ?? RECORDS.scheme.default,
    price: store.get('shared:price'),
    struggles: store.list('struggle:').map(rest),
    log: store.list('log:').map(rest),
  };
}

/** The {id, data} records of a file `parseTableFile` accepted, each with where the file holds it. */
export function fileRecords(file) {
  return [
    // the Scheme's record; a file of schema 2 or older held only its count
    isObj(file.scheme)
      ? { id: 'shared:scheme', data: file.scheme, at: 'scheme' }
      : { id: 'shared:scheme', data: { scheme: file.scheme }, at: 'file' },
    { id: 'shared:price', data: file.price, at: 'price' },
    ...Object.entries(LISTS).flatMap(([name, [prefix]]) =>
      file[name].map(({ id, ...data }, i) => ({ id: `${prefix}${id}`, data, at: `${name}[${i}]` })),
    ),
  ];
}

/** The file holding `records` (schema SCHEMA), with `file`'s app and time. */
function fileOf(file, records) {
  const data = (id) => records.find((r) => r.id === id)?.data;
  const under = (prefix) =>
    records.filter((r) => r.id.startsWith(prefix)).map((r) => ({ id: r.id.slice(prefix.length), ...r.data }));
  return {
    ...file,
    schema: SCHEMA,
    scheme: data('shared:scheme'),
    price: data('shared:price'),
    characters: under('char:'),
    struggles: under('struggle:'),
    log: under('log:'),
  };
}

/** Read a whole-table file: {table} (in this version's schema) when every field is right, else {errors: ["what is
 * wrong, and where", …]}. A file of an older schema is migrated first, as a stored table would be. */
export function parseTableFile(text) {
  let file;
  try {
    file = JSON.parse(text);
  } catch (error) {
    return { errors: [`The file is not JSON: ${error.message}`] };
  }
  if (!isObj(file)) return { errors: [`The file must hold one JSON object, got ${show(file)}`] };
  if (file.app !== APP) {
    return { errors: [`app: must be "${APP}" (a table exported by Arbiter), got ${show(file.app)}`] };
  }
  if (!Number.isInteger(file.schema) || file.schema < 1) {
    return { errors: [`schema: must be a whole number from 1, got ${show(file.schema)}`] };
  }
  if (file.schema > SCHEMA) {
    return {
      errors: [
        `schema: the file was saved by a newer version of Arbiter (schema ${file.schema}); ` +
          `this page reads schema ${SCHEMA} and older. Reload to update, then import.`,
      ],
    };
  }
  const errors = [];
  const known = ['app', 'schema', 'exported', ...Object.keys(LISTS), 'scheme', 'price'];
  for (const k of Object.keys(file)) if (!known.includes(k)) errors.push(`${k}: is not a known field`);
  for (const k of known) if (!(k in file)) errors.push(`${k}: is missing`);
  if (errors.length) return { errors };
  const wrong = (message) => {
    if (message && errors.length < MAX_ERRORS) errors.push(message);
  };
  wrong(problem(declAt(RECORDS.meta, 'created'), file.exported, 'exported'));
  for (const name of Object.keys(LISTS)) {
    const max = FILE_MAX[name];
    if (!Array.isArray(file[name]) || file[name].length > max) {
      errors.push(`${name}: must be a list of at most ${max} entries, got ${show(file[name])}`);
      continue;
    }
    const seen = new Set();
    file[name].forEach((entry, i) => {
      const path = `${name}[${i}]`;
      if (!isObj(entry)) {
        wrong(`${path}: must be an object, got ${show(entry)}`);
        return;
      }
      wrong(problem(ENTRY_ID, entry.id, `${path}.id`));
      if (seen.has(entry.id)) wrong(`${path}.id: ${show(entry.id)} is used twice`);
      seen.add(entry.id);
    });
  }
  if (errors.length) return { errors };
  const records = fileRecords(file);
  const at = new Map(records.map((r) => [r.id, r.at]));
  let current;
  try {
    current = migrate(
      records.map(({ id, data }) => ({ id, data })),
      file.schema,
    );
  } catch (error) {
    return { errors: [`the migration from schema ${file.schema} failed: ${error.message}`] };
  }
  for (const { id, data } of current) {
    const name = recordOf(id);
    if (name) wrong(refusal(() => checkRecord(name, data, at.get(id) ?? id)));
  }
  if (errors.length) return { errors };
  return { table: file.schema === SCHEMA ? file : fileOf(file, current) };
}
