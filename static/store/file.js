// The whole table as one file: what an export holds, and the checks an import passes, field by field, before
// anything changes: the file's own envelope here, each record by arbiter.api's declarations (schema.js). Pure: the
// Store reads and writes; this module only shapes and checks.

import { nowIso, recordOf } from './ids.js';
import { SCHEMA, migrate } from './migrations.js';
import { CheckError, FILE_MAX, PROCEDURES, RECORDS, check as checkOne, checkRecord, declAt, isObj } from './schema.js';

export const MAX_ERRORS = 20; // a report lists this many problems at most
export const APP = 'arbiter-table';

const ENTRY_ID = declAt(RECORDS.price, 'situations', 'id'); // a list entry's id, as a Situation's is declared
const LISTS = { characters: ['char:', 'character'], struggles: ['struggle:', 'struggle'], log: ['log:', 'log'] };
// what a player calls each part of a table file, and one entry of each list
const PARTS = {
  app: 'name of the app that saved it',
  schema: 'version',
  exported: 'export time',
  characters: 'characters',
  struggles: 'struggles',
  log: 'roll log',
  scheme: 'Scheme',
  price: 'Pay the Price marks',
};
const ENTRY = { characters: 'Character', struggles: 'Struggle', log: 'Log entry' };

const possessive = (who) => `${who}${who.endsWith('s') ? '’' : '’s'}`;
const parts = (path) => String(path).match(/[^.[\]]+|\[\d+\]/g) ?? [];
const through = (decl) => {
  let d = decl;
  while (d && (d.type === 'list' || d.type === 'nullable')) d = d.of;
  return d;
};

/** Where `path` (a field of a table file: 'characters[0].sheet.will') is, in a player's words: who holds it (a
 * character or a struggle by its name, "Log entry 3", the Scheme) and the field's label from the declarations, with
 * its row's number in a list and the lists around it ("Mira’s Will", "Log entry 1’s Faces 1"); no path, no name of a
 * field. */
export function placeWords(path, file) {
  const [top, index, ...rest] = parts(path);
  let holder, decl, value;
  const i = /^\[(\d+)\]$/.exec(index ?? '')?.[1];
  if (Object.hasOwn(LISTS, top) && i !== undefined) {
    value = file?.[top]?.[Number(i)];
    const name = typeof value?.name === 'string' ? value.name.trim() : '';
    holder = name || `${ENTRY[top]} ${Number(i) + 1}`;
    decl = RECORDS[LISTS[top][1]];
  } else {
    rest.unshift(...(index === undefined ? [] : [index]));
    if (top === 'scheme' || top === 'file') [holder, decl] = ['The Scheme', RECORDS.scheme];
    else if (top === 'price') [holder, decl] = ['Pay the Price', RECORDS.price];
    else return `The file’s ${PARTS[top] ?? `“${top}”`}`;
  }
  let labels = [];
  let inside = value ?? (top === 'file' ? file : file?.[top]);
  for (const part of rest) {
    const row = /^\[(\d+)\]$/.exec(part);
    if (row) {
      inside = inside?.[Number(row[1])];
      const name = typeof inside?.name === 'string' ? inside.name.trim() : '';
      if (name)
        [holder, labels] = [name, []]; // an entry with a name of its own holds what is in it (a Situation)
      else if (labels.length) labels[labels.length - 1] += ` ${Number(row[1]) + 1}`;
      continue;
    }
    if (top === 'characters' && part === 'sheet' && labels.length === 0) {
      decl = PROCEDURES[value?.kind]?.sheet; // a character's sheet is its kind's (as checkRecord reads it)
      inside = inside?.sheet;
      continue;
    }
    const f = through(decl)?.fields?.find((g) => g.name === part);
    labels.push(f ? f.label : `“${part}”`);
    decl = f;
    inside = inside?.[part];
  }
  if (!labels.length) return holder;
  const around = labels.slice(0, -1);
  return `${possessive(holder)} ${labels.at(-1)}${around.length ? ` (${around.join(', ')})` : ''}`;
}

/** A CheckError in a player's words: where it is (placeWords), then what it says of it. */
export function checkWords(error, file) {
  return error.path ? `${placeWords(error.path, file)} ${error.says}` : error.says;
}

/** The player's words for what `fn` refused (a CheckError), or null when it refused nothing. */
function refusedWords(fn, file) {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof CheckError) return checkWords(error, file);
    throw error;
  }
}

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
 * wrong, and where", …]}, each in a player's words (placeWords). A file of an older schema is migrated first, as a
 * stored table would be. */
export function parseTableFile(text) {
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    return { errors: ['This is not a table file: its text is not what Arbiter saves (damaged, or another kind).'] };
  }
  if (!isObj(file)) return { errors: ['This is not a table file: it holds no table.'] };
  if (file.app !== APP) return { errors: ['This is not a table exported by Arbiter.'] };
  if (!Number.isInteger(file.schema) || file.schema < 1) {
    return { errors: ['This table file does not say which version of Arbiter saved it.'] };
  }
  if (file.schema > SCHEMA) {
    return {
      errors: ['This file was saved by a newer version of Arbiter. Reload the page to update it, then import.'],
    };
  }
  const errors = [];
  const known = ['app', 'schema', 'exported', ...Object.keys(LISTS), 'scheme', 'price'];
  for (const k of Object.keys(file)) if (!known.includes(k)) errors.push(`The file holds “${k}”, unknown to Arbiter.`);
  for (const k of known) if (!(k in file)) errors.push(`The file has no ${PARTS[k]}.`);
  if (errors.length) return { errors };
  const wrong = (message) => {
    if (message && errors.length < MAX_ERRORS) errors.push(message);
  };
  const check = (decl, value, path) => refusedWords(() => checkOne(decl, value, path), file);
  wrong(check(declAt(RECORDS.meta, 'created'), file.exported, 'exported'));
  for (const name of Object.keys(LISTS)) {
    const max = FILE_MAX[name];
    if (!Array.isArray(file[name]) || file[name].length > max) {
      errors.push(`The file’s ${PARTS[name]} must be a list of at most ${max} entries.`);
      continue;
    }
    const seen = new Set();
    file[name].forEach((entry, i) => {
      const path = `${name}[${i}]`;
      if (!isObj(entry)) {
        wrong(`${ENTRY[name]} ${i + 1} is not ${name === 'log' ? 'a log entry' : `a ${ENTRY[name].toLowerCase()}`}.`);
        return;
      }
      wrong(check(ENTRY_ID, entry.id, `${path}.id`));
      if (seen.has(entry.id)) wrong(`${placeWords(path, file)} has the same id as an earlier one`);
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
    return {
      errors: [`This file, saved by an older version of Arbiter, could not be brought up to date: ${error.message}`],
    };
  }
  for (const { id, data } of current) {
    const name = recordOf(id);
    if (name) wrong(refusedWords(() => checkRecord(name, data, at.get(id) ?? id), file));
  }
  if (errors.length) return { errors };
  return { table: file.schema === SCHEMA ? file : fileOf(file, current) };
}
