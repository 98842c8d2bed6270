// static/share/link.js: where a link may be in a pasted or scanned text, and which one it names once the engine has
// said which pieces are links.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  FRAGMENT_CHARS,
  MOST_LINKS,
  NOT_A_LINK,
  OWN,
  TWO_LINKS,
  chosen,
  linkPlaces,
  piecesOf,
} from '../../static/share/link.js';

const URL = 'https://someone.github.io/arbiter/';

describe('linkPlaces', () => {
  it('finds a roll or a table in a whole link, in the fragment alone, with or without its #', () => {
    assert.deepEqual(linkPlaces(`${URL}#r=eJx_a-9`), [{ kind: 'r', pieces: ['eJx_a-9'] }]);
    assert.deepEqual(linkPlaces('  http://127.0.0.1:8000/#t=AbC\n'), [{ kind: 't', pieces: ['AbC'] }]);
    assert.deepEqual(linkPlaces('#r=AbC'), [{ kind: 'r', pieces: ['AbC'] }]);
    assert.deepEqual(linkPlaces('r=AbC'), [{ kind: 'r', pieces: ['AbC'] }]);
    assert.deepEqual(linkPlaces('#r=AbC=='), [{ kind: 'r', pieces: ['AbC=='] }]);
  });

  it('reads a link out of the words, brackets, quotes and punctuation around it', () => {
    const texts = {
      "Jun: here's my roll LINK lol 🎲": ['AbC_9-x', 'AbC_9-xlol'],
      'LINK.': ['AbC_9-x'],
      '<LINK>': ['AbC_9-x'],
      '"LINK"': ['AbC_9-x'],
      '(see LINK), then': ['AbC_9-x'],
      '«LINK»!': ['AbC_9-x'],
    };
    for (const [text, pieces] of Object.entries(texts)) {
      assert.deepEqual(linkPlaces(text.replace('LINK', `${URL}#r=AbC_9-x`)), [{ kind: 'r', pieces }], text);
    }
  });

  it('offers a link wrapped onto two lines (or three) joined again, the first line alone first', () => {
    assert.deepEqual(linkPlaces(`${URL}#r=AbCdEf\nGhIj`), [{ kind: 'r', pieces: ['AbCdEf', 'AbCdEfGhIj'] }]);
    assert.deepEqual(linkPlaces(`${URL}#r=Ab\r\n  Cd\nEf. ok`), [{ kind: 'r', pieces: ['Ab', 'AbCd', 'AbCdEf'] }]);
    assert.equal(linkPlaces(`#r=A ${'B '.repeat(10)}`)[0].pieces.length, 4); // at most three joined on
    assert.deepEqual(linkPlaces('#r=AbC== more'), [{ kind: 'r', pieces: ['AbC=='] }]); // padding ends a fragment
  });

  it('finds every place a link starts, up to MOST_LINKS', () => {
    assert.deepEqual(linkPlaces(`${URL}#r=Ab and ${URL}#t=Cd`), [
      { kind: 'r', pieces: ['Ab', 'Aband', 'Abandhttps'] }, // the engine says which is a link
      { kind: 't', pieces: ['Cd'] },
    ]);
    assert.deepEqual(linkPlaces('#r=abc#t=d'), [
      { kind: 'r', pieces: ['abc'] },
      { kind: 't', pieces: ['d'] },
    ]);
    assert.equal(linkPlaces(`${URL}#r=Ab, `.repeat(MOST_LINKS + 3)).length, MOST_LINKS);
  });

  it('finds nothing where no link starts', () => {
    for (const text of ['', 'hello', '#r=', 'r =a', '#x=abc', '#table', 'https://x.org/#r=<script>', 'ar=abc']) {
      assert.deepEqual(linkPlaces(text), [], text);
    }
    assert.deepEqual(linkPlaces(null), []);
    assert.deepEqual(linkPlaces(`#r=${'a'.repeat(FRAGMENT_CHARS + 1)}`), []);
    assert.deepEqual(linkPlaces(`#r=${'a'.repeat(FRAGMENT_CHARS)}`), [
      { kind: 'r', pieces: ['a'.repeat(FRAGMENT_CHARS)] },
    ]);
  });
});

describe('chosen', () => {
  const places = linkPlaces(`${URL}#r=AbCd\nEf lol and ${URL}#t=Gh.`);

  it('lists each piece for the engine, in order', () => {
    assert.deepEqual(piecesOf(places), [
      ['r', 'AbCd'],
      ['r', 'AbCdEf'],
      ['r', 'AbCdEflol'],
      ['r', 'AbCdEfloland'],
      ['t', 'Gh'],
    ]);
  });

  it('takes each place’s shortest piece that is a link', () => {
    assert.deepEqual(chosen(places, [null, 'ok', null, null, null]), { fragment: '#r=AbCdEf' });
    assert.deepEqual(chosen(places, ['ok', 'ok', null, null, null]), { fragment: '#r=AbCd' });
    assert.deepEqual(chosen(places, [null, null, null, null, 'newer']), { fragment: '#t=Gh' });
  });

  it('refuses a text with no link, or with two different ones, in words', () => {
    assert.deepEqual(chosen(places, [null, null, null, null, null]), { refused: NOT_A_LINK });
    assert.deepEqual(chosen([], []), { refused: NOT_A_LINK });
    assert.deepEqual(chosen(places, [null, 'ok', null, null, 'ok']), { refused: TWO_LINKS });
  });

  it('takes the same link found twice as one', () => {
    const twice = linkPlaces(`${URL}#r=AbCd — again: ${URL}#r=AbCd`);
    assert.deepEqual(chosen(twice, ['ok', 'ok']), { fragment: '#r=AbCd' });
  });

  it('finds a live table’s codes (#j=, #a=) but leaves them out of what the engine checks: `own` says (issue 32)', () => {
    const live = linkPlaces(`join: ${URL}#j=Jo1n\nX and ${URL}#r=Ab`);
    assert.deepEqual(live, [
      { kind: 'j', pieces: ['Jo1n', 'Jo1nX', 'Jo1nXand', 'Jo1nXandhttps'] },
      { kind: 'r', pieces: ['Ab'] },
    ]);
    assert.deepEqual(piecesOf(live), [['r', 'Ab']]);
    const own = (kind, piece) => kind === 'j' && piece === 'Jo1nX';
    assert.deepEqual(chosen(live, [null], own), { fragment: '#j=Jo1nX' });
    assert.deepEqual(chosen(live, ['ok'], own), { refused: TWO_LINKS });
    assert.deepEqual(chosen(live, ['ok']), { fragment: '#r=Ab' }); // no `own`: no code is one
    assert.deepEqual(
      chosen(linkPlaces('#a=Ans'), [], () => true),
      { fragment: '#a=Ans' },
    );
    assert.deepEqual(OWN, ['j', 'a']);
  });
});
