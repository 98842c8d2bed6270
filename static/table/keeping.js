// Where the table lives and how safe it is, at the top of the Table: "Kept on this phone" (persistent storage granted,
// or Arbiter installed), else the warning that the browser may clear it, with how to install Arbiter here; in memory
// only, that nothing lasts past the page; a table a newer Arbiter saved (store.js' NEWER_LAYOUT), to reload, and on
// every form, before a roll, that nothing is kept until then. The last backup's date (the store's meta record), a reminder once a backup
// is due (backup.js), and "Save a backup": the whole table's file (file.js' exportTable), shared where the browser
// shares files, else downloaded.
//
// Persistent storage is asked for at the first roll or the first character saved, never as the page loads (Firefox
// asks the player then).

import { canPrompt, installPlace, isInstalled, onInstallChange, promptInstall } from '../offline/install.js';
import { backupState } from '../store/backup.js';
import { download, h } from '../dom.js';
import { exportTable } from '../store/file.js';
import { fmtDate, plural } from '../store/words.js';

const SAID = {
  kept: 'Kept on this phone.',
  'may-clear':
    'This browser may clear the table if Arbiter is not opened for a week: ' +
    'install it to your home screen, or save a backup.',
  memory: 'This browser keeps nothing after the page closes: the table works until then. Save a backup to keep it.',
  newer:
    'Saved by a newer version of Arbiter: reload the page to update. Until then this page keeps nothing it does, ' +
    'rolls included; the saved table stays as it is.',
};
// at the top of every form while nothing is kept because a newer Arbiter saved the table: said before the roll
const NOT_KEPT = 'Not kept: a newer Arbiter saved this table. Reload the page to update before rolling.';
const HOW_TO_INSTALL = {
  ios: 'To install on an iPhone or iPad: tap Share, then Add to Home Screen.',
  menu: 'To install: open your browser’s menu, then Install app or Add to Home screen.',
};

export class Keeping {
  constructor(table) {
    this.t = table;
    this.persisted = false; // whether the browser keeps the table until the player clears it (storage.persisted)
    this.asked = false; // persist() asked for, this page
  }

  /** Once the store is open: what the browser already grants (asking nothing), and what changes it. */
  start() {
    const { store } = this.t;
    onInstallChange(() => this.t.render('keeping'));
    navigator.storage
      ?.persisted?.()
      .then((persisted) => {
        this.persisted = persisted === true;
        this.t.render('keeping');
      })
      .catch(() => {});
    store.subscribe((ids) => {
      const has = (test) => ids === 'all' || [...ids].some(test);
      if (has((id) => id === 'meta' || id.startsWith('log:'))) this.t.render('keeping');
      if (has((id) => id === 'problems')) this.t.render('alerts'); // a write refused for lack of space, or one landed
      if (ids !== 'all' && [...ids].some((id) => /^(log|char):/.test(id) && store.records.has(id))) this.askToKeep();
    });
  }

  /** Ask the browser to keep the table (a roll or a character was just saved): once a page, only if it may clear it. */
  askToKeep() {
    if (this.asked || this.persisted || !this.t.store.backend.persistent || !navigator.storage?.persist) return;
    this.asked = true;
    navigator.storage
      .persist()
      .then((persisted) => {
        this.persisted = persisted === true;
        this.t.render('keeping');
      })
      .catch(() => {});
  }

  /** 'kept', 'may-clear', 'memory', or 'newer' (a newer Arbiter's table, shown from a copy: nothing is kept). */
  where() {
    if (this.t.store.problems.some((p) => p.kind === 'newer-layout')) return 'newer';
    if (!this.t.store.backend.persistent) return 'memory';
    return this.persisted || isInstalled() ? 'kept' : 'may-clear';
  }

  view() {
    const { store } = this.t;
    const where = this.where();
    const rolls = store
      .list('log:')
      .filter(([, e]) => e.kind === 'roll')
      .map(([, e]) => e.time);
    const backup = backupState(store.get('meta'), rolls);
    return [
      h('p', { class: `keeping-where ${where}`, 'data-keeping': where }, SAID[where]),
      where === 'may-clear' ? this.howToInstall() : null,
      h(
        'p',
        { class: 'muted', 'data-backup-last': backup.last ?? '' },
        backup.last ? `Last backup: ${fmtDate(backup.last)}.` : 'No backup saved yet.',
      ),
      backup.due ? h('p', { class: 'reminder', 'data-backup-due': '' }, reminder(backup)) : null,
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', 'data-k': 'keeping:backup', onclick: () => this.saveBackup() }, 'Save a backup'),
      ),
    ];
  }

  /** NOT_KEPT at the top of each built form while the table is a newer Arbiter's (a form built later says it too). */
  showOnForms() {
    if (this.where() !== 'newer') return;
    for (const proc of this.t.page.built()) {
      if (proc.form.querySelector(':scope > [data-not-kept]')) continue;
      const line = h('p', { class: 'reminder', 'data-not-kept': '', role: 'note' }, NOT_KEPT);
      const title = proc.form.querySelector(':scope > h2');
      if (title) title.after(line);
      else proc.form.prepend(line);
    }
  }

  howToInstall() {
    if (canPrompt()) {
      return h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', 'data-k': 'keeping:install', onclick: () => this.install() }, 'Install Arbiter'),
      );
    }
    return h('p', { class: 'muted', 'data-install': installPlace() }, HOW_TO_INSTALL[installPlace()]);
  }

  async install() {
    const accepted = await promptInstall();
    this.t.say(accepted ? 'Arbiter is installing to your home screen.' : 'Not installed.');
    this.t.render('keeping');
  }

  /** The whole table as a file: shared where the browser shares files (to Files, Drive, a message), else
   * downloaded; then its time is kept as the last backup's. Shared at once: the browser shares only during the tap. */
  async saveBackup() {
    const { store } = this.t;
    const table = exportTable(store);
    const name = `arbiter-table-${table.exported.slice(0, 10)}.json`;
    const text = JSON.stringify(table, null, 1);
    const file = typeof File === 'function' ? new File([text], name, { type: 'application/json' }) : null;
    let said = 'Backup saved to your downloads.';
    if (file && navigator.canShare?.({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: name });
        said = 'Backup saved.';
      } catch (error) {
        if (error?.name === 'AbortError') {
          this.t.say('No backup saved: sharing was cancelled.');
          return;
        }
        download(name, 'application/json', text); // sharing refused (not the player): a download instead
      }
    } else {
      download(name, 'application/json', text);
    }
    try {
      await store.update('meta', (meta) => ({ ...meta, backup: table.exported }));
      this.t.say(said);
    } catch (error) {
      this.t.say(`${said} Its date could not be kept: ${error.message}`, true);
    }
  }
}

/** Why a backup is due, in a player's words: the rolls, the days, or both. */
function reminder({ last, rolls, days, over }) {
  const what = [over.rolls ? plural(rolls, 'roll') : null, over.days ? plural(days, 'day') : null];
  const since = last ? 'since the last backup' : 'since this table was started, and no backup yet';
  return `Time to save a backup: ${what.filter(Boolean).join(' and ')} ${since}.`;
}
