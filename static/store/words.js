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

/** A day, as this device writes dates ("27 Nov 2026"). */
export function fmtDate(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString([], { dateStyle: 'medium' });
}

/** A request in the words of its form (`fields`: systems()' declarations of it): each field's label and value,
 * "Type I Attribute 3; Difficulty (dice) 2; Use a Scheme die"; a field off, empty, or at a default of nothing (0)
 * is left out, and so is a key no field declares. */
export function requestWords(request, fields) {
  if (!request || typeof request !== 'object' || Array.isArray(request)) return '';
  const parts = [];
  for (const f of fields) {
    const v = request[f.name];
    const nothing = v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && !v.length);
    if (nothing || (v === 0 && f.default === 0)) continue;
    parts.push(fieldWords(f, v));
  }
  return parts.join('; ');
}

function fieldWords(f, v) {
  switch (f.type) {
    case 'bool':
      return f.label;
    case 'choice':
      return `${f.label} ${f.options.find((o) => o.value === v)?.label ?? v}`;
    case 'int_list':
      return `${f.label} ${Array.isArray(v) ? v.join(', ') : v}`;
    case 'group':
      return `${f.label} (${requestWords(v, f.fields)})`;
    case 'records':
      return `${f.label}: ${Array.isArray(v) ? v.map((r) => `(${requestWords(r, f.fields)})`).join(', ') : ''}`;
    default:
      return `${f.label} ${v}`;
  }
}

/** A follow-up an entry kept without its words: the label its procedure declares for the action named (systems()'
 * "actions"). */
export function actionWords(action, actions) {
  const named = actions.find((a) => action && typeof action === 'object' && Object.hasOwn(action, a.name));
  return named?.label ?? 'A follow-up';
}
