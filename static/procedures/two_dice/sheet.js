// A Two dice sheet: malleable traits (one counts) and abilities.

import { toggle } from '../../store/data.js';
import { checkbox, h, select } from '../../dom.js';
import { signed } from '../../store/words.js';

export function use({ s, p, k, fill }) {
  const traits = [['', 'None (0)'], ...s.traits.map((t) => [t.id, `${t.name || 'Trait'} ${t.value}`])];
  const ability = (a) =>
    checkbox(k(`ability:${a.id}`), `${a.name || 'Ability'} ${signed(a.value)}`, p.abilities.has(a.id), (on) =>
      toggle(p.abilities, a.id, on),
    );
  return [
    select(k('trait'), 'Malleable trait', traits, p.trait, (v) => {
      p.trait = v;
    }),
    s.abilities.length
      ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Abilities that apply'), s.abilities.map(ability))
      : null,
    fill('two_dice', 'Fill the Two dice form'),
  ];
}
