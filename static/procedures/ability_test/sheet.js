// An Ability Test sheet: attributes of Type I and Type II, skills with Masteries, items and Convictions, with the
// engine's ops on Exertion, XP and Significance.

import { toInt, toggle } from '../../store/data.js';
import { checkbox, h, intInput, select } from '../../dom.js';
import { newId } from '../../store/ids.js';
import { plural } from '../../store/words.js';

const SYSTEM = 'ability_test';

/** The values a choice of the sheet's roll offers, as arbiter.api publishes them (systems()' sheet_choices). */
const optionsOf = (spec, name) => spec.sheet_choices.find((f) => f.name === name).options.map((o) => o.value);

/** The sheet's attributes, in the order its declaration lists them. */
const attributesOf = (spec) => spec.sheet.fields.find((f) => f.name === 'attributes').fields.map((f) => f.name);

export function use({ s, p, k, fill, spec }) {
  const attributes = (name) => optionsOf(spec, name).map((a) => [a, `${a} ${s.attributes[a]}`]);
  const masteries = (sk) => (sk.masteries ? `, ${plural(sk.masteries, 'Mastery', 'Masteries')}` : '');
  const skills = [['', 'None'], ...s.skills.map((sk) => [sk.id, `${sk.name || 'Skill'} ${sk.level}${masteries(sk)}`])];
  const items = [['', 'None'], ...s.items.map((it) => [it.id, `${it.name || 'Item'} ${it.level}`])];
  const declared = new Set(s.scene_convictions ?? []);
  const conviction = (cv) =>
    checkbox(
      k(`conv:${cv.id}`),
      `${cv.text || 'Conviction'} (Significance ${cv.significance}${declared.has(cv.id) ? ', declared this Scene' : ''})`,
      p.convictions.has(cv.id),
      (on) => toggle(p.convictions, cv.id, on),
    );
  return [
    h(
      'div',
      { class: 'grid' },
      select(k('type1'), 'Type I attribute', attributes('type1'), p.type1, (v) => {
        p.type1 = v;
      }),
      select(k('type2'), 'Type II attribute', attributes('type2'), p.type2, (v) => {
        p.type2 = v;
      }),
      select(k('skill'), 'Skill', skills, p.skill, (v) => {
        p.skill = v;
      }),
      select(k('item'), 'Item', items, p.item, (v) => {
        p.item = v;
      }),
    ),
    checkbox(k('masteries'), 'The Skill’s Masteries are relevant', p.masteries, (on) => {
      p.masteries = on;
    }),
    s.convictions.length
      ? h(
          'fieldset',
          { class: 'sheet-group' },
          h('legend', {}, spec.sheet_choices.find((f) => f.name === 'convictions').label),
          s.convictions.map(conviction),
        )
      : null,
    fill(SYSTEM, 'Fill the Ability Test form'),
  ];
}

/** What XP can buy on sheet `s`, with the price arbiter.api publishes (`xpCosts`: the spec's xp_costs) for each of
 * its `attributes`: [value, text] options for "Spend XP on" (the value is xp_advance's "what"). */
export function xpOptions(xpCosts, attributes, s) {
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
    ...s.skills.map((sk) => [
      `skill:${sk.id}`,
      `Skill ${sk.name || '(unnamed)'} ${sk.level} → ${sk.level + 1} (${skill(sk)})`,
    ]),
    ...s.items.map((it) => [
      `item:${it.id}`,
      `Item ${it.name || '(unnamed)'} ${it.level} → ${it.level + 1} (${item(it)})`,
    ]),
    ...attributes.map((a) => [
      `attr:${a}`,
      `Attribute ${a} ${s.attributes[a]} → ${s.attributes[a] + 1} (${price('advance_attribute', s.attributes[a])})`,
    ]),
  ];
}

/** The Convictions of sheet `s` declared relevant to this Scene, in words (the list's label is its declaration's). */
export function sceneWords(sheetDecl, s) {
  const { label } = sheetDecl.fields.find((f) => f.name === 'scene_convictions');
  const ids = new Set(s.scene_convictions ?? []);
  const names = s.convictions.filter((cv) => ids.has(cv.id)).map((cv) => `“${cv.text || 'Conviction'}”`);
  return `${label}: ${names.length ? names.join(', ') : 'none yet'}.`;
}

/** Exertion, XP and Convictions: the counts, and the ops that change them. */
export function ops(t, id, c) {
  const s = c.sheet;
  const k = (name) => `ops:${id}:${name}`;
  const spec = t.spec[SYSTEM];
  const op = (name, label, args) => t.rules.button(id, name, label, SYSTEM, name, args);
  const amount = intInput({ min: 1, max: Math.max(1, s.exertion), value: 1, 'data-k': k('amount') });
  const what = h(
    'select',
    { 'data-k': k('xp-what') },
    xpOptions(spec.extras.xp_costs, attributesOf(spec), s).map(([v, text]) =>
      h('option', { value: v, selected: v === t.ui.xpWhat?.[id] }, text),
    ),
  );
  const nameMax = spec.table_ops.find((o) => o.name === 'xp_advance').args.find((a) => a.name === 'name').max_len;
  const newName = h('input', { type: 'text', maxlength: nameMax, autocomplete: 'off', 'data-k': k('xp-name') });
  const unique = h('input', { type: 'checkbox', 'data-k': k('xp-unique') });
  const newBox = h('label', { class: 'tf' }, h('span', {}, 'Name of the new Skill or Item'), newName);
  const uniqueBox = h('label', { class: 'tf check' }, unique, h('span', {}, 'Unique item'));
  const showNew = () => {
    newBox.hidden = !what.value.startsWith('new_');
    uniqueBox.hidden = what.value !== 'new_item';
  };
  what.addEventListener('change', () => {
    (t.ui.xpWhat ??= {})[id] = what.value;
    showNew();
  });
  showNew();
  const convs = s.convictions.map((cv, i) => [String(i), `${i + 1}. ${cv.text || 'Conviction'} (${cv.significance})`]);
  const from = h(
    'select',
    { 'data-k': k('from') },
    convs.map(([v, text]) => h('option', { value: v }, text)),
  );
  const to = h(
    'select',
    { 'data-k': k('to') },
    convs.map(([v, text], i) => h('option', { value: v, selected: i === 1 }, text)),
  );
  const button = (name, key, label, onclick) =>
    h('button', { type: 'button', 'data-op': name, 'data-k': k(key), onclick }, label);
  const exert = () => t.rules.charOp(id, SYSTEM, 'exert', { amount: toInt(amount.value) });
  const spendXp = () =>
    t.rules.charOp(
      id,
      SYSTEM,
      'xp_advance',
      { what: what.value, name: newName.value, unique: unique.checked, id: newId() },
      { logRefusal: false },
    );
  const move = () =>
    t.rules.charOp(id, SYSTEM, 'move_significance', { from: Number(from.value), to: Number(to.value) });
  return h(
    'section',
    { class: 'ops', 'aria-label': 'Exertion, XP and Convictions' },
    h(
      'p',
      { class: 'big' },
      h('span', { 'data-exertion': s.exertion }, `Exertion ${s.exertion}`),
      ' · ',
      h('span', { 'data-xp': s.xp }, `XP ${s.xp}`),
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'tf' }, h('span', {}, 'Exertion to spend'), amount),
      button('exert', 'exert', 'Spend Exertion', exert),
      op('xp_earn', 'A Scene played off the table: +1 XP', { scenes: 1 }),
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'tf grow' }, h('span', {}, 'Spend XP on'), what),
      newBox,
      uniqueBox,
      button('xp_spend', 'xp', 'Spend XP', spendXp),
    ),
    h(
      'div',
      { class: 'row' },
      convs.length >= 2
        ? [
            h('label', { class: 'tf' }, h('span', {}, 'Move 1 Significance from'), from),
            h('label', { class: 'tf' }, h('span', {}, 'to'), to),
            button('move_significance', 'move', 'Move Significance', move),
          ]
        : null,
      op('end_session', 'End the Session', null),
    ),
    h('p', { 'data-scene-convictions': JSON.stringify(s.scene_convictions ?? []) }, sceneWords(spec.sheet, s)),
    h(
      'p',
      { class: 'muted' },
      s.moved_this_session
        ? 'Significance was moved this Session.'
        : 'At the end of the Session, 1 point of Significance may move between two Convictions.',
    ),
    h(
      'p',
      { class: 'muted' },
      'Convictions activated and Exertion spent on a roll come off this sheet when this character rolls.',
    ),
  );
}
