// A d10 pool sheet: attributes and skills (the dots of those named for a roll are the pool), Resolve, Composure and
// Will, with the engine's Will ops: expend one, a night of rest, a Will roll.

import { toggle } from '../data.js';
import { checkbox, h } from '../dom.js';

export const picks = () => ({ stats: new Set() });

/** The form's request for the ticked statistics (an untrained skill among them makes it unskilled), or what to
 * choose first. */
export function request(s, p) {
  const chosen = [...s.attributes, ...s.skills].filter((x) => p.stats.has(x.id));
  if (!chosen.length) return 'Choose the statistics named for the roll.';
  const unskilled = s.skills.some((sk) => p.stats.has(sk.id) && !sk.trained);
  return { pool: chosen.reduce((sum, x) => sum + x.dots, 0), unskilled };
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
    fill('ten_again', 'Fill the d10 pool form', () => request(s, p)),
  ];
}

/** Will: its count against the engine's maximum, and the ops that change it. */
export function ops(t, id, c) {
  const s = c.sheet;
  const max = t.rules.willMaxNow(s);
  const op = (name, label, args) => t.rules.button(id, name, label, 'ten_again', name, args);
  return h('section', { class: 'ops', 'aria-label': 'Will' },
    h('p', { class: 'big', 'data-will': s.will }, `Will ${s.will}/${max ?? '…'}`,
      h('span', { class: 'muted' }, ' (maximum: resolve + composure)')),
    h('div', { class: 'row' },
      op('spend_will', 'Expend a Will', null),
      op('rest', 'Night of rest', { nights: 1 }),
      h('button', { type: 'button', 'data-op': 'will_roll', 'data-k': `ops:${id}:will_roll`,
        onclick: () => t.rules.willRoll(id) }, 'Will roll (pool = current Will)')),
    h('p', { class: 'muted' }, 'Ticking “will” on the d10 form, or expending a Will after the roll, '
      + 'takes it from this sheet when this character rolls.'));
}
