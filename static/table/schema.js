// What each stored field may hold: the declarations of the table's records (with labels for the page) and the
// field-by-field checks that hold every write, load and import to them. The storage contract, not the rules: the
// rules' own limits are arbiter.api's. Pure: no DOM, no storage.

export const LOG_MAX = 5000; // the oldest entries go beyond this many
export const MAX_ERRORS = 20;
export const KINDS = ['arbitration', 'two_dice', 'threat', 'ten_again', 'ability_test'];
export const SYSTEMS = ['arbitration', 'two_dice', 'threat', 'luck', 'ten_again', 'ability_test'];
export const THREAT_RATINGS = ['Charm', 'Command', 'Finesse', 'Muscle', 'Rig', 'Scout', 'Scramble', 'Shadow'];
export const THREAT_COUNTERS = ['renown', 'aether', 'insight', 'gear', 'harm'];
export const ABILITY_ATTRIBUTES = [
  'Mental', 'Physical', 'Social', 'Weird', 'Control', 'Endurance', 'Power', 'Presence',
];

// --- declarations: what each field may hold, with labels for the page ------------------------------------------
export const T = {
  int: (min, max, label = '') => ({ t: 'int', min, max, label }),
  text: (max, label = '') => ({ t: 'text', max, label }),
  bool: (label = '') => ({ t: 'bool', label }),
  oneOf: (values, label = '') => ({ t: 'oneOf', values, label }),
  list: (of, max, label = '', extra = {}) => ({ t: 'list', of, max, label, ...extra }),
  obj: (fields, label = '') => ({ t: 'obj', fields, label }),
  nullable: (of) => ({ t: 'nullable', of }),
  json: (maxChars) => ({ t: 'json', maxChars }),
  id: { t: 'id' },
  time: { t: 'time' },
};

const NAME = T.text(80, 'Name');
const named = (fields, max = 50, label = '') => T.list(T.obj({ id: T.id, name: NAME, ...fields }), max, label);
const intMap = (keys, min, max) => T.obj(Object.fromEntries(keys.map((k) => [k, T.int(min, max, k)])));
const title = (k) => k[0].toUpperCase() + k.slice(1);

/** The character sheet of each kind: what its procedure's text names. */
export const SHEETS = {
  arbitration: T.obj({
    skills: named({ value: T.int(0, 30, 'Value') }, 50, 'Skills'),
    traits: named({ modifier: T.int(-5, 5, 'Modifier') }, 50, 'Trait modifiers'),
  }),
  two_dice: T.obj({
    traits: named({ value: T.int(0, 10, 'Value') }, 50, 'Malleable traits'),
    abilities: named({ value: T.int(-10, 10, 'Value') }, 50, 'Abilities'),
  }),
  threat: T.obj({
    ratings: intMap(THREAT_RATINGS, 0, 10),
    counters: T.obj(Object.fromEntries(THREAT_COUNTERS.map((k) => [k, T.int(0, 999, title(k))]))),
  }),
  ten_again: T.obj({
    attributes: named({ dots: T.int(0, 10, 'Dots') }, 50, 'Attributes'),
    skills: named({ dots: T.int(0, 10, 'Dots'), trained: T.bool('Trained') }, 50, 'Skills'),
    resolve: T.int(1, 10, 'Resolve'),
    composure: T.int(1, 10, 'Composure'),
    will: T.int(0, 20, 'Will (current)'),
  }),
  ability_test: T.obj({
    attributes: intMap(ABILITY_ATTRIBUTES, 1, 5),
    skills: named({ level: T.int(0, 10, 'Level'), focused: T.bool('Focused'), masteries: T.int(0, 10, 'Masteries') },
      50, 'Skills'),
    items: named({ unique: T.bool('Unique'), level: T.int(0, 5, 'Level') }, 50, 'Items'),
    convictions: T.list(T.obj({ id: T.id, text: T.text(200, 'Conviction'), significance: T.int(1, 3, 'Significance') }),
      50, 'Convictions'),
    exertion: T.int(0, 99, 'Exertion'),
    xp: T.int(0, 99999, 'XP'),
    moved_this_session: T.bool('Significance moved this Session'),
  }),
};

/** A fresh sheet of `kind`: empty lists, the texts' average values. */
export function newSheet(kind) {
  switch (kind) {
    case 'arbitration': return { skills: [], traits: [] };
    case 'two_dice': return { traits: [], abilities: [] };
    case 'threat': return { ratings: Object.fromEntries(THREAT_RATINGS.map((k) => [k, 1])),
      counters: Object.fromEntries(THREAT_COUNTERS.map((k) => [k, 0])) };
    case 'ten_again': return { attributes: [], skills: [], resolve: 2, composure: 2, will: 4 };
    case 'ability_test': return { attributes: Object.fromEntries(ABILITY_ATTRIBUTES.map((k) => [k, 2])), skills: [],
      items: [], convictions: [], exertion: 0, xp: 0, moved_this_session: false };
    default: throw new Error(`unknown kind ${kind}`);
  }
}

const CHARACTER = { kind: T.oneOf(KINDS, 'Kind'), name: NAME, created: T.time /* sheet: by kind */ };
export const STRUGGLE = T.obj({
  name: NAME, character: T.nullable(T.id), created: T.time,
  target: T.int(1, 50, 'Successes needed'), accumulated: T.int(0, 10000), turns: T.int(0, 1000),
  status: T.oneOf(['ongoing', 'done', 'aborted']), contest: T.bool('An ongoing contest'),
  notes: T.list(T.text(300), 200),
});
export const SCHEME = T.obj({ scheme: T.int(0, 99, 'Dice in the Scheme') });
const PRICE = T.obj({
  current: T.id,
  situations: T.list(T.obj({ id: T.id, name: NAME, marked: T.list(T.int(0, 7), 8, '', { unique: true }) }), 100, '',
    { min: 1 }),
});
export const LOG = T.obj({
  time: T.time, character: T.nullable(T.obj({ id: T.id, name: NAME })), system: T.oneOf(SYSTEMS),
  kind: T.oneOf(['roll', 'follow-up', 'note']), request: T.nullable(T.json(4000)), action: T.nullable(T.json(1000)),
  dice: T.list(T.int(1, 10), 500), outcome: T.text(40), summary: T.text(1000), note: T.text(500),
});
const META = T.obj({ schema: T.int(1, 1e6), created: T.time });

// --- field-by-field checks ---------------------------------------------------------------------------------------
export const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value for an error message: JSON, cut at 40 characters. */
export function show(v) {
  let s;
  try { s = JSON.stringify(v); } catch { s = String(v); }
  s = s === undefined ? String(v) : s;
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Check `value` against declaration `s`; push one "path: what is wrong" per problem into `errors`. */
export function check(value, s, path, errors) {
  if (errors.length >= MAX_ERRORS) return errors;
  const bad = (what) => errors.push(`${path}: must be ${what}, got ${show(value)}`);
  switch (s.t) {
    case 'int':
      if (!Number.isInteger(value) || value < s.min || value > s.max) bad(`a whole number from ${s.min} to ${s.max}`);
      break;
    case 'text':
      if (typeof value !== 'string' || value.length > s.max) bad(`a text of at most ${s.max} characters`);
      break;
    case 'bool': if (typeof value !== 'boolean') bad('true or false'); break;
    case 'oneOf': if (!s.values.includes(value)) bad(`one of ${s.values.join(', ')}`); break;
    case 'id':
      if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
        bad('an id (1 to 64 letters, digits, - or _)');
      }
      break;
    case 'time':
      if (typeof value !== 'string' || !ISO.test(value) || Number.isNaN(Date.parse(value))) {
        bad('a time like 2024-05-01T12:00:00.000Z');
      }
      break;
    case 'nullable': if (value !== null) check(value, s.of, path, errors); break;
    case 'json': {
      let text;
      try { text = JSON.stringify(value); } catch { text = undefined; }
      if (text === undefined || text.length > s.maxChars) bad(`JSON of at most ${s.maxChars} characters`);
      break;
    }
    case 'list': {
      if (!Array.isArray(value) || value.length > s.max || value.length < (s.min ?? 0)) {
        bad(`a list of ${s.min ?? 0} to ${s.max} entries`);
        break;
      }
      value.forEach((v, i) => check(v, s.of, `${path}[${i}]`, errors));
      if (s.unique && new Set(value).size !== value.length) errors.push(`${path}: must not repeat an entry`);
      if (s.of.t === 'obj' && 'id' in s.of.fields) {
        const ids = value.map((v) => v?.id);
        if (new Set(ids).size !== ids.length) errors.push(`${path}: two entries have the same id`);
      }
      break;
    }
    case 'obj': {
      if (!isObj(value)) { bad('an object'); break; }
      for (const k of Object.keys(value)) if (!(k in s.fields)) errors.push(`${path}.${k}: is not a known field`);
      for (const [k, sub] of Object.entries(s.fields)) {
        if (!(k in value)) errors.push(`${path}.${k}: is missing`);
        else check(value[k], sub, `${path}.${k}`, errors);
      }
      break;
    }
    default: throw new Error(`unknown declaration ${s.t}`);
  }
  return errors;
}

/** A character: its kind, name and creation time, and the sheet its kind declares. */
export function checkCharacter(value, path, errors) {
  if (!isObj(value)) return errors.push(`${path}: must be an object, got ${show(value)}`);
  const { sheet, ...rest } = value;
  check(rest, T.obj(CHARACTER), path, errors);
  if (!('sheet' in value)) errors.push(`${path}.sheet: is missing`);
  else if (KINDS.includes(value.kind)) check(sheet, SHEETS[value.kind], `${path}.sheet`, errors);
  return errors;
}

/** The Situations and their Pay the Price marks; the current one must be one of them. */
export function checkPrice(value, path, errors) {
  check(value, PRICE, path, errors);
  if (!errors.length && !value.situations.some((s) => s.id === value.current)) {
    errors.push(`${path}.current: must be the id of one of the situations, got ${show(value.current)}`);
  }
  return errors;
}

/** The declaration a record's data must meet, by its id. */
export function dataErrors(id, data, path = 'data') {
  const errors = [];
  if (id === 'meta') check(data, META, path, errors);
  else if (id === 'shared:scheme') check(data, SCHEME, path, errors);
  else if (id === 'shared:price') checkPrice(data, path, errors);
  else if (id.startsWith('char:')) checkCharacter(data, path, errors);
  else if (id.startsWith('struggle:')) check(data, STRUGGLE, path, errors);
  else if (id.startsWith('log:')) check(data, LOG, path, errors);
  else errors.push(`${path}: no record is called ${show(id)}`);
  return errors;
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
  const idOk = rec.id === 'meta' || rec.id === 'shared:scheme' || rec.id === 'shared:price'
    || /^(char|struggle|log):[A-Za-z0-9_-]{1,64}$/.test(rec.id);
  if (!idOk) errors.push(`${show(rec.id)}: is not a record this version keeps`);
  else errors.push(...dataErrors(rec.id, rec.data, `${where}.data`));
  return errors;
}
