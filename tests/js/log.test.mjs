// static/log/log.js and words.js: what a log entry keeps of a roll, the filters, the CSV, a request for people.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import './published.mjs';
import { csvCell, csvOf, facesOf, filterLog } from '../../static/log/log.js';
import { PROCEDURES, RECORDS } from '../../static/store/schema.js';
import { actionWords, requestWords } from '../../static/store/words.js';

describe('facesOf', () => {
  const die = (face, sides = 6, group = '') => ({ sides, face, group, marks: [] });
  const most = RECORDS.log.fields.find((f) => f.name === 'dice').of.max; // the most sides a procedure declares
  const cases = [
    [
      "the engine's faces, in the order it lists them, whatever the procedure",
      { system: 'new_one', faces: [die(5, 6, 'Scheme die'), die(2), die(most, most, 'Target')] },
      [5, 2, most],
    ],
    [
      "no procedure's own keys read: only its faces",
      { system: 'ten_again', dice: [10, 3], will_dice: [8], rerolls: [2], target: { dice: [7] }, faces: [die(3, 10)] },
      [3],
    ],
    [
      'no faces outside 1 to the most sides a log entry keeps',
      { system: 'threat', faces: [0, 3, most + 1, 2.5, '4', null].map((f) => ({ sides: 6, face: f })) },
      [3],
    ],
    ['no faces at all', { system: 'luck' }, []],
    ['faces that are no list', { system: 'luck', faces: { 0: die(3) } }, []],
  ];
  for (const [name, roll, faces] of cases) it(name, () => assert.deepEqual(facesOf(roll), faces));

  it('at most 500', () =>
    assert.equal(facesOf({ system: 'luck', faces: Array.from({ length: 600 }, () => die(1)) }).length, 500));
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
