// Save and restore: the whole table saved as one file (a backup: keeping.js'), a file imported in its place once
// every field is checked (file.js) and the rules have had their say, and the kept-aside copies of stored data this
// version could not use.

import { pick } from '../store/data.js';
import { download, h } from '../dom.js';
import { APP, parseTableFile, placeWords } from '../store/file.js';
import { struggleOf } from './struggles.js';
import { fmtTime, plural } from '../store/words.js';

export class Save {
  constructor(table) {
    this.t = table;
    this.report = null; // the file being imported: {message, errors | table, done}
  }

  view() {
    const { store } = this.t;
    const asides = store.list('aside:');
    const file = h('input', {
      type: 'file',
      accept: '.json,application/json',
      id: 'table-import',
      'data-k': 'save:file',
    });
    file.addEventListener('change', () => {
      const f = file.files[0];
      file.value = '';
      if (f) this.readImport(f);
    });
    const cancel = () => {
      this.report = null;
      this.t.ui.focus = 'save:file';
      this.t.render('save');
    };
    const report = this.report;
    return [
      h('h3', {}, 'Save and restore'),
      h(
        'p',
        { class: 'muted' },
        'A backup is the whole table in one file: keep it elsewhere, or import it on another device.',
      ),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            'data-k': 'save:export',
            'data-export': 'table',
            onclick: () => this.t.keeping.saveBackup(),
          },
          'Save a backup (the whole table)',
        ),
        h('label', { class: 'tf file' }, h('span', {}, 'Import a table file (replaces this table)'), file),
      ),
      report
        ? h(
            'div',
            {
              class: `import-report ${report.errors ? 'error' : ''}`,
              role: report.errors ? 'alert' : 'status',
              'data-import': report.errors ? 'refused' : report.done ? 'done' : 'ready',
            },
            h('p', {}, report.message),
            report.errors
              ? h(
                  'ul',
                  {},
                  report.errors.map((e) => h('li', {}, e)),
                )
              : null,
            report.table && !report.done
              ? h(
                  'div',
                  { class: 'row' },
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'danger',
                      'data-confirm': '',
                      'data-k': 'save:replace',
                      onclick: () => this.applyImport(),
                    },
                    'Replace this table',
                  ),
                  h('button', { type: 'button', 'data-k': 'save:cancel', onclick: cancel }, 'Cancel'),
                )
              : null,
          )
        : null,
      asides.length
        ? h(
            'div',
            { class: 'asides' },
            h('h4', {}, 'Kept-aside copies'),
            h(
              'p',
              { class: 'muted' },
              'Untouched copies of saved data this version could not use. ' +
                'Download one to keep it, or to import it into a newer Arbiter.',
            ),
            h(
              'ul',
              {},
              asides.map(([id, a]) => this.viewAside(id, a)),
            ),
          )
        : null,
    ];
  }

  viewAside(id, a) {
    const why =
      {
        newer: 'written by a newer version of Arbiter',
        replaced: 'replaced by a table shared by link',
      }[a.reason] ?? 'could not be read';
    return h(
      'li',
      { 'data-aside': id },
      `${fmtTime(a.at)}: ${why} · ${plural(a.records?.length ?? 0, 'record')} `,
      h(
        'button',
        { type: 'button', 'data-k': `aside:${id}:dl`, onclick: () => this.downloadAside(`aside:${id}`) },
        'Download',
      ),
      ' ',
      this.t.confirmable(`aside:${id}:del`, 'Delete…', 'Delete this kept-aside copy for good?', 'Delete the copy', () =>
        this.t.store.removeAside(`aside:${id}`),
      ),
    );
  }

  downloadAside(id) {
    const rec = this.t.store.records.get(id);
    if (rec) {
      download(
        `arbiter-kept-aside-${id.slice(6)}.json`,
        'application/json',
        JSON.stringify({ app: `${APP}-kept-aside`, ...rec.data }, null, 1),
      );
    }
  }

  async readImport(file) {
    let text;
    try {
      text = await file.text();
    } catch (error) {
      text = null;
      this.report = { errors: [error.message], message: `${file.name} could not be read.` };
    }
    if (text !== null) {
      const { table, errors } = parseTableFile(text);
      const all = errors ?? (await this.engineChecks(table));
      this.report = all.length
        ? { errors: all, message: `${file.name} was not imported: nothing changed. What is wrong:` }
        : {
            table,
            message:
              `${file.name}: ${plural(table.characters.length, 'character')}, ` +
              `${plural(table.struggles.length, 'struggle')}, ${plural(table.log.length, 'log entry', 'log entries')}, ` +
              `the Scheme at ${table.scheme.scheme}. Replace this device’s table with it?`,
          };
      this.t.ui.focus = all.length ? 'save:file' : 'save:replace';
    }
    this.t.render('save');
  }

  /** What only the rules can say: a struggle's count consistent with its status. (A sheet's limits across its
   * fields, Will's maximum, are its declaration's: parseTableFile checks them.) */
  async engineChecks(table) {
    const errors = [];
    const { arbiter } = this.t;
    const { system } = struggleOf(this.t.spec);
    for (const [i, s] of table.struggles.entries()) {
      try {
        const state = pick(s, ['target', 'accumulated', 'turns', 'status', 'contest']);
        await arbiter.table(system, 'struggle_reset', state, null);
      } catch (error) {
        // the engine's path names the struggle's state: said by the struggle's name and the field's label
        const field = /^state\.(.+)$/.exec(error.path ?? '')?.[1];
        const where = placeWords(`struggles[${i}]${field ? `.${field}` : ''}`, table);
        errors.push(field && error.says ? `${where} ${error.says}` : `${where}: ${error.says ?? error.message}`);
      }
    }
    return errors;
  }

  async applyImport() {
    const { table } = this.report ?? {};
    if (!table) return;
    try {
      await this.t.store.replaceTable(table);
      this.t.characters.selected = null;
      this.report = {
        done: true,
        message:
          `Imported: ${plural(table.characters.length, 'character')}, ` +
          `${plural(table.log.length, 'log entry', 'log entries')}.`,
      };
      this.t.say('The table was replaced by the imported file.');
    } catch (error) {
      this.report = { errors: [error.message], message: 'The import failed: nothing changed.' };
    }
    this.t.ui.focus = 'save:export';
    this.t.renderAll();
  }
}
