// main.js wires the parts: the Pyodide client (the one door to the rules), each form's Procedure (roll/controller.js:
// its request, odds, roll, follow-ups and dice), the tabs, the engine's loading (ready or failed) and the extensions
// (the table, the offline copy). It holds no rules: every number shown comes from arbiter.api in the worker.
import { arbiter } from './engine/client.js';
import './offline/install.js'; // the browser's install prompt comes once, early: for the Table's Install (issue 23)
import { TablePort } from './port.js';
import { Procedure } from './roll/controller.js';
import { percent } from './procedures/view-parts.js';
import { startSettings, yourName } from './settings.js';
import { Tabs, buildText } from './roll/tabs.js';
import { Views, parseHash } from './views.js';
import { SEEN, closeOver, returned } from './back.js';
import { peers } from './live/peers.js';

// First, let the browser finish its own work once the page is parsed (DOMContentLoaded: it looks through the forms,
// for autofill) in this task: everything below runs in tasks of its own, so none makes the page stop answering.
await new Promise((resolve) => setTimeout(resolve, 0));

const SPEC = JSON.parse(document.getElementById('arbiter-systems').textContent); // id → systems() entry

// --- loading ---------------------------------------------------------------------------------------------------
let pageReady = null; // resolves once the engine and the table are ready (rejects if the engine failed to load)
function watchLoading(extensions) {
  const status = document.getElementById('status');
  const label = document.getElementById('load-label'); // loading.js keeps it, and the bar, while loading
  const retry = document.getElementById('load-retry');
  // Roll waits for the table too, so the roll log and character sheets see every roll.
  // Roll is enabled from the first paint: a roll tapped before then waits for `pageReady` (Procedure.waitForEngine).
  const rollable = (yes) => {
    // every form's Roll: each Procedure (and its tab) is built for it
    for (const proc of Object.values(procs)) proc.form.querySelector('[data-roll]').disabled = !yes;
  };
  const waitReady = () =>
    (pageReady = Promise.all([arbiter.ready, extensions.catch(() => {})])).then(
      () => {
        status.dataset.state = 'ready';
        label.textContent = 'Rules engine ready.';
        document.body.dataset.ready = '';
        for (const wait of document.querySelectorAll('[data-wait]')) wait.remove();
        for (const proc of built.values()) proc.refreshOddsIfShown(); // one built later asks for itself
      },
      (error) => {
        status.dataset.state = 'failed';
        label.textContent = `The rules engine failed to load: ${error.message}`;
        retry.hidden = false;
        rollable(false);
      },
    );
  retry.addEventListener('click', () => {
    retry.hidden = true;
    status.dataset.state = 'loading';
    label.textContent = 'Loading the rules engine…';
    arbiter.retry();
    waitReady();
    rollable(true);
  });
  waitReady();
}

// Start-up is cut into short tasks, so the page never stops answering while it loads (the benchmark and Lighthouse
// count tasks over 50 ms): the shown tab, then its Procedures a task each, then the table and offline parts. Every
// other Procedure (its panel, form and dice tray) is built the first time anything asks for it: its tab shown, a
// link, the table.
const procs = {};
const built = new Map(); // system → its Procedure, once made
const tabs = new Tabs(SPEC);
// What each Procedure is handed: the client, and what a roll tapped early waits for (read then: a retry makes a new
// one).
// (Persistent storage, once asked here at the first roll, is the table's to ask now: table/keeping.js.)
// The table's port (port.js): filled in by the table once its store opens; every Procedure is handed it.
const port = new TablePort({ built: () => [...built.values()] });
const handed = { arbiter, table: port, ready: () => pageReady };
for (const system of Object.keys(SPEC)) {
  Object.defineProperty(procs, system, {
    enumerable: true,
    get: () => {
      if (!built.has(system)) {
        built.set(system, new Procedure(tabs.form(system), { ...handed, spec: SPEC[system] }));
        port.built(built.get(system)); // the table's "Rolling as", and the sheet's numbers after a reload
      }
      return built.get(system);
    },
  });
}
const showTab = (tab) =>
  tabs.show(tab, (system) => {
    // its Procedure built, and its odds asked if they were owed
    const proc = procs[system];
    if (proc.oddsOwed && 'ready' in document.body.dataset) proc.refreshOddsIfShown();
  });
// The views (views.js): the address names one, and the procedure shown in Roll with its form.
const views = new Views();
const SYSTEMS = Object.keys(SPEC);
const firstSystems = [];
/** Show what the address `hash` names. `back`: Back or Forward returned to an entry the page made or routed before
 * (back.js' SEEN): its view and procedure are shown, and the form keeps what the player typed since, its numbers in
 * the address again; a new address (the first, a link, one typed) fills the form and is marked seen. */
function route(hash, touch = showTab, back = false) {
  const at = parseHash(hash, SYSTEMS);
  if (at.view === 'roll' && !back) Tabs.fillFrom(at, procs);
  if (at.shared) {
    // a roll or a table shared by link: the table's Shared panel reads it (now, or once the table has started)
    port.shared(at.shared);
  }
  if (at.live) {
    // a live table's code (issue 32): taken now, even before the table is drawn; the address forgets it (a reload
    // must not take it again)
    peers.opened(at.live);
    history.replaceState(SEEN, '', '#table');
  }
  const tab = at.system ? tabs.tabOf(at.system) : (tabs.shown ?? tabs.tabOf(SYSTEMS[0])); // Roll keeps its procedure
  if (tab !== tabs.shown || at.view === 'roll') touch(tab);
  views.show(at.view);
  if (back && at.system) history.replaceState(SEEN, '', Tabs.hashOf(procs[at.system]));
  else if (!at.live) history.replaceState(SEEN, '', location.href);
}
route(location.hash, (tab) => tabs.show(tab, (system) => firstSystems.push(system))); // its Procedures below
tabs.wire(procs, (tab) => {
  showTab(tab);
  views.show('roll');
});
views.wire(
  (view, focus) => {
    if (view === 'roll') showTab(tabs.shown);
    views.show(view, { focus });
  },
  () => Tabs.hashOf(procs[tabs.shown]), // a tab is named after its procedure
);
// Back and Forward, a link, a typed address; Back first closes what is open over the view (back.js)
addEventListener('popstate', () => closeOver() || route(location.hash, showTab, returned()));
addEventListener('hashchange', () => route(location.hash, showTab, returned()));
/** Show procedure `system` in the Roll view (the table's Fill, "Use a Scheme die"): its address pushed when the view
 * or the procedure changes, so Back returns to where the player was. */
function showProcedure(system) {
  const tab = tabs.tabOf(system);
  const moved = views.current !== 'roll' || tabs.shown !== tab;
  showTab(tab);
  const hash = Tabs.hashOf(procs[system]);
  if (moved && location.hash !== hash) history.pushState(SEEN, '', hash);
  else history.replaceState(SEEN, '', hash);
  views.show('roll');
}
startSettings();
peers.nameOf = yourName; // a live table's peers are named by Settings' "Your name"
// The rulings (index.html) are parsed into the page the first time they are opened, not with the page.
document
  .getElementById('rulings')
  ?.addEventListener('toggle', () => buildText(document.getElementById('rulings-text')), { once: true });
// What the table is handed of the page (no table function: the forms reach the table through their port): the
// Procedures (built when first asked for), those built so far, and showing one in the Roll view. The same object is
// window.arbiterPage for the tests, a hook nothing in static/ reads back.
const page = (window.arbiterPage = { procs, built: () => [...built.values()], percent, showTab: showProcedure });

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const afterFirstFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
// Extensions hook in here, each one import and one call: table state (sheets, pools, log) and offline support.
// They wait for the engine to settle (ready, or failed): while Python starts in its worker it keeps a core busy, and
// on a phone of few cores any work here would then take several times as long; and every rule the table applies is
// the engine's anyway (a roll waits for the table too, so the log sees every roll).
const extensions = (async () => {
  await afterFirstFrame();
  await arbiter.ready.catch(() => {});
  const { startTable } = await import('./table/index.js');
  await nextTask(); // its code evaluated in one task, started in the next
  const drawn = startTable({ ...page, port, peers }, arbiter, SPEC);
  // The offline copy once the table is drawn: the service worker's download of the build (and its check of every
  // file's hash) then keeps a core busy while the page has nothing left to do.
  drawn
    .then(() => import('./offline/offline.js')) // registers the service worker and offers "New version — reload"
    .catch((error) => console.error(error));
})();
extensions.catch((error) => console.error(error));
watchLoading(extensions);
for (const system of firstSystems) {
  await nextTask();
  void procs[system];
}
// Taps on Roll before this module ran, kept by the page's first script (boot.js): rolled now.
for (const system of new Set(self.arbiterEarlyRolls ?? [])) procs[system]?.doRoll();
self.arbiterEarlyRolls = null;
// Python starts once the shown forms are drawn (engine/client.js): its start keeps a core or two busy for a second.
await afterFirstFrame();
arbiter.go();
