// Alerts: storage that could not be used (a damaged or newer store kept aside, a read-only tab, a write refused for
// lack of space), each with what could not be read and its kept copy, until dismissed. A table in memory only is
// keeping.js' to say: it lasts as long as the page.

import { h } from '../dom.js';

export class Alerts {
  constructor(table) {
    this.t = table;
    this.dismissed = new Set(); // the problems dismissed (a problem that is over leaves the list)
  }

  view() {
    const { store } = this.t;
    const shown = store.problems.filter((p) => !this.dismissed.has(p) && p.kind !== 'unavailable');
    markTheTableLink(shown.length > 0);
    return store.problems.map((p, i) =>
      !shown.includes(p)
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

/** The Table's link in the bottom navigation marked while an alert is up: a write refused for lack of space during a
 * roll on the Roll view is said on the Table, which the player is not looking at. */
function markTheTableLink(on) {
  const link = document.querySelector('nav.views a[data-view="table"]');
  if (!link || on === link.hasAttribute('data-alert')) return;
  link.toggleAttribute('data-alert', on);
  link.querySelector('[data-nav-alert]')?.remove();
  if (on) {
    link.append(
      h(
        'span',
        { class: 'nav-alert', 'data-nav-alert': '' },
        h('span', { 'aria-hidden': 'true' }, '!'),
        h('span', { class: 'visually-hidden' }, ': needs attention'),
      ),
    );
  }
}
