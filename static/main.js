// main.js wires the parts: the Pyodide client (the one door to the rules), the forms, the canvas dice and
// the per-procedure views. It holds no rules: every number shown comes from arbiter.api in the worker.
import { arbiter } from './arbiter-client.js';
import { DiceTray } from './dice.js';
import { readForm, fillForm, wireForm, showError, clearErrors, inWords } from './forms.js';
import { h } from './dom.js';
import { VIEWS, percent } from './procedures.js';
import { outcomeLines } from './outcome.js';
import { reveal } from './reveal.js';
import { Tabs, buildText } from './tabs.js';

// First, let the browser finish its own work once the page is parsed (DOMContentLoaded: it looks through the forms,
// for autofill) in this task: everything below runs in tasks of its own, so none makes the page stop answering.
await new Promise((resolve) => setTimeout(resolve, 0));

const SPEC = JSON.parse(document.getElementById('arbiter-systems').textContent); // id → systems() entry
const ODDS_DELAY_MS = 120; // debounce: a burst of key presses asks for odds once
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

/** One procedure's form: its request, live odds, roll, follow-up choices and dice. */
class Procedure {
  constructor(form) {
    this.form = form;
    this.system = form.dataset.system;
    this.spec = SPEC[this.system];
    this.view = VIEWS[this.system];
    this.roll = null;
    this.oddsSeq = 0;
    this.oddsTimer = 0;
    this.ui = { selected: new Set(), pickedDie: null };
    this.tray = new DiceTray(form.querySelector('canvas[data-dice]'), { onTap: (i) => this.tap(i) });
    this.resultBox = form.querySelector('[data-result]');
    this.choiceBox = form.querySelector('[data-choices]');
    this.oddsBox = form.querySelector('[data-odds]');
    // a refused roll's reason, by Roll where the thumb is (clearErrors hides it with the fields' own)
    this.refusalBox = h('output', { class: 'field-error', 'data-roll-refusal': '', hidden: true });
    form.querySelector('[data-roll]').after(this.refusalBox);
    // the control a follow-up was taken with (a tap need not focus it), for its refusal to show by it
    this.choiceBox.addEventListener('click', (event) => { this.usedControl = event.target.closest(CONTROLS); }, true);
    this.oddsBox.open = matchMedia('(min-width: 52rem)').matches; // folded on a phone: headline odds by Roll
    this.resultBox.addEventListener('pointerdown', () => this.tray.skip()); // a tap on the words to come lands the dice
    wireForm(form);
    form.addEventListener('input', () => this.changed());
    form.addEventListener('change', () => this.changed());
    form.addEventListener('submit', (event) => { event.preventDefault(); this.doRoll(); });
    this.oddsOwed = true; // asked once the engine is ready and the form shown
    if ('ready' in document.body.dataset) this.refreshOddsIfShown();
  }

  request() { return readForm(this.form, this.spec.fields); }

  /** Show `error` (a refusal, or its words) in a player's words by its field, or clear it: `fromRoll` for a refused
   * roll, also said by Roll (and announced there), which a later odds answer keeps. */
  setError(error, fromRoll = false) {
    this.rollError = Boolean(error) && fromRoll;
    if (!error) return clearErrors(this.form);
    const words = inWords(error, this.spec.fields);
    if (!fromRoll || error.path) showError(this.form, words, error.path ?? null, fromRoll);
    else clearErrors(this.form);
    if (!fromRoll) return;
    Object.assign(this.refusalBox, { textContent: words, hidden: false });
    this.refusalBox.setAttribute('role', 'alert');
    this.refusalBox.scrollIntoView({ block: 'nearest' });
  }

  /** Fill the form from a request (a shared link, a character sheet) and refresh its odds. */
  fill(request) {
    fillForm(this.form, this.spec.fields, request);
    this.changed();
  }

  changed() {
    if (this.rollError) this.setError(null); // the player is changing the form the refusal was about
    Tabs.writeHash(this);
    clearTimeout(this.oddsTimer);
    this.oddsBox.dataset.stale = '';
    this.oddsTimer = setTimeout(() => this.refreshOdds(), ODDS_DELAY_MS);
  }

  /** Ask for the odds now if the form is shown, else when its tab is (showTab): a hidden form's table can wait. */
  refreshOddsIfShown() {
    this.oddsOwed = this.form.closest('[hidden]') !== null;
    if (!this.oddsOwed) this.refreshOdds();
  }

  async refreshOdds() {
    const seq = ++this.oddsSeq; // answers to older requests are dropped
    const request = this.request();
    try {
      const odds = await arbiter.odds(this.system, request);
      if (seq !== this.oddsSeq) return;
      if (!this.rollError) clearErrors(this.form); // a refused roll's message stays until the form changes
      this.oddsBox.querySelector('[data-odds-body]').replaceChildren(...this.view.odds(odds, request, this.spec));
      const [[label, p]] = Object.entries(odds.headline); // the main outcome's chance, as Python names it
      this.form.querySelector('[data-headline]').replaceChildren(`${label} `, h('strong', { 'data-p': p }, percent(p)));
      this.oddsBox.dataset.request = JSON.stringify(request);
      delete this.oddsBox.dataset.stale;
      this.recheck();
    } catch (error) {
      if (seq !== this.oddsSeq) return;
      // No chance beside Roll for a form the rules refuse (the last one shown was another form's)
      this.form.querySelector('[data-headline]').replaceChildren(
        h('span', { class: 'muted', 'data-no-odds': '' }, 'No odds: see ⚠ above'));
      if (!this.rollError) this.setError(error); // a refused roll's message stays until the form changes
    }
  }

  /** What the table would refuse as it stands, in one question to the engine (arbiter.api.check): a roll of the
   * form's request (a Scheme die from an empty Scheme, a Will with none left: said by Roll, quietly; a tap says it
   * aloud) and each choice of the shown roll (shown disabled, with the reason). Asked with the odds and whenever what
   * pays may have changed (page.recheck), but not again while nothing it reads changed: a tap's answer brings them. */
  async recheck() {
    const request = this.request();
    const roll = this.roll && !('waiting' in this.resultBox.dataset) ? this.roll : null; // its choices once landed
    const table = this.tableNow(request);
    const key = checkKey(request, roll, table);
    if (this.checked?.key !== key) {
      const value = table ? await arbiter.check(this.system, request, roll, table.state, table.choices)
        .catch((error) => { console.warn(error); return null; }) : { ahead: null, choices: [] };
      if (!value) return; // the choices stay offered; a tap asks again and shows a refusal
      if (key !== checkKey(this.request(), this.roll && !('waiting' in this.resultBox.dataset) ? this.roll : null,
        this.tableNow())) return; // stale: something changed meanwhile
      this.checked = { key, value };
    }
    this.showChecks(this.checked.value, roll);
  }

  /** What the table holds for a tap of this form: as the last tap's answer left it until the table has kept it. */
  tableNow(request = this.request()) {
    return this.pending ?? window.arbiterPage.tableFor(this.system, request);
  }

  /** Show what arbiter.api.check answered: the refusal ahead by Roll, and each choice of `roll` disabled or not. */
  showChecks({ ahead, choices }, roll) {
    if (!this.rollError && !('stale' in this.oddsBox.dataset)) {
      Object.assign(this.refusalBox, { textContent: ahead?.words ?? '', hidden: !ahead });
      this.refusalBox.removeAttribute('role');
    }
    if (!roll || roll !== this.roll) return;
    const refusals = new Map((roll.choices ?? []).map((c, i) => [c, choices[i] ?? null]));
    const before = this.ui.refusals;
    this.ui.refusals = refusals;
    // drawn again only when a refusal changed: a redraw under a player's tap (a threat's button) would lose it
    const words = (why) => [why].flat().map((w, i) => (w ? `${i}:${w.words}` : '')).filter(Boolean).join('|');
    if ([...refusals].some(([c, why]) => words(before?.get(c)) !== words(why))) this.renderChoices();
    else this.choiceBox.removeAttribute('data-checking');
  }

  async doRoll() {
    // A roll in flight ignores more presses, but Roll stays enabled: a disabled button loses the focus, and a second
    // Enter would then go nowhere.
    const button = this.form.querySelector('[data-roll]');
    if (this.rolling) return;
    this.rolling = true;
    button.setAttribute('aria-disabled', 'true');
    try {
      const request = this.request();
      if (!('ready' in document.body.dataset)) await this.waitForEngine();
      const answer = await this.turn({ request, choices: null }, request);
      const { roll } = answer;
      this.setError(null);
      this.ui = { selected: new Set(), pickedDie: null };
      this.show(roll, true);
      announce(this, roll, null, null, answer);
      requestPersistence();
    } catch (error) {
      this.stopWaiting();
      this.setError(error, true);
    } finally {
      this.rolling = false;
      button.removeAttribute('aria-disabled');
    }
  }

  /** One tap, one request: the roll of `step.request` (filled from a sheet by the table's choices) or the follow-up
   * `step.action`, paid from what the table holds (arbiter.api.turn). Throws, in a player's words, what the table
   * cannot pay (nothing is rolled then); else the answer, whose checks of what comes next are kept. */
  async turn(step, request = this.request()) {
    const table = window.arbiterPage.tableFor(this.system, request);
    if (step.request) step.choices = table?.choices ?? null;
    const answer = await arbiter.turn(this.system, step, table?.state ?? null);
    answer.sent = table?.state ?? null; // what was paid from, for the table to see whether it changed meanwhile
    if (answer.refused) throw new Error(answer.refused.words); // said by Roll or by the control, as any refusal
    this.earned = answer.earned; // an earlier step of this roll added a die to the Scheme: its follow-ups know
    const after = table && window.arbiterPage.tableAfter(table, answer);
    this.pending = after; // until the table has kept the answer (page.kept)
    // the form once the sheet fills it again (the fields it fills, over the rest)
    this.checked = { key: checkKey({ ...request, ...answer.refill }, answer.roll, after), value: answer.checks };
    return answer;
  }

  /** A roll tapped before the engine and the table are ready: systems()' waiting_dice tumble at once until they are. */
  async waitForEngine() {
    const { count, sides } = this.spec.waiting_dice;
    this.tray.wait(Array.from({ length: count }, () => ({ face: 1, sides })));
    this.waiting = true;
    this.makeRoom();
    await pageReady;
  }

  /** Dice that waited for a roll that did not come (refused, or the engine failed): gone, with the words' room. */
  stopWaiting() {
    if (this.waiting) this.tray.clear();
    this.waiting = false;
    delete this.resultBox.dataset.waiting;
  }

  async act(action) {
    const used = controlKey(this.choiceBox);
    const control = this.usedControl;
    try {
      const answer = await this.turn({ roll: this.roll, action, earned: this.earned });
      const next = answer.roll;
      this.ui = { selected: new Set(), pickedDie: null };
      const previous = this.roll;
      const shown = this.show(next, true, true); // only the dice the follow-up added or rolled again move
      announce(this, next, action, previous, answer);
      if (!await shown) return; // a later roll took its place while its dice tumbled
      if (used && !this.choiceBox.contains(document.activeElement)) refocus(this.choiceBox, used, this.tray.canvas);
    } catch (error) {
      // said by the control used, in a player's words; one refusal at a time
      for (const old of this.choiceBox.querySelectorAll('p.field-error[role=alert]')) old.remove();
      const why = h('p', { class: 'field-error', role: 'alert' }, inWords(error, this.spec.fields));
      const at = control && this.choiceBox.contains(control) ? control.closest('[data-choice], li') : null;
      if (at) at.append(why);
      else this.choiceBox.prepend(why);
      why.scrollIntoView({ block: 'nearest' });
    }
  }

  /** Show a roll: its dice tumble, and its words and choices come once they land (at once when no die moves), never
   * over dice still showing other faces. Resolves true once they are shown, false if a later roll took its place. */
  show(roll, animate, changed = false) {
    this.roll = roll;
    const dice = this.view.dice(roll, this.ui, this.spec);
    const landed = this.tray.show(dice, { animate: animate && !reducedMotion.matches, changed });
    this.waiting = false;
    if (this.tray.canvas.dataset.state !== 'rolling') return Promise.resolve(this.words(roll));
    this.makeRoom();
    return landed.then(() => this.roll === roll && this.words(roll));
  }

  /** The last roll's result and choices go while dice tumble; the words' room stays, in view with the dice. */
  makeRoom() {
    this.resultBox.replaceChildren();
    delete this.resultBox.dataset.outcome;
    delete this.resultBox.dataset.tone;
    this.resultBox.dataset.waiting = '';
    this.choiceBox.replaceChildren();
    reveal(this.form.parentElement, this.tray.canvas, this.resultBox); // the dice and the words' room
  }

  /** The roll's words (outcome, steps) and its follow-up choices, under the landed dice. */
  words(roll) {
    delete this.resultBox.dataset.waiting;
    this.resultBox.dataset.outcome = roll.outcome;
    this.resultBox.dataset.tone = roll.tone;
    this.resultBox.replaceChildren(...outcomeLines(roll));
    this.renderChoices();
    this.recheck();
    reveal(this.form.parentElement, this.tray.canvas, this.resultBox, this.choiceBox);
    return true;
  }

  renderChoices() {
    const refusals = this.ui.refusals;
    const focused = controlKey(this.choiceBox);
    this.choiceBox.replaceChildren(...this.view.choices(this.roll, this.ui, { // (a view's null: nothing to offer)
      act: (action) => this.act(action),
      redraw: () => { this.tray.update(this.view.dice(this.roll, this.ui, this.spec)); this.renderChoices(); },
      spec: this.spec,
      situation: window.arbiterPage.situation(this.system),
      refusal: (choice) => refusals?.get(choice) ?? null,
      oddsAfter: (action) => arbiter.oddsAfter(this.system, this.roll, action),
    }).filter(Boolean));
    this.choiceBox.toggleAttribute('data-checking', !refusals);
    if (focused) refocus(this.choiceBox, focused, null);
  }

  tap(index) {
    if (!this.roll || !this.view.tap) return;
    this.view.tap(this.roll, this.ui, index);
    this.tray.update(this.view.dice(this.roll, this.ui, this.spec));
    this.renderChoices();
  }
}

// --- the focus through a follow-up: the choices are drawn anew, so the control used is found again by its place --
const CONTROLS = 'button, input, select, textarea, summary, a[href]';
// A control's place: its choice, its option, its kind; its rank among the controls of the same place tells it apart.
const placeOf = (c) => [c.closest('[data-choice]')?.dataset.choice, c.dataset.option, c.tagName, c.type].join('|');
const like = (box, place) => [...box.querySelectorAll(CONTROLS)].filter((c) => placeOf(c) === place);

/** Where the focused control sits in `box`, or null when the focus is elsewhere. */
function controlKey(box) {
  const el = document.activeElement;
  if (!el || !box.contains(el) || !el.matches(CONTROLS)) return null;
  const place = placeOf(el);
  return { place, rank: like(box, place).indexOf(el) };
}

/** Focus the control in `box` at that place and rank, if it is there and enabled; else focus `fallback`. */
function refocus(box, { place, rank }, fallback) {
  const el = like(box, place)[rank];
  (el && !el.disabled ? el : fallback)?.focus({ preventScroll: true });
}

/** What a check of the table depends on: the form's request, the shown roll, what the table holds for it. */
const checkKey = (request, roll, table) => JSON.stringify([request, roll, table]);

/** Tell the rest of the page (the roll log, character sheets) about every roll and follow-up, with the engine's
 * answer to its tap (what the table keeps of it: new states, notes, luck). */
function announce(proc, roll, action, previous, answer) {
  document.dispatchEvent(new CustomEvent('arbiter:roll',
    { detail: { system: proc.system, roll, action, previous, answer } }));
}

// --- loading ---------------------------------------------------------------------------------------------------
let pageReady = null; // resolves once the engine and the table are ready (rejects if the engine failed to load)
function watchLoading(extensions) {
  const status = document.getElementById('status');
  const label = document.getElementById('load-label'); // loading.js keeps it, and the bar, while loading
  const retry = document.getElementById('load-retry');
  // Roll waits for the table too, so the roll log and character sheets see every roll.
  // Roll is enabled from the first paint: a roll tapped before then waits for `pageReady` (Procedure.waitForEngine).
  const rollable = (yes) => { // every form's Roll: each Procedure (and its tab) is built for it
    for (const proc of Object.values(procs)) proc.form.querySelector('[data-roll]').disabled = !yes;
  };
  const waitReady = () => (pageReady = Promise.all([arbiter.ready, extensions.catch(() => {})])).then(() => {
    status.dataset.state = 'ready';
    label.textContent = 'Rules engine ready.';
    document.body.dataset.ready = '';
    for (const wait of document.querySelectorAll('[data-wait]')) wait.remove();
    for (const proc of built.values()) proc.refreshOddsIfShown(); // one built later asks for itself
  }, (error) => {
    status.dataset.state = 'failed';
    label.textContent = `The rules engine failed to load: ${error.message}`;
    retry.hidden = false;
    rollable(false);
  });
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

let persistenceAsked = false;
function requestPersistence() {
  // Keep the offline copy: ask once the player has rolled (an engaged user, so the browser is likelier to agree).
  if (persistenceAsked || !navigator.storage?.persist) return;
  persistenceAsked = true;
  navigator.storage.persist().catch(() => {});
}

// Start-up is cut into short tasks, so the page never stops answering while it loads (the benchmark and Lighthouse
// count tasks over 50 ms): the shown tab, then its Procedures a task each, then the table and offline parts. Every
// other Procedure (its panel, form and dice tray) is built the first time anything asks for it: its tab shown, a
// link, the table.
const procs = {}, built = new Map(), tabs = new Tabs(SPEC); // built: system → its Procedure, once made
for (const system of Object.keys(SPEC)) {
  Object.defineProperty(procs, system, { enumerable: true, get: () => {
    if (!built.has(system)) {
      built.set(system, new Procedure(tabs.form(system)));
      document.dispatchEvent(new CustomEvent('arbiter:built', { detail: { system } })); // the table's "Rolling as"
    }
    return built.get(system);
  } });
}
const showTab = (tab) => tabs.show(tab, (system) => { // its Procedure built, and its odds asked if they were owed
  const proc = procs[system];
  if (proc.oddsOwed && 'ready' in document.body.dataset) proc.refreshOddsIfShown();
});
const firstSystems = [];
tabs.show(tabs.readHash(procs), (system) => firstSystems.push(system)); // its Procedures below, a task each
tabs.wire(procs, showTab);
// The rulings (index.html) are parsed into the page the first time they are opened, not with the page.
document.getElementById('rulings')?.addEventListener('toggle', () => buildText(document.getElementById('rulings-text')),
  { once: true });
// situation(system): the Situation a roll's Pay the Price list shows (its marks, who pays), set by the table, its owner
// recheck(): what pays for a shown roll's choices changed (the table's Scheme or a sheet): check them again
// built(): the Procedures made so far (only they can show a roll), without making the others
// tableFor(system, request): what the table holds that a tap of `system` may spend from ({state, choices}), set by the
// table, its owner (null before it starts: the forms are then the player's own); tableAfter(table, answer): the same
// once the table kept a tap's answer, which the table says by kept(system)
let rechecking = null; // one pass for a burst of the table's changes: resolves once every form has its checks
window.arbiterPage = { procs, built: () => [...built.values()], percent,
  showTab: (system) => showTab(tabs.tabOf(system)), situation: () => null, tableFor: () => null, tableAfter: () => null,
  kept: (system) => { built.get(system).pending = null; window.arbiterPage.recheck(); },
  recheck: () => {
    rechecking ??= new Promise((resolve) => { setTimeout(resolve, 0); }).then(() => {
      rechecking = null;
      return Promise.all([...built.values()].map((proc) => proc.recheck()));
    });
    return rechecking;
  } };

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
  const drawn = startTable(window.arbiterPage, arbiter, SPEC);
  // The offline copy once the table is drawn: the service worker's download of the build (and its check of every
  // file's hash) then keeps a core busy while the page has nothing left to do.
  drawn.then(() => import('./offline.js')) // registers the service worker and offers "New version — reload"
    .catch((error) => console.error(error));
})();
extensions.catch((error) => console.error(error));
watchLoading(extensions);
for (const system of firstSystems) {
  await nextTask();
  void procs[system];
}
// Taps on Roll before this module ran, kept by the page's first script (build.py's BOOT_SCRIPT): rolled now.
for (const system of new Set(self.arbiterEarlyRolls ?? [])) procs[system]?.doRoll();
self.arbiterEarlyRolls = null;
// Python starts once the shown forms are drawn (arbiter-client.js): its start keeps a core or two busy for a second.
await afterFirstFrame();
arbiter.go();
