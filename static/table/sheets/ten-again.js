// A d10 pool sheet: attributes and skills (the dots of those named for a roll are the pool), Resolve, Composure and
// Will, with the engine's Will ops: expend one, a night of rest, a Will roll; and Will kept within the engine's
// maximum as the sheet is edited or imported.

import { toggle } from '../data.js';
import { checkbox, h } from '../dom.js';
import { plural } from '../words.js';

const SYSTEM = 'ten_again';
const maxes = new Map(); // "resolve,composure" -> the engine's maximum Will
const asked = new Map(); // "resolve,composure" -> the pending question
const keyOf = (sheet) => `${sheet.resolve},${sheet.composure}`;

/** The engine's maximum Will for this Resolve and Composure (asked once per pair). */
async function willMax(arbiter, sheet) {
  const key = keyOf(sheet);
  if (!maxes.has(key)) {
    if (!asked.has(key)) {
      const question = arbiter.table(SYSTEM, 'will_max', { resolve: sheet.resolve, composure: sheet.composure })
        .then(({ max }) => { maxes.set(key, max); });
      question.catch(() => asked.delete(key));
      asked.set(key, question);
    }
    await asked.get(key);
  }
  return maxes.get(key);
}

/** The maximum Will if known; else undefined, and the sheets are drawn again once the engine has said it. */
function willMaxNow(t, sheet) {
  const key = keyOf(sheet);
  if (!maxes.has(key) && !asked.has(key)) willMax(t.arbiter, sheet).then(() => t.render('characters'), () => {});
  return maxes.get(key);
}

/** Before an edit of the sheet is saved: Will stays from 0 to the engine's maximum. A lower maximum lowers it;
 * typing more is refused. */
export async function beforeSave(t, sheet, changed) {
  if (!['will', 'resolve', 'composure'].includes(changed)) return;
  const max = await willMax(t.arbiter, sheet);
  if (sheet.will <= max) return;
  if (changed === 'will') {
    throw new Error(`Will (current) must be from 0 to ${max}, the maximum (resolve + composure); not saved`);
  }
  sheet.will = max;
}

/** Extra attributes of the sheet's number input at `path`: Will's maximum, once the engine has said it. */
export function inputAttrs(t, sheet, path) {
  const max = path[1] === 'will' ? maxes.get(keyOf(sheet)) : undefined;
  return max === undefined ? {} : { max };
}

/** A sheet from a file: refused (a message) when its Will is above the engine's maximum; null when it may stay. */
export async function checkImported(arbiter, sheet) {
  try {
    await arbiter.table(SYSTEM, 'rest', sheet, { nights: 1 });
    return null;
  } catch (error) {
    return error.message;
  }
}

export function use({ s, p, k, fill }) {
  const stat = (x, isSkill) => checkbox(k(`stat:${x.id}`),
    `${x.name || (isSkill ? 'Skill' : 'Attribute')} ${x.dots}${isSkill && !x.trained ? ' (untrained)' : ''}`,
    p.stats.has(x.id), (on) => toggle(p.stats, x.id, on));
  return [
    h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Statistics named for the roll (their dots are the pool)'),
      [...s.attributes.map((a) => stat(a, false)), ...s.skills.map((sk) => stat(sk, true))],
      s.attributes.length + s.skills.length ? null
        : h('p', { class: 'muted' }, 'Add attributes and skills to the sheet below.')),
    fill(SYSTEM, 'Fill the d10 pool form'),
  ];
}

async function willRoll(t, id) {
  const c = t.characters.get(id);
  try {
    const request = await t.arbiter.table(SYSTEM, 'will_roll', c.sheet, null);
    t.rollAs.fillFor(id, SYSTEM, request);
    t.setStatus(id, `Will roll: ${plural(request.pool, 'die', 'dice')}, the Will left. Roll it on the d10 form.`);
  } catch (error) {
    t.setStatus(id, error.message, true);
  }
}

/** Will: its count against the engine's maximum, and the ops that change it. */
export function ops(t, id, c) {
  const s = c.sheet;
  const max = willMaxNow(t, s);
  const op = (name, label, args) => t.rules.button(id, name, label, SYSTEM, name, args);
  return h('section', { class: 'ops', 'aria-label': 'Will' },
    h('p', { class: 'big', 'data-will': s.will }, `Will ${s.will}/${max ?? '…'}`,
      h('span', { class: 'muted' }, ' (maximum: resolve + composure)')),
    h('div', { class: 'row' },
      op('spend_will', 'Expend a Will', null),
      op('rest', 'Night of rest', { nights: 1 }),
      h('button', { type: 'button', 'data-op': 'will_roll', 'data-k': `ops:${id}:will_roll`,
        onclick: () => willRoll(t, id) }, 'Will roll (pool = current Will)')),
    h('p', { class: 'muted' }, 'Ticking “will” on the d10 form, or expending a Will after the roll, '
      + 'takes it from this sheet when this character rolls.'));
}
