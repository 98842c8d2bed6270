// static/roll/form-state.js: one form's state, its transitions (issue 29: no tap, keystroke or pad undoes the player's
// intent).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { HOLD_MS, current, initial, live, mayWrite, next, stale } from '../../static/roll/form-state.js';

/** The state after `events`, in turn, from a new form's. */
const run = (...events) => events.reduce(next, initial());

describe('a burst of taps on Roll is one roll', () => {
  it('the first tap rolls', () => {
    const s = run({ type: 'tap', at: 0 });
    assert.equal(s.phase, 'rolling');
    assert.equal(s.did, 'roll');
  });

  it('a tap while the dice tumble lands them, and rolls nothing', () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'tap', at: 100 });
    assert.equal(s.did, 'skip');
    assert.equal(s.phase, 'rolling');
  });

  // issue 29's measured bursts: 3 taps 150 ms apart, 4 taps 120 ms apart, 3 taps 270 ms apart; the dice land
  // anywhere from at once (speed Off) to after the second tap (a tap lands them)
  for (const [taps, gap] of [
    [3, 150],
    [4, 120],
    [3, 270],
  ]) {
    for (const landsAt of [0, 1, gap - 1, gap]) {
      it(`${taps} taps ${gap} ms apart, the dice landing at ${landsAt} ms: one roll`, () => {
        let s = initial();
        let rolls = 0;
        let landed = false;
        for (let i = 0; i < taps; i++) {
          const at = i * gap;
          if (!landed && landsAt <= at && s.phase === 'rolling') {
            s = next(s, { type: 'landed', at: landsAt });
            landed = true;
          }
          s = next(s, { type: 'tap', at });
          if (s.did === 'roll') rolls += 1;
          if (s.did === 'skip' && !landed) {
            s = next(s, { type: 'landed', at }); // the tap landed them
            landed = true;
          }
        }
        assert.equal(rolls, 1);
      });
    }
  }

  it(`the outcome on screen for ${HOLD_MS} ms: the next tap rolls again`, () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'landed', at: 50 }, { type: 'tap', at: 50 + HOLD_MS });
    assert.equal(s.did, 'roll');
  });

  it('a tap just before that is held', () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'landed', at: 50 }, { type: 'tap', at: 49 + HOLD_MS });
    assert.equal(s.did, 'hold');
    assert.equal(s.phase, 'landed');
  });

  it('a refused tap leaves Roll free at once', () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'refused' }, { type: 'tap', at: 10 });
    assert.equal(s.did, 'roll');
  });
});

describe('the face pad owns the form', () => {
  const shown = [
    { type: 'tap', at: 0 },
    { type: 'landed', at: 10 },
  ];

  it('with the pad open for a new roll, the last outcome is stale and its follow-ups are not usable', () => {
    const s = run(...shown, { type: 'tap', at: 5000 }, { type: 'pad' });
    assert.equal(s.phase, 'pad');
    assert.ok(stale(s));
    assert.ok(!live(s));
    const tapped = next(s, { type: 'act' });
    assert.equal(tapped.did, 'hold');
    assert.equal(tapped.phase, 'pad');
  });

  it('Roll waits for the faces while the pad is open', () => {
    const s = run(...shown, { type: 'tap', at: 5000 }, { type: 'pad' }, { type: 'tap', at: 5100 });
    assert.equal(s.did, 'hold');
  });

  it('leaving the pad restores the last outcome', () => {
    const s = run(...shown, { type: 'tap', at: 5000 }, { type: 'pad' }, { type: 'left' });
    assert.equal(s.phase, 'landed');
    assert.ok(live(s));
    assert.ok(!stale(s));
  });

  it('leaving the pad of a first roll leaves the form as it was', () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'pad' }, { type: 'left' });
    assert.equal(s.phase, 'editing');
    assert.ok(!stale(s));
  });

  it('the faces entered, the roll goes on and lands', () => {
    let s = run(...shown, { type: 'tap', at: 5000 }, { type: 'pad' }, { type: 'faces' });
    assert.equal(s.phase, 'rolling');
    s = next(s, { type: 'landed', at: 5200 });
    assert.ok(live(s));
  });

  it('a follow-up with the pad: back to a follow-up once the faces are in', () => {
    const s = run(...shown, { type: 'act' }, { type: 'pad' }, { type: 'faces' });
    assert.equal(s.phase, 'follow-up');
  });
});

describe('follow-ups', () => {
  it('are usable once the roll landed, not before, and one at a time', () => {
    assert.equal(run({ type: 'act' }).did, 'hold'); // nothing shown
    const s = run({ type: 'tap', at: 0 }, { type: 'landed', at: 10 }, { type: 'act' });
    assert.equal(s.did, 'act');
    assert.equal(s.phase, 'follow-up');
    assert.equal(next(s, { type: 'act' }).did, 'skip');
  });

  it("a follow-up's refusal leaves the roll shown and usable", () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'landed', at: 10 }, { type: 'act' }, { type: 'refused' });
    assert.equal(s.phase, 'landed');
    assert.ok(live(s));
  });

  it('a refused roll makes the last outcome stale until the form changes', () => {
    let s = run({ type: 'tap', at: 0 }, { type: 'landed', at: 10 }, { type: 'tap', at: 5000 }, { type: 'refused' });
    assert.ok(stale(s));
    assert.equal(next(s, { type: 'act' }).did, 'hold');
    s = next(s, { type: 'edit', path: 'pool' });
    assert.equal(s.phase, 'landed');
    assert.ok(!stale(s));
  });
});

describe('what the player types wins', () => {
  it('each write counts a revision; an answer for an older one is not current', () => {
    const asked = run({ type: 'edit', path: 'pool' }).revision;
    const s = run({ type: 'edit', path: 'pool' }, { type: 'edit', path: 'again' });
    assert.ok(!current(s, asked));
    assert.ok(current(s, s.revision));
    assert.ok(!current(next(s, { type: 'fill' }), s.revision)); // a sheet's fill is a write too
  });

  it('an answer writes no field the player touched since it was asked', () => {
    const s0 = run({ type: 'edit', path: 'type1' });
    const asked = s0.revision; // the tap
    const s = next(next(s0, { type: 'edit', path: 'masteries' }), { type: 'fill' });
    assert.ok(!mayWrite(s, 'masteries', asked));
    assert.ok(mayWrite(s, 'type1', asked)); // touched before the question: the answer knew it
    assert.ok(mayWrite(s, 'will', asked)); // never touched
  });

  it("a field inside a list or a group is its request key's", () => {
    const s = run({ type: 'edit', path: 'threats[1].name' });
    assert.ok(!mayWrite(s, 'threats', 0));
    assert.ok(mayWrite(s, 'threat', 0)); // a key that only starts alike
    assert.ok(!mayWrite(run({ type: 'edit', path: 'opposed.trait' }), 'opposed', 0));
    assert.ok(!mayWrite(run({ type: 'edit', path: '' }), 'pool', 0)); // a row added: every field is the player's
  });

  it('typing does not move the tap under way', () => {
    const s = run({ type: 'tap', at: 0 }, { type: 'edit', path: 'pool' });
    assert.equal(s.phase, 'rolling');
  });
});

it('an unknown event is refused by name', () => {
  assert.throws(() => next(initial(), { type: 'nope' }), /unknown form event nope/);
});
