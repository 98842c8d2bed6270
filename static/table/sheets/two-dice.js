// A Two dice sheet: malleable traits (one counts) and abilities.

import { toggle } from '../data.js';
import { checkbox, h, select } from '../dom.js';
import { signed } from '../words.js';

export const picks = () => ({ trait: '', abilities: new Set() });

/** The form's request for the chosen trait and ticked abilities, or what to choose first. */
export function request(s, p, limit) {
  const max = limit('abilities');
  const abilities = s.abilities.filter((a) => p.abilities.has(a.id)).map((a) => a.value);
  if (abilities.length > max) return `Choose at most ${max} abilities (the form holds ${max}).`;
  return { trait: s.traits.find((t) => t.id === p.trait)?.value ?? 0, abilities };
}

export function use({ s, p, k, fill, limit }) {
  const traits = [['', 'None (0)'], ...s.traits.map((t) => [t.id, `${t.name || 'Trait'} ${t.value}`])];
  const ability = (a) => checkbox(k(`ability:${a.id}`), `${a.name || 'Ability'} ${signed(a.value)}`,
    p.abilities.has(a.id), (on) => toggle(p.abilities, a.id, on));
  return [
    select(k('trait'), 'Malleable trait', traits, p.trait, (v) => { p.trait = v; }),
    s.abilities.length ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Abilities that apply'),
      s.abilities.map(ability)) : null,
    fill('two_dice', 'Fill the Two dice form', () => request(s, p, limit)),
  ];
}
