// An Arbitration sheet: skills (the lowest relevant one counts) and trait modifiers.

import { toggle } from '../../store/data.js';
import { checkbox, h } from '../../dom.js';
import { signed } from '../../store/words.js';

export function use({ s, p, k, fill }) {
  const skill = (sk) =>
    checkbox(k(`skill:${sk.id}`), `${sk.name || 'Skill'} ${sk.value}`, p.skills.has(sk.id), (on) =>
      toggle(p.skills, sk.id, on),
    );
  const trait = (t) =>
    checkbox(k(`trait:${t.id}`), `${t.name || 'Trait'} ${signed(t.modifier)}`, p.traits.has(t.id), (on) =>
      toggle(p.traits, t.id, on),
    );
  return [
    h(
      'fieldset',
      { class: 'sheet-group' },
      h('legend', {}, 'Relevant skills (the lowest counts)'),
      s.skills.length ? s.skills.map(skill) : h('p', { class: 'muted' }, 'Add skills to the sheet below.'),
    ),
    s.traits.length
      ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Trait modifiers that apply'), s.traits.map(trait))
      : null,
    fill('arbitration', 'Fill the Arbitration form'),
  ];
}
