// Words the table shows: the procedures' short names, counts, signs, times, and a request for people. Pure.

/** The short name the page gives each procedure (its full title is systems()' "title"). Words only. */
export const SYSTEM_NAME = {
  arbitration: 'Arbitration', two_dice: 'Two dice', threat: 'Threat Roll', luck: 'Luck Roll', ten_again: 'd10 pool',
  ability_test: 'Ability Test',
};

export const plural = (n, one, more = `${one}s`) => `${n} ${n === 1 ? one : more}`;
export const signed = (n) => (n > 0 ? `+${n}` : `${n}`);

export function fmtTime(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' });
}

/** A request for people: "pool 3, will, required 1"; what is off, empty or null is left out. */
export function requestText(value) {
  const nested = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? `{${requestText(v)}}` : requestText(v));
  if (Array.isArray(value)) return `[${value.map(nested).join(', ')}]`;
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .filter(([, v]) => v !== false && v !== null && v !== '' && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => (v === true ? k : `${k} ${nested(v)}`))
      .join(', ');
  }
  return String(value);
}
