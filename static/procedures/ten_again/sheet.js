// A d10 pool sheet: attributes and skills (the dots of those named for a roll are the pool), Resolve, Composure and
// Will, with the engine's Will ops: expend one, a night of rest, a Will roll. Will's maximum is the sheet's declared
// limit (systems()' sheet: at most resolve + composure), checked with every other field by schema.js.

import { toggle } from '../../store/data.js';
import { checkbox, h } from '../../dom.js';
import { mostOf, sheetOf } from '../../store/schema.js';
import { plural } from '../../store/words.js';

const SYSTEM = 'ten_again';

export function use({ s, p, k, fill }) {
  const stat = (x, isSkill) =>
    checkbox(
      k(`stat:${x.id}`),
      `${x.name || (isSkill ? 'Skill' : 'Attribute')} ${x.dots}${isSkill && !x.trained ? ' (untrained)' : ''}`,
      p.stats.has(x.id),
      (on) => toggle(p.stats, x.id, on),
    );
  return [
    h(
      'fieldset',
      { class: 'sheet-group' },
      h('legend', {}, 'Statistics named for the roll (their dots are the pool)'),
      [...s.attributes.map((a) => stat(a, false)), ...s.skills.map((sk) => stat(sk, true))],
      s.attributes.length + s.skills.length
        ? null
        : h('p', { class: 'muted' }, 'Add attributes and skills to the sheet below.'),
    ),
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

/** Will: its count against its maximum (the sheet's limit, in its words), and the ops that change it. */
export function ops(t, id, c) {
  const s = c.sheet;
  const decl = sheetOf(c.kind);
  const of = decl.limits.find((limit) => limit.name === 'will')?.of ?? [];
  const op = (name, label, args) => t.rules.button(id, name, label, SYSTEM, name, args);
  return h(
    'section',
    { class: 'ops', 'aria-label': 'Will' },
    h(
      'p',
      { class: 'big', 'data-will': s.will },
      `Will ${s.will}/${mostOf(decl, s, 'will')}`,
      h('span', { class: 'muted' }, ` (maximum: ${of.join(' + ')})`),
    ),
    h(
      'div',
      { class: 'row' },
      op('spend_will', 'Expend a Will', null),
      op('rest', 'Night of rest', { nights: 1 }),
      h(
        'button',
        { type: 'button', 'data-op': 'will_roll', 'data-k': `ops:${id}:will_roll`, onclick: () => willRoll(t, id) },
        'Will roll (pool = current Will)',
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      'Ticking “will” on the d10 form, or expending a Will after the roll, ' +
        'takes it from this sheet when this character rolls.',
    ),
  );
}
