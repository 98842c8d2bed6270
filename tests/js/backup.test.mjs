// static/store/backup.js: when the Table asks for a backup (table_spec()'s backup_after: rolls or days since the last
// backup, or since the table was made when it never was).

import './published.mjs';

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { backupState } from '../../static/store/backup.js';
import { BACKUP_AFTER } from '../../static/store/schema.js';

const DAY = 86400000;
const CREATED = '2026-11-01T12:00:00.000Z';
const at = (days) => new Date(Date.parse(CREATED) + days * DAY).toISOString();
const rolls = (n, day) => Array.from({ length: n }, () => at(day));

describe('backupState', () => {
  it('publishes its counts from Python: 50 rolls, 14 days', () => {
    assert.deepEqual(BACKUP_AFTER, { rolls: 50, days: 14 });
  });

  it('never backed up: counts from the table made on this device', () => {
    const meta = { schema: 7, created: CREATED };
    assert.deepEqual(backupState(meta, rolls(49, 1), Date.parse(at(13.9))), {
      last: null,
      rolls: 49,
      days: 13,
      over: { rolls: false, days: false },
      due: false,
    });
    assert.equal(backupState(meta, rolls(50, 1), Date.parse(at(2))).due, true);
    assert.equal(backupState(meta, [], Date.parse(at(14))).due, true);
  });

  it('backed up: only the rolls after it count, and the days since it', () => {
    const meta = { schema: 7, created: CREATED, backup: at(10) };
    const state = backupState(meta, [...rolls(70, 5), ...rolls(3, 11)], Date.parse(at(20)));
    assert.deepEqual(state, { last: at(10), rolls: 3, days: 10, over: { rolls: false, days: false }, due: false });
    const byRolls = backupState(meta, rolls(BACKUP_AFTER.rolls, 11), Date.parse(at(12)));
    assert.deepEqual([byRolls.over, byRolls.due], [{ rolls: true, days: false }, true]);
    const byDays = backupState(meta, [], Date.parse(at(10 + BACKUP_AFTER.days)));
    assert.deepEqual([byDays.over, byDays.due], [{ rolls: false, days: true }, true]);
  });

  it('a table with no meta yet asks for nothing', () => {
    assert.deepEqual(backupState(undefined, [], 0), {
      last: null,
      rolls: 0,
      days: 0,
      over: { rolls: false, days: false },
      due: false,
    });
  });
});
