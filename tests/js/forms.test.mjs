// static/roll/forms.js: a refusal in a player's words, the label of the field it names (from the published field
// declarations, nested groups and list rows too) before what it says of it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import './published.mjs';
import { inWords, labelOf } from '../../static/roll/forms.js';

const fieldsOf = (system) => globalThis.arbiterPublished.systems[system].fields;

describe('labelOf', () => {
  for (const [system, path, label] of [
    ['ability_test', 'type1', 'Type I Attribute'],
    ['arbitration', 'skills[1]', 'Relevant skill values 2'],
    ['threat', 'threats[2].name', 'Threat 3'],
    ['two_dice', 'opposed.actions', 'Actions (multitasking) (Opposed roll: the target)'],
    ['arbitration', 'opposed.skills[0]', 'Relevant skill values 1 (Opposed roll: the defender)'],
    ['ten_again', 'no_such_field', null],
    ['ten_again', 'state.will', null],
  ]) {
    it(`${system} ${path}: ${label}`, () => assert.equal(labelOf(fieldsOf(system), path), label));
  }
});

describe('inWords', () => {
  it('puts the label before what the refusal says of the field', () => {
    const error = Object.assign(new Error("'type1' must be from 1 to 5, got 9"), {
      path: 'type1',
      says: 'must be from 1 to 5',
    });
    assert.equal(inWords(error, fieldsOf('ability_test')), 'Type I Attribute must be from 1 to 5');
  });
  it('says the message as it is when no field of the form has its path, and a plain text as it is', () => {
    const error = Object.assign(new Error("'state.will' is 0"), { path: 'state.will', says: 'has no Will left' });
    assert.equal(inWords(error, fieldsOf('ten_again')), "'state.will' is 0");
    assert.equal(inWords('Rook has no Will left', fieldsOf('ten_again')), 'Rook has no Will left');
  });
});
