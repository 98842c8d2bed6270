// static/log/log.js and words.js: what a log entry keeps of a roll, the filters, the CSV, a request for people.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import './published.mjs';
import { csvCell, csvOf, facesOf, filterLog } from '../../static/log/log.js';
import { PROCEDURES } from '../../static/store/schema.js';
import { actionWords, requestWords } from '../../static/store/words.js';

describe('facesOf', () => {
  const cases = [
    ['arbitration, with the defender', { system: 'arbitration', dice: [3, 5], defender: { dice: [6] } }, [3, 5, 6]],
    ['two dice, with the target', { system: 'two_dice', dice: [1, 2], target: { dice: [4, 4] } }, [1, 2, 4, 4]],
    [
      "d10 pool: dice, Will dice, rerolls, then the target's",
      { system: 'ten_again', dice: [10, 3], will_dice: [8], rerolls: [2], target: { dice: [7] } },
      [10, 3, 8, 2, 7],
    ],
    ['Ability Test: the Scheme die first', { system: 'ability_test', scheme_roll: 4, dice: [1, 6] }, [4, 1, 6]],
    ['Ability Test without a Scheme die', { system: 'ability_test', scheme_roll: null, dice: [2] }, [2]],
    ['no faces outside 1..10', { system: 'threat', dice: [0, 3, 11, 2.5, '4'] }, [3]],
    ['no dice at all', { system: 'luck' }, []],
  ];
  for (const [name, roll, faces] of cases) it(name, () => assert.deepEqual(facesOf(roll), faces));

  it('at most 500', () => assert.equal(facesOf({ system: 'luck', dice: Array(600).fill(1) }).length, 500));

  it('read from the roll, whatever its procedure is called', () => {
    assert.deepEqual(
      facesOf({
        system: 'new_one',
        scheme_roll: 5,
        dice: [2],
        will_dice: [9],
        rerolls: [10],
        defender: { dice: [3], rerolls: [4] },
      }),
      [5, 2, 9, 10, 3, 4],
    );
  });

  it('only the dice shown: not the dice kept, or those a reroll replaced', () => {
    assert.deepEqual(facesOf({ system: 'arbitration', dice: [1, 4], kept: [4], defender: null }), [1, 4]);
    assert.deepEqual(facesOf({ system: 'ability_test', scheme_roll: null, rolled: [6, 6], dice: [6, 2] }), [6, 2]);
  });

  it('a target that is a number is no side', () => {
    assert.deepEqual(facesOf({ system: 'two_dice', dice: [4, 5], target: 9 }), [4, 5]);
  });
});

describe('filterLog', () => {
  const all = [
    ['1', { system: 'luck', character: null }],
    ['2', { system: 'threat', character: { id: 'a', name: 'Ada' } }],
    ['3', { system: 'luck', character: { id: 'b', name: 'Bea' } }],
  ];
  const ids = (filter) => filterLog(all, filter).map(([id]) => id);

  it('everything, newest first', () => assert.deepEqual(ids({ character: '', system: '' }), ['3', '2', '1']));
  it('one procedure', () => assert.deepEqual(ids({ character: '', system: 'luck' }), ['3', '1']));
  it('one character', () => assert.deepEqual(ids({ character: 'a', system: '' }), ['2']));
  it('nobody', () => assert.deepEqual(ids({ character: '-', system: '' }), ['1']));
});

describe('CSV', () => {
  it('quotes every cell and doubles quotes', () => assert.equal(csvCell('say "hi"'), '"say ""hi"""'));
  it('defuses a leading formula', () => {
    for (const s of ['=1+1', '+1', '-1', '@x']) assert.equal(csvCell(s), `"'${s}"`);
  });
  it('writes objects as JSON and nothing as empty', () => {
    assert.equal(csvCell({ a: 1 }), '"{""a"":1}"');
    assert.equal(csvCell(null), '""');
  });
  it("a header row, then a row per entry, CRLF line ends; a roll's note, a note's words once", () => {
    const csv = csvOf([
      {
        time: 't',
        character: { name: 'Ada' },
        system: 'luck',
        kind: 'roll',
        action: null,
        request: { dice: 2 },
        dice: [3, 4],
        outcome: 'ok',
        summary: 'fine',
        note: 'paid',
      },
      {
        time: 'u',
        character: null,
        system: 'luck',
        kind: 'note',
        action: null,
        request: null,
        dice: [],
        outcome: '',
        summary: 'said',
        note: 'said',
      },
    ]);
    assert.equal(
      csv,
      '"time","character","procedure","kind","action","request","dice","outcome","summary","note"\r\n' +
        '"t","Ada","luck","roll","","{""dice"":2}","3 4","ok","fine","paid"\r\n' +
        '"u","","luck","note","","","","","said",""\r\n',
    );
  });
});

describe('requestWords', () => {
  const label = (system, name) => PROCEDURES[system].fields.find((f) => f.name === name).label;
  it("says each field by its form's label, leaving out what is off, empty, or at a default of nothing", () => {
    const { fields } = PROCEDURES.ability_test;
    const words = requestWords(
      { type1: 3, type2: 2, skill: 0, convictions: [3, 2], scheme_die: true, masteries: 0, bogus_key: 1 },
      fields,
    );
    assert.equal(
      words,
      `${label('ability_test', 'type1')} 3; ${label('ability_test', 'type2')} 2; ` +
        `${label('ability_test', 'convictions')} 3, 2; ${label('ability_test', 'scheme_die')}`,
    );
  });
  it('says a choice by its label, and a group and records by their fields', () => {
    const arbitration = PROCEDURES.arbitration.fields;
    const moderate = arbitration.find((f) => f.name === 'complexity').options.find((o) => o.value === 'moderate');
    const words = requestWords({ skills: [4, 3], complexity: 'moderate', opposed: { skills: [2] } }, arbitration);
    assert.ok(words.includes(`${label('arbitration', 'complexity')} ${moderate.label}`), words);
    assert.ok(words.includes(`${label('arbitration', 'opposed')} (`), words);
    const threats = requestWords({ rating: 2, threats: [{ name: 'Fall', desperate: true }] }, PROCEDURES.threat.fields);
    assert.ok(threats.includes('Fall') && !/[a-z]+_[a-z_]+/.test(threats), threats);
  });
  it('names no snake_case field, for any procedure', () => {
    for (const [id, p] of Object.entries(PROCEDURES)) {
      for (const request of Object.values(p.example_requests)) {
        assert.doesNotMatch(requestWords(request, p.fields), /\b[a-z]+_[a-z_]+\b/, id);
      }
    }
  });
});

describe('actionWords', () => {
  it("an entry kept without its words: the action's declared label", () => {
    const { actions } = PROCEDURES.ability_test;
    const negate = actions.find((a) => a.name === 'negate_setback');
    assert.equal(actionWords({ negate_setback: true }, actions), negate.label);
    assert.equal(actionWords({ what: 1 }, actions), 'A follow-up');
  });
});
