// Words the table shows: the procedures' short names, counts, signs, times, and a request for people. Pure.

import { PROCEDURES } from './schema.js';

/** The short name the page gives each procedure: systems()' "label", its tab's name (its full title is "title"). */
export const SYSTEM_NAME = Object.fromEntries(Object.entries(PROCEDURES).map(([id, p]) => [id, p.label]));

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
