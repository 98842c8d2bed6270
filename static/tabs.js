// The tabs: which panel shows, each panel built the first time it is needed, and the URL hash that names the shown
// procedure and its form (so a Host can share "roll this"). page.py sends every panel but the first as the text of a
// <script type="text/html" data-later>: the browser reads it with the page but makes no node of it (no parse into
// elements, no style, no layout, no autofill scan) until the panel is shown or one of its procedures is asked for.
import { fillForm } from './forms.js';
import { keepBarsInPlace } from './reveal.js';

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

  /** The tab a procedure's form sits in, as systems() declares it (the Luck Roll beside the Threat Roll). */
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
      keepBarsInPlace(panel);
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
    for (const a of document.querySelectorAll('nav.tabs a')) {
      const on = a.dataset.tab === tab;
      a.setAttribute('aria-selected', String(on));
      a.tabIndex = on ? 0 : -1;
    }
    for (const panel of document.querySelectorAll('section.panel')) panel.hidden = panel.dataset.panel !== tab;
    this.panel(tab);
    for (const system of Object.keys(this.spec)) if (this.tabOf(system) === tab) touch(system);
    document.dispatchEvent(new CustomEvent('arbiter:tab', { detail: { tab } })); // the table's new character's kind
  }

  /** Write the shown procedure's form into the hash: only what differs from its defaults, so a link stays short. */
  static writeHash(proc) {
    const changed = Object.entries(proc.request()).filter(
      ([name, value]) => JSON.stringify(value) !== JSON.stringify(proc.spec.defaults[name]),
    );
    const hash = changed.length
      ? `#${proc.system}=${encodeURIComponent(JSON.stringify(Object.fromEntries(changed)))}`
      : `#${proc.system}`;
    history.replaceState(null, '', hash);
  }

  /** The tab the hash names (the first procedure's when none), after filling the form it names from it. */
  readHash(procs) {
    const m = /^#([a-z_]+)(?:=(.*))?$/.exec(location.hash);
    if (!m) return this.tabOf(Object.keys(this.spec)[0]);
    const [, system, payload] = m,
      proc = procs[system];
    if (proc && payload) {
      try {
        fillForm(proc.form, proc.spec.fields, JSON.parse(decodeURIComponent(payload)));
      } catch {
        /* a bad link leaves the form as it was */
      }
    }
    return this.tabOf(system);
  }

  /** Tabs answer a tap, the arrow keys (to the next or previous tab) and a changed hash. */
  wire(procs, show) {
    for (const a of document.querySelectorAll('nav.tabs a')) {
      a.addEventListener('click', (event) => {
        event.preventDefault();
        show(a.dataset.tab);
        Tabs.writeHash(procs[a.dataset.tab]);
      });
      a.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
        const tabs = [...document.querySelectorAll('nav.tabs a')];
        const next = tabs[(tabs.indexOf(a) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
        next.focus();
        next.click();
      });
    }
    addEventListener('hashchange', () => show(this.readHash(procs)));
  }
}
