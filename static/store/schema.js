// What the table may store, as arbiter.api publishes it: each procedure's character sheet (systems()) and the table's
// records (table_spec()), generated into the page at build time. This module only reads those declarations: a small
// checker of their types (record, list, id, time, json, nullable, int, text, bool, choice, object) and of a record's
// limits across its fields (at_most_sum) that refuses exactly as api.check_sheet and api.check_record do, with the
// same message for the same data (the first problem, naming its path). No field, limit or default is written here.
// Pure: no DOM but the two JSON elements, no storage.
//
// Under Node, the tests set globalThis.arbiterPublished = {systems, table} from CPython first (tests/js/published.mjs).

import { length, repr, repr100 } from './repr.js';

const fromPage = (id) => JSON.parse(globalThis.document.getElementById(id).textContent);
const PUBLISHED = globalThis.arbiterPublished ?? {
  systems: fromPage('arbiter-systems'),
  table: fromPage('arbiter-table'),
};

/** id -> systems() entry; table_spec(). */
export const PROCEDURES = PUBLISHED.systems;
export const TABLE = PUBLISHED.table;
export const RECORDS = TABLE.records;
export const KINDS = TABLE.kinds;
export const SYSTEMS = Object.keys(PROCEDURES);
export const LOG_MAX = TABLE.log_max;
export const FILE_MAX = TABLE.file_max;
export const BACKUP_AFTER = TABLE.backup_after; // {rolls, days}: when the Table asks for a backup

/** The sheet declaration of the character that rolls `system` (a kind's own; Luck's is the threat sheet). */
export const sheetOf = (system) => PROCEDURES[PROCEDURES[system].kind].sheet;

/** A fresh sheet of `kind`: its declaration's default. */
export const newSheet = (kind) => structuredClone(sheetOf(kind).default);

/** The declaration `names` leads to from `decl`, through records' fields and what lists and nullables hold. */
export function declAt(decl, ...names) {
  let d = decl;
  for (const name of names) {
    while (d.type === 'list' || d.type === 'nullable') d = d.of;
    d = d.fields.find((f) => f.name === name);
  }
  return d;
}

// --- the checker ---------------------------------------------------------------------------------------------------
/** A refusal, worded as arbiter.api's RulesError; for a player's words, also the `path` of the field it is about
 * and what it `says` of that field without naming it (by labels and what the declarations allow, no field name). */
export class CheckError extends Error {
  name = 'CheckError';
}

export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const fail = (message, path = null, says = message) => {
  throw Object.assign(new CheckError(message), { path, says });
};
/** What a declaration allows, in a player's words: describe() with labels for a choice's options and a record's
 * fields. */
export function allows(decl) {
  switch (decl.type) {
    case 'bool':
      return 'yes or no (true or false)';
    case 'choice':
      return `one of ${decl.options.map((o) => o.label).join(', ')}`;
    case 'json':
      return `at most ${decl.max_chars} characters of data`;
    case 'nullable':
      return `empty or ${allows(decl.of)}`;
    case 'record':
      return `a record of ${decl.fields.map((f) => f.label).join(', ')}`;
    case 'object':
      return decl.label;
    default:
      return describe(decl);
  }
}
/** " got …" of a bad value that is a number, a truth or a short text; nothing for the rest (no JSON in words). */
const got = (value) =>
  ['number', 'boolean'].includes(typeof value) || (typeof value === 'string' && length(value) <= 40)
    ? `, got ${repr(value)}`
    : '';
const where = (path) => `'${path}'`;
const join = (path, key) => (path === 'request' ? key : `${path}.${key}`);
const names = (decl) => decl.fields.map((f) => f.name).join(', ');

/** What a declaration allows, in words (fields.describe, for a missing field). */
export function describe(decl) {
  switch (decl.type) {
    case 'int':
      return `a whole number from ${decl.min} to ${decl.max}`;
    case 'bool':
      return 'true or false';
    case 'choice':
      return `one of ${decl.options.map((o) => o.value).join(', ')}`;
    case 'text':
      return `text of at most ${decl.max_len} characters`;
    case 'id':
    case 'time':
      return decl.words;
    case 'json':
      return `JSON of at most ${decl.max_chars} characters`;
    case 'nullable':
      return `null or ${describe(decl.of)}`;
    case 'record':
      return `an object with ${names(decl)}`;
    case 'list':
      return `a list of ${decl.min_len} to ${decl.max_len} entries`;
    case 'object':
      return 'an object';
    default:
      throw new Error(`unknown declaration type ${decl.type}`);
  }
}

// a time as Date.toISOString writes it, with the ranges Date.parse accepts (stored.Time)
const TIME = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?Z$/;
function isTime(value) {
  const m = typeof value === 'string' ? TIME.exec(value) : null;
  if (!m) return false;
  const [month, day, hour, minute, second] = m.slice(2, 7).map(Number);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && !/[1-9]/.test(m[7] ?? '');
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && minute < 60 && second < 60 && (hour < 24 || endOfDay);
}

/** Python's == between parsed values: objects whatever their key order. */
function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (isObj(a) || isObj(b)) {
    if (!isObj(a) || !isObj(b) || Object.keys(a).length !== Object.keys(b).length) return false;
    return Object.keys(a).every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

function checkList(decl, value, path) {
  if (!Array.isArray(value) || value.length < decl.min_len || value.length > decl.max_len) {
    fail(
      `${where(path)} must be a list of ${decl.min_len} to ${decl.max_len} entries, got ${repr100(value)}`,
      path,
      `must be a list of ${decl.min_len} to ${decl.max_len} entries`,
    );
  }
  const out = value.map((v, i) => check(decl.of, v, `${path}[${i}]`));
  const key = decl.key ?? 'id';
  out.forEach((v, i) => {
    const before = out.slice(0, i);
    if (decl.unique && before.some((w) => same(w, v))) {
      fail(
        `${where(`${path}[${i}]`)} repeats an earlier entry: ${repr100(v, true)}`,
        `${path}[${i}]`,
        'repeats an earlier one',
      );
    }
    if (isObj(v) && Object.hasOwn(v, key) && before.some((w) => same(w[key] ?? null, v[key]))) {
      fail(
        `${where(`${path}[${i}].${key}`)} is the ${key} of an earlier entry too: ${repr(v[key])}`,
        `${path}[${i}]`,
        `has the same ${(decl.of.fields?.find((f) => f.name === key)?.label ?? key).toLowerCase()} as an earlier one`,
      );
    }
  });
  return out;
}

function checkRecordOf(decl, value, path) {
  if (!isObj(value)) {
    fail(
      `${where(path)} must be an object with ${names(decl)}, got ${repr100(value)}`,
      path,
      `must be ${allows(decl)}`,
    );
  }
  const known = decl.fields.map((f) => f.name);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      fail(
        `unknown field ${where(join(path, key))}; allowed: ${known.join(', ')}`,
        join(path, key),
        'is not kept by Arbiter',
      );
    }
  }
  for (const f of decl.fields) {
    if (!Object.hasOwn(value, f.name) && !f.may_be_absent) {
      fail(
        `${where(join(path, f.name))} is missing: ${f.label}, ${describe(f)}`,
        join(path, f.name),
        `is missing (${allows(f)})`,
      );
    }
  }
  const out = {};
  for (const f of decl.fields) {
    if (Object.hasOwn(value, f.name)) out[f.name] = check(f, value[f.name], join(path, f.name));
  }
  for (const limit of decl.limits ?? []) {
    if (limit.type !== 'at_most_sum') throw new Error(`unknown limit type ${limit.type}`);
    const most = mostOf(decl, out, limit.name);
    if (out[limit.name] > most) {
      const { min } = decl.fields.find((f) => f.name === limit.name);
      const label = (name) => decl.fields.find((f) => f.name === name)?.label ?? name;
      fail(
        `${where(join(path, limit.name))} must be from ${min} to ${most} (${limit.of.join(' + ')}), ` +
          `got ${out[limit.name]}`,
        join(path, limit.name),
        `must be from ${min} to ${most} (${limit.of.map(label).join(' + ')}), got ${out[limit.name]}`,
      );
    }
  }
  return out;
}

/** The most the whole number `name` of the record `decl` may hold in `value`: its declared max, or lower where one
 * of the record's limits says so (stored.AtMostSum: a d10 pool's Will, at most resolve + composure). */
export function mostOf(decl, value, name) {
  const { max } = decl.fields.find((f) => f.name === name);
  const sums = (decl.limits ?? [])
    .filter((limit) => limit.type === 'at_most_sum' && limit.name === name)
    .map((limit) => limit.of.reduce((sum, n) => sum + value[n], 0));
  return Math.min(max, ...sums);
}

/** `value` checked by the declaration `decl` at `path`, back in JSON form; else a CheckError naming the field, in
 * arbiter.api's words. */
export function check(decl, value, path) {
  const bad = (words, shown = repr100(value)) =>
    fail(`${where(path)} must be ${words}, got ${shown}`, path, `must be ${allows(decl)}${got(value)}`);
  switch (decl.type) {
    case 'int':
      if (!Number.isInteger(value)) bad(`a whole number from ${decl.min} to ${decl.max}`, repr(value));
      if (value < decl.min || value > decl.max) {
        fail(
          `${where(path)} must be from ${decl.min} to ${decl.max}, got ${value}`,
          path,
          `must be from ${decl.min} to ${decl.max}, got ${value}`,
        );
      }
      return value;
    case 'text':
      if (typeof value !== 'string' || length(value) > decl.max_len) bad(describe(decl));
      return value;
    case 'bool':
      if (typeof value !== 'boolean') bad(describe(decl), repr(value));
      return value;
    case 'choice':
      if (typeof value !== 'string' || !decl.options.some((o) => o.value === value)) bad(describe(decl), repr(value));
      return value;
    case 'id':
      if (typeof value !== 'string' || !(new RegExp(decl.pattern).test(value) || (decl.optional && value === ''))) {
        bad(decl.words);
      }
      return value;
    case 'time':
      if (!isTime(value)) bad(decl.words);
      return value;
    case 'json': {
      let text;
      try {
        text = JSON.stringify(value);
      } catch {
        text = undefined;
      }
      if (text === undefined || length(text) > decl.max_chars) bad(describe(decl));
      return value;
    }
    case 'nullable':
      return value === null ? null : check(decl.of, value, path);
    case 'object':
      if (!isObj(value))
        fail(
          `${where(path)} must be an object (${decl.label}), got ${repr100(value)}`,
          path,
          `must be ${allows(decl)}`,
        );
      return value;
    case 'record':
      return checkRecordOf(decl, value, path);
    case 'list':
      return checkList(decl, value, path);
    default:
      throw new Error(`unknown declaration type ${decl.type}`);
  }
}

/** The message of the CheckError `fn` throws, or null when it throws none. */
export function refusal(fn) {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof CheckError) return error.message;
    throw error;
  }
}

/** check()'s message, or null when `value` is what `decl` allows. */
export const problem = (decl, value, path) => refusal(() => check(decl, value, path));

// --- the two doors: api.check_sheet and api.check_record -----------------------------------------------------------
/** api.check_sheet(system, sheet): the sheet of the character that rolls `system`, checked field by field. */
export function checkSheet(system, sheet, path = 'sheet') {
  if (typeof system !== 'string' || !Object.hasOwn(PROCEDURES, system)) {
    fail(`'system' must be one of ${SYSTEMS.join(', ')}, got ${repr(system)}`);
  }
  return check(sheetOf(system), sheet, path);
}

/** api.check_record(name, data): one of the table's records checked field by field, then check_record's two rules
 * across fields: a character's sheet is its kind's, and the current Situation is one of the Situations. `path` is
 * the record's name unless told (an imported file's entry names its place). */
export function checkRecord(name, data, path = name) {
  if (typeof name !== 'string' || !Object.hasOwn(RECORDS, name)) {
    fail(`'name' must be one of ${Object.keys(RECORDS).join(', ')}, got ${repr100(name)}`);
  }
  const out = check(RECORDS[name], data, path);
  if (name === 'character') out.sheet = checkSheet(out.kind, out.sheet, `${path}.sheet`);
  if (name === 'price' && !out.situations.some((s) => s.id === out.current)) {
    fail(
      `${where(`${path}.current`)} must be the id of one of the situations, got ${repr(out.current)}`,
      `${path}.current`,
      'must be one of the Situations',
    );
  }
  return out;
}
