// An Ability Test sheet: attributes of Type I and Type II, skills with Masteries, items and Convictions, with the
// engine's ops on Exertion, XP and Significance.

import { toInt, toggle } from '../data.js';
import { checkbox, h, intInput, select } from '../dom.js';
import { ABILITY_ATTRIBUTES } from '../schema.js';
import { plural } from '../words.js';

const TYPE1 = ABILITY_ATTRIBUTES.slice(0, 4);
const TYPE2 = ABILITY_ATTRIBUTES.slice(4);

export const picks = () => ({
  type1: TYPE1[0], type2: TYPE2[0], skill: '', masteries: true, item: '', convictions: new Set(),
});

/** The form's request for the chosen attributes, skill, item and Convictions, or what to choose first. */
export function request(s, p, limit) {
  const maxConv = limit('convictions');
  const skill = s.skills.find((sk) => sk.id === p.skill);
  const convictions = s.convictions.filter((cv) => p.convictions.has(cv.id)).map((cv) => cv.significance);
  if (convictions.length > maxConv) return `Activate at most ${maxConv} Convictions (the form holds ${maxConv}).`;
  return { type1: s.attributes[p.type1], type2: s.attributes[p.type2], skill: skill?.level ?? 0,
    masteries: p.masteries ? skill?.masteries ?? 0 : 0, item: s.items.find((it) => it.id === p.item)?.level ?? 0,
    convictions };
}

export function use({ s, p, k, fill, limit }) {
  const attributes = (names) => names.map((a) => [a, `${a} ${s.attributes[a]}`]);
  const masteries = (sk) => (sk.masteries ? `, ${plural(sk.masteries, 'Mastery', 'Masteries')}` : '');
  const skills = [['', 'None'], ...s.skills.map((sk) => [sk.id, `${sk.name || 'Skill'} ${sk.level}${masteries(sk)}`])];
  const items = [['', 'None'], ...s.items.map((it) => [it.id, `${it.name || 'Item'} ${it.level}`])];
  const conviction = (cv) => checkbox(k(`conv:${cv.id}`),
    `${cv.text || 'Conviction'} (Significance ${cv.significance})`,
    p.convictions.has(cv.id), (on) => toggle(p.convictions, cv.id, on));
  return [
    h('div', { class: 'grid' },
      select(k('type1'), 'Type I attribute', attributes(TYPE1), p.type1, (v) => { p.type1 = v; }),
      select(k('type2'), 'Type II attribute', attributes(TYPE2), p.type2, (v) => { p.type2 = v; }),
      select(k('skill'), 'Skill', skills, p.skill, (v) => { p.skill = v; }),
      select(k('item'), 'Item', items, p.item, (v) => { p.item = v; })),
    checkbox(k('masteries'), 'The Skill’s Masteries are relevant', p.masteries, (on) => { p.masteries = on; }),
    s.convictions.length ? h('fieldset', { class: 'sheet-group' },
      h('legend', {}, 'Convictions to activate (1 Exertion each, taken when you roll)'),
      s.convictions.map(conviction)) : null,
    fill('ability_test', 'Fill the Ability Test form', () => request(s, p, limit)),
  ];
}

/** What XP can buy on sheet `s`, with the price arbiter.api publishes (`xpCosts`: the spec's xp_costs):
 * [value, text] options for "Spend XP on". */
export function xpOptions(xpCosts, s) {
  const costs = Object.fromEntries(xpCosts.map((x) => [x.kind, x]));
  const price = (kind, current) => {
    const x = costs[kind];
    const cost = x?.costs.find((e) => e.current === current)?.cost;
    return cost === undefined ? (x ? 'at its limit' : 'no price in the text') : `${cost} XP`;
  };
  const skill = (sk) => (sk.focused ? 'Focused: no price in the text' : price('advance_skill', sk.level));
  const item = (it) => (it.unique ? 'Unique: no price in the text' : price('advance_standard_item', it.level));
  return [
    ['new_skill', `A new Skill with 1 rank (${price('new_skill', 0)})`],
    ['new_item', `A new Item with 1 rank (${price('new_item', 0)})`],
    ...s.skills.map((sk) => [`skill:${sk.id}`,
      `Skill ${sk.name || '(unnamed)'} ${sk.level} → ${sk.level + 1} (${skill(sk)})`]),
    ...s.items.map((it) => [`item:${it.id}`,
      `Item ${it.name || '(unnamed)'} ${it.level} → ${it.level + 1} (${item(it)})`]),
    ...ABILITY_ATTRIBUTES.map((a) => [`attr:${a}`,
      `Attribute ${a} ${s.attributes[a]} → ${s.attributes[a] + 1} (${price('advance_attribute', s.attributes[a])})`]),
  ];
}

/** Exertion, XP and Convictions: the counts, and the ops that change them. */
export function ops(t, id, c) {
  const s = c.sheet;
  const k = (name) => `ops:${id}:${name}`;
  const op = (name, label, args) => t.rules.button(id, name, label, 'ability_test', name, args);
  const amount = intInput({ min: 1, max: Math.max(1, s.exertion), value: 1, 'data-k': k('amount') });
  const what = h('select', { 'data-k': k('xp-what') }, xpOptions(t.spec.ability_test.extras.xp_costs, s)
    .map(([v, text]) => h('option', { value: v, selected: v === t.ui.xpWhat?.[id] }, text)));
  const newName = h('input', { type: 'text', maxlength: 80, autocomplete: 'off', 'data-k': k('xp-name') });
  const unique = h('input', { type: 'checkbox', 'data-k': k('xp-unique') });
  const newBox = h('label', { class: 'tf' }, h('span', {}, 'Name of the new Skill or Item'), newName);
  const uniqueBox = h('label', { class: 'tf check' }, unique, h('span', {}, 'Unique item'));
  const showNew = () => {
    newBox.hidden = !what.value.startsWith('new_');
    uniqueBox.hidden = what.value !== 'new_item';
  };
  what.addEventListener('change', () => { (t.ui.xpWhat ??= {})[id] = what.value; showNew(); });
  showNew();
  const convs = s.convictions.map((cv, i) => [String(i), `${i + 1}. ${cv.text || 'Conviction'} (${cv.significance})`]);
  const from = h('select', { 'data-k': k('from') }, convs.map(([v, text]) => h('option', { value: v }, text)));
  const to = h('select', { 'data-k': k('to') },
    convs.map(([v, text], i) => h('option', { value: v, selected: i === 1 }, text)));
  const button = (name, key, label, onclick) => h('button',
    { type: 'button', 'data-op': name, 'data-k': k(key), onclick }, label);
  const exert = () => t.rules.charOp(id, 'ability_test', 'exert', { amount: toInt(amount.value) });
  const move = () => t.rules.charOp(id, 'ability_test', 'move_significance',
    { from: Number(from.value), to: Number(to.value) });
  return h('section', { class: 'ops', 'aria-label': 'Exertion, XP and Convictions' },
    h('p', { class: 'big' }, h('span', { 'data-exertion': s.exertion }, `Exertion ${s.exertion}`), ' · ',
      h('span', { 'data-xp': s.xp }, `XP ${s.xp}`)),
    h('div', { class: 'row' },
      h('label', { class: 'tf' }, h('span', {}, 'Exertion to spend'), amount),
      button('exert', 'exert', 'Spend Exertion', exert),
      op('xp_earn', 'End of a Scene: +1 XP', { scenes: 1 })),
    h('div', { class: 'row' },
      h('label', { class: 'tf grow' }, h('span', {}, 'Spend XP on'), what), newBox, uniqueBox,
      button('xp_spend', 'xp', 'Spend XP', () => t.rules.spendXp(id, what.value, newName.value, unique.checked))),
    h('div', { class: 'row' },
      convs.length >= 2 ? [h('label', { class: 'tf' }, h('span', {}, 'Move 1 Significance from'), from),
        h('label', { class: 'tf' }, h('span', {}, 'to'), to),
        button('move_significance', 'move', 'Move Significance', move)] : null,
      op('end_session', 'End the Session', null)),
    h('p', { class: 'muted' }, s.moved_this_session ? 'Significance was moved this Session.'
      : 'At the end of the Session, 1 point of Significance may move between two Convictions.'),
    h('p', { class: 'muted' },
      'Convictions activated and Exertion spent on a roll come off this sheet when this character rolls.'));
}
