// An Arbitration sheet: skills (the lowest relevant one counts) and trait modifiers.

import { toggle } from '../data.js';
import { checkbox, h } from '../dom.js';
import { signed } from '../words.js';

export const picks = () => ({ skills: new Set(), traits: new Set() });

/** The form's request for the ticked skills and trait modifiers, or what to choose first; `limit(field)` is the
 * most entries the form's list field holds. */
export function request(s, p, limit) {
  const max = limit('skills');
  const maxMods = limit('modifiers');
  const skills = s.skills.filter((sk) => p.skills.has(sk.id)).map((sk) => sk.value);
  const modifiers = s.traits.filter((t) => p.traits.has(t.id)).map((t) => t.modifier);
  if (!skills.length) return 'Choose at least one relevant skill.';
  if (skills.length > max) return `Choose at most ${max} skills (the form holds ${max}).`;
  if (modifiers.length > maxMods) return `Choose at most ${maxMods} trait modifiers (the form holds ${maxMods}).`;
  return { skills, modifiers };
}

export function use({ s, p, k, fill, limit }) {
  const skill = (sk) => checkbox(k(`skill:${sk.id}`), `${sk.name || 'Skill'} ${sk.value}`, p.skills.has(sk.id),
    (on) => toggle(p.skills, sk.id, on));
  const trait = (t) => checkbox(k(`trait:${t.id}`), `${t.name || 'Trait'} ${signed(t.modifier)}`, p.traits.has(t.id),
    (on) => toggle(p.traits, t.id, on));
  return [
    h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Relevant skills (the lowest counts)'),
      s.skills.length ? s.skills.map(skill) : h('p', { class: 'muted' }, 'Add skills to the sheet below.')),
    s.traits.length ? h('fieldset', { class: 'sheet-group' }, h('legend', {}, 'Trait modifiers that apply'),
      s.traits.map(trait)) : null,
    fill('arbitration', 'Fill the Arbitration form', () => request(s, p, limit)),
  ];
}
