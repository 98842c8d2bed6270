// static/share/link.js: a roll's (or a table's) fragment found in a pasted or scanned text, and nothing else.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { FRAGMENT_CHARS, sharedFragment } from '../../static/share/link.js';

describe('sharedFragment', () => {
  it('finds a roll or a table in a whole link, in the fragment alone, with or without its #', () => {
    assert.equal(sharedFragment('https://someone.github.io/arbiter/#r=eJx_a-9'), '#r=eJx_a-9');
    assert.equal(sharedFragment('  http://127.0.0.1:8000/#t=AbC\n'), '#t=AbC');
    assert.equal(sharedFragment('#r=AbC'), '#r=AbC');
    assert.equal(sharedFragment('r=AbC'), '#r=AbC');
  });

  it('refuses anything else', () => {
    for (const text of ['', 'hello', '#r=', 'r=a b', '#x=abc', '#table', 'https://x.org/#r=<script>', '#r=abc#t=d']) {
      assert.equal(sharedFragment(text), null, text);
    }
    assert.equal(sharedFragment(null), null);
    assert.equal(sharedFragment(`#r=${'a'.repeat(FRAGMENT_CHARS + 1)}`), null);
    assert.equal(sharedFragment(`#r=${'a'.repeat(FRAGMENT_CHARS)}`), `#r=${'a'.repeat(FRAGMENT_CHARS)}`);
  });
});
