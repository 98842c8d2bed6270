// Alerts: storage that could not be used (a damaged or newer store kept aside, a read-only tab, a write refused for
// lack of space), each with what could not be read and its kept copy, until dismissed. A table in memory only is
// keeping.js' to say: it lasts as long as the page.

import { h } from './dom.js';

export class Alerts {
  constructor(table) {
    this.t = table;
    this.dismissed = new Set(); // the problems dismissed (a problem that is over leaves the list)
  }

  view() {
    const { store } = this.t;
    return store.problems.map((p, i) =>
      this.dismissed.has(p) || p.kind === 'unavailable'
        ? null
        : h(
            'div',
            { class: 'banner table-alert', role: 'alert', 'data-problem': p.kind },
            h('p', {}, p.message),
            p.details
              ? h(
                  'details',
                  {},
                  h('summary', {}, 'What could not be read'),
                  h(
                    'ul',
                    {},
                    p.details.map((d) => h('li', {}, d)),
                  ),
                )
              : null,
            p.aside && store.records.has(p.aside)
              ? h(
                  'button',
                  { type: 'button', 'data-k': `alert:${i}:dl`, onclick: () => this.t.save.downloadAside(p.aside) },
                  'Download the kept copy',
                )
              : null,
            h(
              'button',
              {
                type: 'button',
                'data-k': `alert:${i}:x`,
                onclick: () => {
                  this.dismissed.add(p);
                  this.t.render('alerts');
                },
              },
              'Dismiss',
            ),
          ),
    );
  }
}
