// The whole table as one file: what an export holds, and the checks an import passes, field by field, before
// anything changes. Pure: the Store reads and writes; this module only shapes and checks.

import { nowIso } from './ids.js';
import { SCHEMA } from './migrations.js';
import {
  LOG, LOG_MAX, MAX_ERRORS, SCHEME, STRUGGLE, T, check, checkCharacter, checkPrice, isObj, show,
} from './schema.js';

export const APP = 'arbiter-table';

/** The file of a store's table (its kept-aside copies are not part of it). */
export function exportTable(store) {
  const rest = ([id, data]) => ({ id, ...data });
  return {
    app: APP, schema: SCHEMA, exported: nowIso(),
    characters: store.list('char:').map(rest),
    scheme: store.get('shared:scheme')?.scheme ?? 0,
    price: store.get('shared:price'),
    struggles: store.list('struggle:').map(rest),
    log: store.list('log:').map(rest),
  };
}

/** The {id, data} records of a file `parseTableFile` accepted. */
export function fileRecords(file) {
  return [
    { id: 'shared:scheme', data: { scheme: file.scheme } },
    { id: 'shared:price', data: file.price },
    ...file.characters.map(({ id, ...data }) => ({ id: `char:${id}`, data })),
    ...file.struggles.map(({ id, ...data }) => ({ id: `struggle:${id}`, data })),
    ...file.log.map(({ id, ...data }) => ({ id: `log:${id}`, data })),
  ];
}

/** Read a whole-table file: {table} when every field is right, else {errors: ["path: what is wrong", …]}. */
export function parseTableFile(text) {
  let file;
  try { file = JSON.parse(text); } catch (error) { return { errors: [`The file is not JSON: ${error.message}`] }; }
  if (!isObj(file)) return { errors: [`The file must hold one JSON object, got ${show(file)}`] };
  if (file.app !== APP) {
    return { errors: [`app: must be "${APP}" (a table exported by Arbiter), got ${show(file.app)}`] };
  }
  if (!Number.isInteger(file.schema) || file.schema < 1) {
    return { errors: [`schema: must be a whole number from 1, got ${show(file.schema)}`] };
  }
  if (file.schema > SCHEMA) {
    return { errors: [`schema: the file was saved by a newer version of Arbiter (schema ${file.schema}); `
      + `this page reads schema ${SCHEMA} and older. Reload to update, then import.`] };
  }
  const errors = [];
  const known = ['app', 'schema', 'exported', 'characters', 'scheme', 'price', 'struggles', 'log'];
  for (const k of Object.keys(file)) if (!known.includes(k)) errors.push(`${k}: is not a known field`);
  for (const k of known) if (!(k in file)) errors.push(`${k}: is missing`);
  if (errors.length) return { errors };
  check(file.exported, T.time, 'exported', errors);
  check(file.scheme, SCHEME.fields.scheme, 'scheme', errors);
  checkPrice(file.price, 'price', errors);
  const entries = (name, max, each) => {
    if (!Array.isArray(file[name]) || file[name].length > max) {
      errors.push(`${name}: must be a list of at most ${max} entries, got ${show(file[name])}`);
      return;
    }
    const seen = new Set();
    file[name].forEach((entry, i) => {
      const path = `${name}[${i}]`;
      if (!isObj(entry)) { errors.push(`${path}: must be an object, got ${show(entry)}`); return; }
      const { id, ...data } = entry;
      check(id, T.id, `${path}.id`, errors);
      if (seen.has(id)) errors.push(`${path}.id: ${show(id)} is used twice`);
      seen.add(id);
      each(data, path);
    });
  };
  entries('characters', 500, (data, path) => checkCharacter(data, path, errors));
  entries('struggles', 500, (data, path) => check(data, STRUGGLE, path, errors));
  entries('log', LOG_MAX, (data, path) => check(data, LOG, path, errors));
  if (errors.length) return { errors: errors.slice(0, MAX_ERRORS) };
  return { table: file };
}
