// static/table/rules.js's costsOf: what a roll or a follow-up takes, from whom, in the order it is paid.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { costsOf } from '../../static/table/rules.js';

const ops = (system, request, action) => costsOf(system, request, action)
  .map(({ by, op, args, times }) => [by, op, args, times]);

describe('costsOf', () => {
  const cases = [
    ['a d10 roll without will', 'ten_again', { pool: 3 }, null, []],
    ['a d10 roll with will', 'ten_again', { pool: 3, will: true }, null, [['character', 'spend_will', null, 1]]],
    ['expending a Will after the roll', 'ten_again', {}, { spend_will: true }, [['character', 'spend_will', null, 1]]],
    ['a Will for the opposing side', 'ten_again', {}, { spend_will: true, side: 'target' }, []],
    ['an Ability Test with nothing to pay', 'ability_test', { convictions: [] }, null, []],
    ['an Ability Test activating two Convictions and a Scheme die', 'ability_test',
      { convictions: [1, 3], scheme_die: true }, null,
      [['character', 'activate_conviction', null, 2], ['scheme', 'scheme_spend_die', null, 1]]],
    ['exerting', 'ability_test', {}, { exert: 2 }, [['character', 'exert', { amount: 2 }, 1]]],
    ['negating a setback', 'ability_test', {}, { negate_setback: true },
      [['scheme', 'scheme_negate_setback', null, 1]]],
    ['a reroll', 'ability_test', {}, { reroll: [0] }, []],
    ['an Arbitration roll', 'arbitration', { skills: [3] }, null, []],
    ['a Threat Roll', 'threat', { rating: 2 }, null, []],
  ];
  for (const [name, system, request, action, want] of cases) {
    it(`${name}: ${want.length ? want.map(([, op]) => op).join(', ') : 'nothing'}`, () => {
      assert.deepEqual(ops(system, request, action), want);
    });
  }

  it('the Scheme is paid with the Ability Test\'s ops, whatever the character\'s', () => {
    const [scheme] = costsOf('ability_test', { scheme_die: true }, null);
    assert.equal(scheme.system, 'ability_test');
  });
});
