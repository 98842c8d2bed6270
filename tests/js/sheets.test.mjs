// static/procedures/<id>/sheet.js (static/procedures/sheets.js): each kind's module, the picks a sheet starts from and
// the choices request_from_sheet reads, the XP options shown at the published prices and the Convictions declared this
// Scene in words; struggles.js, shared.js and scene.js: which procedure keeps struggles (with its limits), the Scheme
// and Scenes, as the published table ops say; rules.js: a sheet after an op's answer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import './published.mjs';
import * as abilityTest from '../../static/procedures/ability_test/sheet.js';
import { choicesOf, picksOf } from '../../static/table/choices.js';
import { BY_KIND } from '../../static/procedures/sheets.js';
import { sheetAfter } from '../../static/table/rules.js';
import { sceneOf } from '../../static/table/scene.js';
import { schemeOf } from '../../static/table/shared.js';
import { struggleOf } from '../../static/table/struggles.js';

describe('every kind', () => {
  for (const [kind, sheet] of Object.entries(BY_KIND)) {
    it(`${kind} offers roll as (use) and no request or picks of its own`, () => {
      assert.equal(typeof sheet.use, 'function');
      assert.equal(sheet.request, undefined);
      assert.equal(sheet.picks, undefined);
    });
  }
});

describe('picks and choices', () => {
  const published = [
    { name: 'type1', type: 'choice', options: [{ value: 'Mental' }, { value: 'Social' }], default: 'Mental' },
    { name: 'skill', type: 'id', optional: true, default: '' },
    { name: 'masteries', type: 'bool', default: true },
    { name: 'convictions', type: 'list', of: { type: 'id' }, default: [] },
  ];

  it("a sheet starts from each published choice's default, a list as a Set", () => {
    const picks = picksOf(published);
    assert.deepEqual(Object.keys(picks), ['type1', 'skill', 'masteries', 'convictions']);
    assert.equal(picks.type1, 'Mental');
    assert.equal(picks.masteries, true);
    assert.ok(picks.convictions instanceof Set && picks.convictions.size === 0);
  });

  it('a sheet starts from what was picked for its last roll, as stored; what it lacks at the default', () => {
    const saved = { type1: 'Social', skill: 'k', convictions: ['c1'] };
    const picks = picksOf(published, saved);
    assert.deepEqual(choicesOf(picks), { type1: 'Social', skill: 'k', masteries: true, convictions: ['c1'] });
    picks.convictions.add('c2');
    assert.deepEqual(saved.convictions, ['c1']); // the stored choices are never changed by a pick
  });

  it('fresh picks share no Set with the published default or each other', () => {
    const a = picksOf(published);
    a.convictions.add('c1');
    assert.deepEqual(published[3].default, []);
    assert.equal(picksOf(published).convictions.size, 0);
  });

  it('the choices sent are JSON: each Set as a list, in the order ticked', () => {
    const picks = { ...picksOf(published), skill: 'k', convictions: new Set(['c2', 'c1']) };
    assert.deepEqual(choicesOf(picks), { type1: 'Mental', skill: 'k', masteries: true, convictions: ['c2', 'c1'] });
    assert.deepEqual(JSON.parse(JSON.stringify(choicesOf(picks))), choicesOf(picks));
  });

  it("no picks are no choices: the engine's defaults", () => assert.deepEqual(choicesOf({}), {}));
});

describe('XP options', () => {
  const s = {
    attributes: { Social: 2, Power: 3 },
    skills: [
      { id: 'k', name: 'Lore', level: 3, focused: false, masteries: 2 },
      { id: 'f', name: 'Aim', level: 2, focused: true, masteries: 0 },
    ],
    items: [
      { id: 'i', name: 'Lamp', unique: false, level: 1 },
      { id: 'u', name: 'Relic', unique: true, level: 1 },
    ],
  };
  const costs = [
    { kind: 'new_skill', costs: [{ current: 0, cost: 3 }] },
    { kind: 'advance_skill', costs: [{ current: 3, cost: 4 }] },
    { kind: 'advance_attribute', costs: [{ current: 2, cost: 10 }] },
  ];
  const options = Object.fromEntries(abilityTest.xpOptions(costs, ['Social', 'Power'], s));

  it('carry the published prices, and say when there is none', () => {
    assert.equal(options.new_skill, 'A new Skill with 1 rank (3 XP)');
    assert.equal(options.new_item, 'A new Item with 1 rank (no price in the text)');
    assert.equal(options['skill:k'], 'Skill Lore 3 → 4 (4 XP)');
    assert.equal(options['item:i'], 'Item Lamp 1 → 2 (no price in the text)');
    assert.equal(options['attr:Power'], 'Attribute Power 3 → 4 (at its limit)');
    assert.equal(options['attr:Social'], 'Attribute Social 2 → 3 (10 XP)');
  });

  it('a Focused Skill and a Unique Item have no price in the text', () => {
    assert.equal(options['skill:f'], 'Skill Aim 2 → 3 (Focused: no price in the text)');
    assert.equal(options['item:u'], 'Item Relic 1 → 2 (Unique: no price in the text)');
  });

  it('offer the attributes given, in their order, and each value is what xp_advance reads', () => {
    const values = abilityTest.xpOptions(costs, ['Social', 'Power'], s).map(([value]) => value);
    assert.deepEqual(values, [
      'new_skill',
      'new_item',
      'skill:k',
      'skill:f',
      'item:i',
      'item:u',
      'attr:Social',
      'attr:Power',
    ]);
  });
});

describe('struggleOf', () => {
  const target = { name: 'target', min: 1, max: 50, default: 5 };
  const turns = { name: 'turns', min: 1, max: 20, default: 5 };
  const spec = {
    luck: { table_ops: [] },
    pool: {
      table_ops: [
        { name: 'will_max', state: [], args: [] },
        { name: 'struggle_turn', state: [{ name: 'accumulated' }, target], args: [] },
        { name: 'struggle_odds', state: [target], args: [{ name: 'request' }, turns] },
      ],
    },
  };

  it("the procedure whose table publishes struggle_turn, its target and its odds' turns", () => {
    assert.deepEqual(struggleOf(spec), { system: 'pool', target, turns });
  });
});

describe('schemeOf', () => {
  it("the procedure whose table publishes the Scheme's ops", () => {
    const spec = { a: { table_ops: [{ name: 'xp_earn' }] }, b: { table_ops: [{ name: 'scheme_spend_die' }] } };
    assert.equal(schemeOf(spec), 'b');
  });

  it('is the Ability Test as arbiter.api publishes it', () => {
    assert.equal(schemeOf(globalThis.arbiterPublished.systems), 'ability_test');
    assert.equal(struggleOf(globalThis.arbiterPublished.systems).system, 'ten_again');
  });
});

describe('sceneOf', () => {
  it('the procedure whose table publishes new_scene: the Ability Test as arbiter.api publishes it', () => {
    assert.equal(sceneOf({ a: { table_ops: [{ name: 'xp_earn' }] }, b: { table_ops: [{ name: 'new_scene' }] } }), 'b');
    assert.equal(sceneOf(globalThis.arbiterPublished.systems), 'ability_test');
  });
});

describe('the Convictions declared this Scene', () => {
  const spec = globalThis.arbiterPublished.systems.ability_test;
  const sheet = {
    convictions: [
      { id: 'c1', text: 'Duty', significance: 2 },
      { id: 'c2', text: '', significance: 1 },
    ],
  };

  it("are named in the sheet's order under the declaration's label", () => {
    assert.equal(
      abilityTest.sceneWords(spec.sheet, { ...sheet, scene_convictions: ['c2', 'c1'] }),
      'Convictions declared relevant to this Scene: “Duty”, “Conviction”.',
    );
  });

  it('are none on a sheet kept before Scenes were', () => {
    assert.equal(abilityTest.sceneWords(spec.sheet, sheet), 'Convictions declared relevant to this Scene: none yet.');
  });
});

describe('sheetAfter', () => {
  it('takes the declared fields an op answered, not its note or what it charged, and keeps the others', () => {
    const sheet = { ...globalThis.arbiterPublished.systems.ability_test.sheet.default, exertion: 2 };
    const answer = { ...sheet, exertion: 1, scene_convictions: ['c1'], exertion_charged: 1, note: 'Spent 1' };
    assert.deepEqual(sheetAfter('ability_test', sheet, answer), { ...sheet, exertion: 1, scene_convictions: ['c1'] });
    assert.deepEqual(sheetAfter('ability_test', sheet, { xp: 3, cost: 2 }), { ...sheet, xp: 3 });
  });
});
