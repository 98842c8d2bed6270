// static/table/sheets/: the request "Fill the … form" makes from a sheet and what is ticked on it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { newSheet } from '../../static/table/schema.js';
import * as abilityTest from '../../static/table/sheets/ability-test.js';
import * as arbitration from '../../static/table/sheets/arbitration.js';
import { BY_KIND } from '../../static/table/sheets/index.js';
import * as tenAgain from '../../static/table/sheets/ten-again.js';
import * as threat from '../../static/table/sheets/threat.js';
import * as twoDice from '../../static/table/sheets/two-dice.js';

const limits = (table) => (name) => table[name];

describe('every kind', () => {
  for (const [kind, sheet] of Object.entries(BY_KIND)) {
    it(`${kind} offers roll as: picks, request and use`, () => {
      assert.equal(typeof sheet.picks, 'function');
      assert.equal(typeof sheet.request, 'function');
      assert.equal(typeof sheet.use, 'function');
    });
  }
});

describe('arbitration', () => {
  const s = { skills: [{ id: 'a', name: 'Ride', value: 4 }, { id: 'b', name: 'Sword', value: 2 }],
    traits: [{ id: 't', name: 'Bold', modifier: -1 }] };
  const limit = limits({ skills: 1, modifiers: 1 });

  it('the ticked skills and trait modifiers', () => {
    const p = { skills: new Set(['b']), traits: new Set(['t']) };
    assert.deepEqual(arbitration.request(s, p, limit), { skills: [2], modifiers: [-1] });
  });

  it('asks for a skill first', () => {
    assert.equal(arbitration.request(s, arbitration.picks(), limit), 'Choose at least one relevant skill.');
  });

  it('no more skills than the form holds', () => {
    const p = { skills: new Set(['a', 'b']), traits: new Set() };
    assert.equal(arbitration.request(s, p, limit), 'Choose at most 1 skills (the form holds 1).');
  });
});

describe('two_dice', () => {
  const s = { traits: [{ id: 't', name: 'Quick', value: 3 }],
    abilities: [{ id: 'a', value: 2 }, { id: 'b', value: -1 }] };

  it('the chosen trait, and the ticked abilities', () => {
    const p = { trait: 't', abilities: new Set(['b']) };
    assert.deepEqual(twoDice.request(s, p, limits({ abilities: 5 })), { trait: 3, abilities: [-1] });
  });

  it('no trait is 0', () => {
    assert.deepEqual(twoDice.request(s, twoDice.picks(), limits({ abilities: 5 })), { trait: 0, abilities: [] });
  });

  it('no more abilities than the form holds', () => {
    const p = { trait: '', abilities: new Set(['a', 'b']) };
    assert.equal(twoDice.request(s, p, limits({ abilities: 1 })), 'Choose at most 1 abilities (the form holds 1).');
  });
});

describe('threat', () => {
  it('the chosen rating', () => {
    const s = newSheet('threat');
    s.ratings.Muscle = 4;
    assert.deepEqual(threat.request(s, { rating: 'Muscle' }), { rating: 4 });
    assert.deepEqual(threat.request(s, threat.picks()), { rating: 1 }); // Charm, the first
  });
});

describe('ten_again', () => {
  const s = { ...newSheet('ten_again'), attributes: [{ id: 'st', name: 'Strength', dots: 3 }],
    skills: [{ id: 'at', name: 'Athletics', dots: 2, trained: true },
      { id: 'oc', name: 'Occult', dots: 1, trained: false }] };

  it('the pool is the ticked statistics\' dots', () => {
    assert.deepEqual(tenAgain.request(s, { stats: new Set(['st', 'at']) }), { pool: 5, unskilled: false });
  });

  it('an untrained skill makes the roll unskilled', () => {
    assert.deepEqual(tenAgain.request(s, { stats: new Set(['st', 'oc']) }), { pool: 4, unskilled: true });
  });

  it('asks for the statistics first', () => {
    assert.equal(tenAgain.request(s, tenAgain.picks()), 'Choose the statistics named for the roll.');
  });
});

describe('ability_test', () => {
  const s = { ...newSheet('ability_test'),
    skills: [{ id: 'k', name: 'Lore', level: 3, focused: false, masteries: 2 }],
    items: [{ id: 'i', name: 'Lamp', unique: false, level: 1 }],
    convictions: [{ id: 'c1', text: 'Truth', significance: 2 }, { id: 'c2', text: 'Kin', significance: 3 }] };
  s.attributes.Mental = 4;
  s.attributes.Power = 3;

  it('the chosen attributes, skill with its Masteries, item and Convictions', () => {
    const p = { type1: 'Mental', type2: 'Power', skill: 'k', masteries: true, item: 'i', convictions: new Set(['c2']) };
    assert.deepEqual(abilityTest.request(s, p, limits({ convictions: 3 })),
      { type1: 4, type2: 3, skill: 3, masteries: 2, item: 1, convictions: [3] });
  });

  it('Masteries that are not relevant are 0; no skill and no item are 0', () => {
    const p = { ...abilityTest.picks(), masteries: false };
    assert.deepEqual(abilityTest.request(s, p, limits({ convictions: 3 })),
      { type1: 4, type2: 2, skill: 0, masteries: 0, item: 0, convictions: [] });
  });

  it('no more Convictions than the form holds', () => {
    const p = { ...abilityTest.picks(), convictions: new Set(['c1', 'c2']) };
    assert.equal(abilityTest.request(s, p, limits({ convictions: 1 })),
      'Activate at most 1 Convictions (the form holds 1).');
  });

  it('XP options carry the published prices, and say when there is none', () => {
    const costs = [{ kind: 'new_skill', costs: [{ current: 0, cost: 3 }] },
      { kind: 'advance_skill', costs: [{ current: 3, cost: 4 }] },
      { kind: 'advance_attribute', costs: [{ current: 2, cost: 10 }] }];
    const options = Object.fromEntries(abilityTest.xpOptions(costs, s));
    assert.equal(options.new_skill, 'A new Skill with 1 rank (3 XP)');
    assert.equal(options.new_item, 'A new Item with 1 rank (no price in the text)');
    assert.equal(options['skill:k'], 'Skill Lore 3 → 4 (4 XP)');
    assert.equal(options['item:i'], 'Item Lamp 1 → 2 (no price in the text)');
    assert.equal(options['attr:Power'], 'Attribute Power 3 → 4 (at its limit)');
    assert.equal(options['attr:Social'], 'Attribute Social 2 → 3 (10 XP)');
  });
});
