// The picker's tabs, one per procedure: which panel shows in the Roll view, each panel built the first time it is
// needed, and the address that names the shown procedure and its form (so a Host can share "roll this"; views.js
// holds the address's grammar). page.py sends every panel but the first as the text of a <script type="text/html"
// data-later>: the browser reads it with the page but makes no node of it (no parse into elements, no style, no
// layout, no autofill scan) until the panel is shown or one of its procedures is asked for.
import { fillForm } from './forms.js';
import { notices } from '../port.js';
import { SEEN } from '../back.js';

/** Put in place of `script` (a <script type="text/html">) the elements its text holds: the page's parts sent as text
 * (a hidden tab's panel, the rulings) are parsed only when first needed. */
export function buildText(script) {
  const parsed = document.createElement('template');
  parsed.innerHTML = script.textContent;
  script.replaceWith(parsed.content);
}

/** The Procedures' tabs over `spec` (id → systems() entry); `procs` builds a Procedure of a form (main.js). */
export class Tabs {
  constructor(spec) {
    this.spec = spec;
  }

  /** The tab a procedure's form sits in, as systems() declares it (its own). */
  tabOf(system) {
    return this.spec[system]?.tab ?? system;
  }

  /** The panel of `tab`, its forms built. */
  panel(tab) {
    const panel = document.getElementById(`panel-${tab}`);
    if (panel && panel.dataset.built === undefined) {
      panel.dataset.built = '';
      const later = panel.querySelector(':scope > script[data-later]');
      if (later) buildText(later);
    }
    return panel;
  }

  /** The form of procedure `system`, its panel built. */
  form(system) {
    return this.panel(this.tabOf(system))?.querySelector(`form[data-system="${system}"]`) ?? null;
  }

  /** Show `tab`'s panel (built) and hide the others; the tab is marked selected. `touch(system)` for each of its
   * procedures (main.js builds their Procedures). */
  show(tab, touch) {
    this.shown = tab;
    for (const a of document.querySelectorAll('nav.tabs a')) {
      const on = a.dataset.tab === tab;
      a.setAttribute('aria-selected', String(on));
      a.tabIndex = on ? 0 : -1;
    }
    for (const panel of document.querySelectorAll('section.panel')) panel.hidden = panel.dataset.panel !== tab;
    this.panel(tab);
    for (const system of Object.keys(this.spec)) if (this.tabOf(system) === tab) touch(system);
    notices.dispatchEvent(new Event('tab')); // the table's new character's kind
  }

  /** The address of `proc`'s form: only what differs from its defaults, so a link stays short. */
  static hashOf(proc) {
    const changed = Object.entries(proc.request()).filter(
      ([name, value]) => JSON.stringify(value) !== JSON.stringify(proc.spec.defaults[name]),
    );
    return changed.length
      ? `#${proc.system}=${encodeURIComponent(JSON.stringify(Object.fromEntries(changed)))}`
      : `#${proc.system}`;
  }

  /** An edit of `proc`'s form: the address replaced (history keeps one entry per view, not one per keystroke) while
   * the form is on screen (the navigation's Roll link goes back to it: views.js). */
  static writeHash(proc) {
    if (proc.form.offsetParent !== null) {
      history.replaceState(SEEN, '', Tabs.hashOf(proc));
    }
  }

  /** Fill the form an address names (views.parseHash's `at`) from its FORM; a bad link leaves the form as it was. */
  static fillFrom(at, procs) {
    const proc = at.system && procs[at.system];
    if (!proc || !at.form) return;
    try {
      fillForm(proc.form, proc.spec.fields, JSON.parse(decodeURIComponent(at.form)));
    } catch {
      /* a bad link leaves the form as it was */
    }
  }

  /** The picker's tabs answer a tap (the procedure's address pushed: Back returns to the one before) and the arrow
   * keys (to the next or previous tab). */
  wire(procs, show) {
    for (const a of document.querySelectorAll('nav.tabs a')) {
      a.addEventListener('click', (event) => {
        event.preventDefault();
        show(a.dataset.tab);
        const hash = Tabs.hashOf(procs[a.dataset.tab]);
        if (location.hash !== hash) history.pushState(SEEN, '', hash);
      });
      a.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
        const tabs = [...document.querySelectorAll('nav.tabs a')];
        const next = tabs[(tabs.indexOf(a) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
        next.focus();
        next.click();
      });
    }
  }
}
