// The page's three views, as a phone app has them: Roll (the picker and one procedure's form), Table and Log, each
// with its place in the address, and the bottom navigation between them. On a phone one view is on screen at a time
// (style.css hides the others); a wide screen shows them all, and the navigation's links then jump to them.
//
// One grammar for the address (the fragment, which never reaches a server):
//   #ID or #ID=FORM   the Roll view of procedure ID, its form filled from FORM (the JSON of the fields that differ from
//                     their defaults, URI-encoded): links made before the views keep working
//   #table, #log      the Table and the Log
//   #roll             the Roll view of the procedure shown last (the first one's on a first visit)
//   #r=LINK, #t=LINK  a roll, or a table's shared state, shared by link (issue 22): the Table view, its Shared panel
//                     showing what LINK holds once the engine has read it (table/received.js)
//   #j=CODE, #a=CODE  a live table's join code (the Host's, for a player) and a player's answer to it (issue 32): the
//                     Table view, its live table taking the code (live/peers.js)
// The words of the views, and "settings", "r", "t", "j" and "a", are no procedure's id: the engine's registry refuses them
// (arbiter.procedures.RESERVED_IDS). Changing view pushes an entry into the history, so Back
// moves between views; editing a form only replaces the address (tabs.js).

import { notices } from './port.js';
import { SEEN } from './back.js';

/** The views, in the navigation's order. */
export const VIEWS = ['roll', 'table', 'log'];

/** The words of the address that open something shared by link: a roll, a table's shared state. */
export const SHARED = { r: 'roll', t: 'table' };

/** The words of the address that open a live table's code: the Host's join code, a player's answer (live/signal.js). */
export const LIVE = ['j', 'a'];

/** What an address's fragment names: {view: 'table' | 'log'}, {view: 'table', shared: {kind: 'roll' | 'table',
 * link}} (`link` the text after "=", as the engine reads it), {view: 'table', live: {word: 'j' | 'a', text}} (a live
 * table's code), or {view: 'roll', system, form} (`system` null for
 * #roll and an empty or unknown fragment; `form` the FORM text, still encoded, or null). */
export function parseHash(hash, systems) {
  const m = /^#([a-z][a-z0-9_]*)(?:=(.*))?$/s.exec(hash); // an id may hold digits (a d20 procedure)
  if (!m) return { view: 'roll', system: null, form: null };
  const [, word, form] = m;
  if (Object.hasOwn(SHARED, word) && form !== undefined)
    return { view: 'table', shared: { kind: SHARED[word], link: form } };
  if (LIVE.includes(word) && form !== undefined) return { view: 'table', live: { word, text: form } };
  if (VIEWS.includes(word) && word !== 'roll') return { view: word };
  return {
    view: 'roll',
    system: systems.includes(word) ? word : null,
    form: systems.includes(word) ? (form ?? null) : null,
  };
}

/** The views and their navigation; `show(view)` is told each change (main.js builds what the view needs). */
export class Views {
  constructor() {
    this.current = 'roll';
    this.nav = [...document.querySelectorAll('nav.views a[data-view]')];
  }

  /** Put `view` on screen: it is marked current (style.css hides the others on a phone), its link in the navigation
   * too, and the page goes back to its top, its heading focused for a screen reader when `focus`. */
  show(view, { focus = false } = {}) {
    const changed = view !== this.current;
    this.current = view;
    document.body.dataset.view = view;
    for (const section of document.querySelectorAll('main > .view')) {
      section.toggleAttribute('data-current', section.dataset.view === view);
    }
    for (const a of this.nav) {
      if (a.dataset.view === view) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    if (changed && this.phone()) scrollTo({ top: 0, behavior: 'instant' });
    if (focus) document.querySelector(`main > .view[data-view="${view}"] h2[tabindex]`)?.focus({ preventScroll: true });
    notices.dispatchEvent(new Event('view')); // the view shown: document.body.dataset.view
  }

  /** Whether one view is on screen at a time (the navigation is shown: a phone or a narrow window). */
  phone() {
    return this.nav.length > 0 && getComputedStyle(this.nav[0].parentElement).display !== 'none';
  }

  /** A tap on a view's link: its address pushed (Back comes back here; Roll's is `rollHash()`, the procedure shown
   * last with its form), then `go(view)`. */
  wire(go, rollHash) {
    for (const a of this.nav) {
      a.addEventListener('click', (event) => {
        event.preventDefault();
        const view = a.dataset.view;
        if (view === this.current && this.phone()) return;
        const hash = view === 'roll' ? rollHash() : `#${view}`;
        if (location.hash !== hash) history.pushState(SEEN, '', hash);
        go(view, true);
        if (!this.phone()) document.querySelector(`main > .view[data-view="${view}"]`)?.scrollIntoView();
      });
    }
  }
}

/** The page's own address with `word`=`fragment` as its fragment: what another phone opens (a shared roll `r`, a
 * table `t`, a live table's codes `j` and `a`). */
export const linkTo = (word, fragment) => `${location.origin}${location.pathname}#${word}=${fragment}`;
