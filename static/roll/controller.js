// One procedure's form, a Procedure (main.js builds one per form, the first time anything needs it): its request, live
// odds, Roll, the follow-up choices and their checks against the table, and its dice. It holds no rules: the engine
// (arbiter.api, through the client main.js hands it) rolls, prices and checks; its view (procedures/) and the outcome
// line (outcome.js) show what it answered.
import { DiceTray } from '../dice/tray.js';
import { h } from '../dom.js';
import { FacePad } from './facepad.js';
import { notices } from '../port.js';
import * as formState from './form-state.js';
import * as landing from './landing.js';
import { CONTROLS, controlKey, refocus } from './focus.js';
import { readForm, fillForm, wireForm, showErrors, clearErrors, inWords, problemsInWords } from './forms.js';
import { PROCEDURE_VIEWS } from '../procedures/index.js';
import { percent } from '../procedures/view-parts.js';
import { outcomeLines } from './outcome.js';
import { reveal } from './reveal.js';
import { shareRoll } from '../share/dialog.js';
import { diceSourceOf, diceSpeed, keepDiceSource } from '../settings.js';
import { Tabs } from './tabs.js';

const ODDS_DELAY_MS = 120; // debounce: a burst of key presses asks for odds once

/** One procedure's form: its request, live odds, roll, follow-up choices and dice. */
export class Procedure {
  /** `form`'s Procedure, handed by main.js the client (`arbiter`), its procedure's systems() entry (`spec`), the
   * table's port (`table`, port.js' TablePort: what a tap may spend from, where its landed rolls go) and the page's
   * hook `ready()`, what a roll tapped before the engine and the table are ready waits for. */
  constructor(form, { arbiter, spec, table, ready }) {
    this.form = form;
    this.arbiter = arbiter;
    this.table = table;
    this.page = { ready };
    this.system = form.dataset.system;
    this.spec = spec;
    this.view = PROCEDURE_VIEWS[this.system];
    this.roll = null;
    this.state = formState.initial(); // the form's one owner (form-state.js): what is shown is drawn from it
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
    this.choiceBox.addEventListener(
      'click',
      (event) => {
        this.usedControl = event.target.closest(CONTROLS);
      },
      true,
    );
    // on a phone the bar is fixed at the screen's bottom: the page keeps room for it as tall as it is (style.css)
    const bar = form.querySelector('[data-bar]');
    new ResizeObserver(() => {
      if (bar.offsetHeight) document.documentElement.style.setProperty('--roll-bar', `${bar.offsetHeight}px`);
    }).observe(bar);
    // whose dice: the app's, or the group's own typed in on the face pad (issue 21), kept on this device per form
    this.pad = new FacePad(form, this.tray, bar, (pad) => reveal(form, pad, pad));
    notices.addEventListener('view', () => {
      // back on Roll with faces half-typed: the pad, as it was left, in view again
      const roll = document.body.dataset.view === 'roll';
      if (roll && this.pad.open && form.checkVisibility()) this.pad.keepInView(this.pad.root);
    });
    landing.wireSoundButton(form.querySelector('[data-sound]')); // sound and vibration as dice land, on this device
    this.sourceButton = h('button', { type: 'button', class: 'dice-source', onclick: () => this.toggleSource() });
    form.querySelector('[data-roll]').before(this.sourceButton);
    this.setSource(diceSourceOf(this.system));
    this.oddsBox.open = matchMedia('(min-width: 52rem)').matches; // folded on a phone: headline odds by Roll
    this.resultBox.addEventListener('pointerdown', () => this.tray.skip()); // a tap on the words to come lands the dice
    wireForm(form);
    // the player's own edits: each a revision of the form, its field touched (no answer asked before writes it)
    const edited = (event) => {
      this.dispatch({ type: 'edit', path: event.target.closest?.('[data-path]')?.dataset.path ?? '' });
      this.changed();
    };
    form.addEventListener('input', edited);
    form.addEventListener('change', edited);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.doRoll();
    });
    this.oddsOwed = true; // asked once the engine is ready and the form shown
    if ('ready' in document.body.dataset) this.refreshOddsIfShown();
  }

  request() {
    return readForm(this.form, this.spec.fields);
  }

  /** The form's state after `event` (form-state.js), and what shows it drawn again: the form's phase, the shown
   * outcome stale (dimmed) and its follow-ups and Share out of use while the pad owns the form or a roll was refused. */
  dispatch(event) {
    const before = this.state;
    const state = formState.next(before, event);
    this.state = state;
    this.form.dataset.phase = state.phase;
    const stale = formState.stale(state);
    if (stale) this.resultBox.dataset.stale = '';
    else if (formState.stale(before) && before.phase === 'pad') delete this.resultBox.dataset.stale;
    this.choiceBox.inert = stale;
    this.choiceBox.toggleAttribute('data-stale', stale);
    for (const share of this.resultBox.querySelectorAll('[data-share]')) share.disabled = stale;
    // Roll takes no roll while one is under way, nor while the outcome is held on screen (form-state.js' HOLD_MS)
    const left = state.phase === 'landed' ? state.landedAt + formState.HOLD_MS - performance.now() : 0;
    const button = this.form.querySelector('[data-roll]');
    if (['rolling', 'pad'].includes(state.phase) || left > 0) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
    clearTimeout(this.holdTimer);
    if (left > 0) this.holdTimer = setTimeout(() => this.dispatch({ type: 'held' }), left + 1); // drawn free again
    return state;
  }

  /** Show `error` (a refusal, or its words) in a player's words by its field, or clear it: `fromRoll` for a refused
   * roll, also said by Roll (and announced there), which a later odds answer keeps. */
  setError(error, fromRoll = false) {
    this.rollError = Boolean(error) && fromRoll;
    if (!error) return clearErrors(this.form);
    const words = inWords(error, this.spec.fields);
    if (!fromRoll || error.path) showErrors(this.form, problemsInWords(error, this.spec.fields), fromRoll);
    else clearErrors(this.form);
    if (!fromRoll) return;
    Object.assign(this.refusalBox, { textContent: words, hidden: false });
    this.refusalBox.setAttribute('role', 'alert');
    this.refusalBox.scrollIntoView({ block: 'nearest' });
    // what is shown is no longer what Roll would give: the last result dimmed as stale, no chance beside Roll
    if (this.roll) this.resultBox.dataset.stale = '';
    this.form.querySelector('[data-headline]').replaceChildren(noOdds());
  }

  /** Fill the form from a request (a shared link, a character sheet) and refresh its odds. */
  fill(request) {
    fillForm(this.form, this.spec.fields, request);
    this.dispatch({ type: 'fill' });
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
    const revision = this.state.revision; // an answer for an older revision of the form is dropped
    const request = this.request();
    try {
      const odds = await this.arbiter.odds(this.system, request);
      if (!formState.current(this.state, revision)) return;
      this.showOdds(odds, request);
    } catch (error) {
      if (!formState.current(this.state, revision)) return;
      // No chance beside Roll for a form the rules refuse (the last one shown was another form's)
      this.form.querySelector('[data-headline]').replaceChildren(noOdds());
      if (!this.rollError) this.setError(error); // a refused roll's message stays until the form changes
    }
  }

  /** The odds of `request` (arbiter.api.odds' answer): the panel's bars, the headline beside Roll; then the checks. */
  showOdds(odds, request) {
    if (!this.rollError) clearErrors(this.form); // a refused roll's message stays until the form changes
    this.oddsBox.querySelector('[data-odds-body]').replaceChildren(...this.view.odds(odds, request, this.spec));
    const [[label, p]] = Object.entries(odds.headline); // the main outcome's chance, as Python names it
    // a refused roll leaves no chance beside Roll until the form changes (as its reason stays)
    if (!this.rollError) {
      this.form.querySelector('[data-headline]').replaceChildren(`${label} `, h('strong', { 'data-p': p }, percent(p)));
    }
    this.oddsBox.dataset.request = JSON.stringify(request);
    delete this.oddsBox.dataset.stale;
    this.recheck();
  }

  /** The form as a roll leaves it (the tap's answer, `next`: what is spent for one roll only unticked, a Will, a
   * Scheme die; the fields the sheet fills now), with its odds from the same answer: nothing more is asked. Only what
   * the answer changed from the request rolled (`rolled`, asked at revision `asked`) is written, and never into a
   * field the player touched since the tap: what the player types wins. */
  fillNext({ request, odds }, rolled, asked) {
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const write = Object.fromEntries(
      Object.entries(request).filter(
        ([name, value]) => !same(value, rolled[name]) && formState.mayWrite(this.state, name, asked),
      ),
    );
    if (!Object.keys(write).length) return;
    fillForm(this.form, this.spec.fields, write);
    this.dispatch({ type: 'fill' }); // an odds answer still coming is for the form as it was
    Tabs.writeHash(this);
    clearTimeout(this.oddsTimer);
    if (odds && same(request, this.request())) this.showOdds(odds, request);
    else this.refreshOdds();
  }

  /** What the table would refuse as it stands, in one question to the engine (arbiter.api.check): a roll of the
   * form's request (a Scheme die from an empty Scheme, a Will with none left: said by Roll, quietly; a tap says it
   * aloud) and each choice of the shown roll (shown disabled, with the reason). Asked with the odds and whenever what
   * pays may have changed (the table port's recheck), but not again while nothing it reads changed: a tap's answer brings them. */
  async recheck() {
    const request = this.request();
    const roll = this.landedRoll();
    const table = this.tableNow(request);
    const key = checkKey(request, roll, table);
    if (this.checked?.key !== key) {
      let value = { ahead: null, choices: [] }; // no table: nothing to refuse
      if (table) {
        value = await this.arbiter.check(this.system, request, roll, table.state, table.choices).catch((error) => {
          console.warn(error);
          return null;
        });
      }
      if (!value) return; // the choices stay offered; a tap asks again and shows a refusal
      const now = checkKey(this.request(), this.landedRoll(), this.tableNow());
      if (key !== now) return; // stale: something changed meanwhile
      this.checked = { key, value };
    }
    this.showChecks(this.checked.value, roll);
  }

  /** The shown roll once its dice landed (its choices are offered then), else null. */
  landedRoll() {
    return this.roll && !('waiting' in this.resultBox.dataset) ? this.roll : null;
  }

  /** What the table holds for a tap of this form: as the last tap's answer left it until the table has kept it. */
  tableNow(request = this.request()) {
    return this.pending ?? this.table.tableFor(this.system, request);
  }

  /** Show what arbiter.api.check answered: the refusal ahead by Roll, or what Roll will spend, and each choice of `roll`
   * disabled or not. */
  showChecks({ ahead, choices, spends }, roll) {
    if (!this.rollError && !('stale' in this.oddsBox.dataset)) {
      Object.assign(this.refusalBox, { textContent: ahead?.words ?? '', hidden: !ahead });
      this.refusalBox.removeAttribute('role');
    }
    // Roll says what the tap will take from the table: "Roll · 1 Will (2 left)"
    this.form.querySelector('[data-roll]').textContent = spends && !ahead ? `Roll · ${spends}` : 'Roll';
    if (!roll || roll !== this.roll) return;
    const refusals = new Map((roll.choices ?? []).map((c, i) => [c, choices[i] ?? null]));
    const before = this.ui.refusals;
    this.ui.refusals = refusals;
    // drawn again only when a refusal changed: a redraw under a player's tap (a threat's button) would lose it
    const words = (why) =>
      [why]
        .flat()
        .map((w, i) => (w ? `${i}:${w.words}` : ''))
        .filter(Boolean)
        .join('|');
    if ([...refusals].some(([c, why]) => words(before?.get(c)) !== words(why))) this.renderChoices();
    else this.choiceBox.removeAttribute('data-checking');
  }

  /** Roll with `source`'s dice: 'table' (the face pad) or 'app'; the toggle by Roll says which. */
  setSource(source) {
    this.source = source;
    const b = this.sourceButton;
    b.dataset.diceSource = source;
    b.setAttribute('aria-pressed', String(source === 'table'));
    b.replaceChildren(h('span', { class: 'on', 'aria-hidden': 'true' }, '✓ '), 'Table dice'); // ✓ shown when pressed
    b.title = source === 'table' ? 'Your own dice: Roll asks for their faces' : 'The app rolls: tap for your own dice';
  }

  toggleSource() {
    const source = this.source === 'table' ? 'app' : 'table';
    if (this.pad.open) this.pad.finish(null); // a pad half-filled for the other source: nothing rolled
    this.setSource(source);
    keepDiceSource(this.system, source);
  }

  /** The table's faces for a roll (`needed`: the engine's dice_needed for it), from the face pad, in view above Roll;
   * null when the player left the pad. */
  async tableFaces(needed, shown = []) {
    const collected = this.pad.collect(needed, shown); // the pad shown and kept in view above Roll as the tray grows
    this.dispatch({ type: 'pad' }); // the pad owns the form: the last outcome stale until it is left
    this.pad.root.focus({ preventScroll: true });
    const faces = await collected;
    this.dispatch({ type: faces ? 'faces' : 'left' });
    return faces;
  }

  async doRoll() {
    // A tap is one roll: Roll is locked from the tap until the dice land, and a tap meanwhile lands them at once
    // (a double tap never rolls, nor spends, twice). Roll stays enabled: a disabled button loses the focus, and a
    // second Enter would then go nowhere.
    // Taps in a burst are one roll: Roll takes no new roll until the outcome has been on screen for
    // form-state.js's HOLD_MS (any speed), so a third tap of an impatient thumb does not roll again.
    const { did } = this.dispatch({ type: 'tap', at: performance.now() });
    if (did === 'skip') this.tray.skip();
    if (did !== 'roll') return;
    landing.prime(); // in the tap: the sound may start at its landing
    try {
      if (this.filling) await this.filling; // after a reload, the sheet of who rolls it in the form first
      const request = this.request();
      const asked = this.state.revision; // what the form showed at the tap: its answer writes no field touched since
      if (!('ready' in document.body.dataset)) await this.waitForEngine();
      const step = { request, choices: null };
      if (this.source === 'table') {
        step.dice = await this.tableFaces((faces) => this.arbiter.diceNeeded(this.system, request, faces));
        if (!step.dice) return; // the pad was left: nothing rolled, nothing logged, the form as it was
      }
      const answer = await this.turn(step, request);
      const { roll } = answer;
      // what re-derives it on another phone (Share): the request as rolled, each step's faces, who rolled, when
      answer.at = new Date().toISOString(); // when it was rolled: the log's time for it, and the link's
      this.steps = { request: roll.request, who: this.who, time: Math.floor(Date.parse(answer.at) / 1000), list: [] };
      this.steps.list.push({ drawn: roll.drawn, source: answer.source }); // source: whose dice, for the link
      this.setError(null);
      this.ui = { selected: new Set(), pickedDie: null };
      const shown = this.show(roll, !step.dice); // the table's faces are on the tray already: no tumble
      announce(this, roll, null, null, answer);
      if (answer.next) this.fillNext(answer.next, request, asked); // a Will, a Scheme die: spent for this roll only
      await shown;
    } catch (error) {
      this.stopWaiting();
      this.dispatch({ type: 'refused' });
      this.setError(error, true);
    } finally {
      if (['rolling', 'pad'].includes(this.state.phase)) this.dispatch({ type: 'left' }); // nothing rolled
    }
  }

  /** One tap, one request: the roll of `step.request` (filled from a sheet by the table's choices) or the follow-up
   * `step.action`, paid from what the table holds (arbiter.api.turn). Throws, in a player's words, what the table
   * cannot pay (nothing is rolled then); else the answer, whose checks of what comes next are kept. */
  async turn(step, request = this.request()) {
    const table = this.table.tableFor(this.system, request);
    if (step.request) step.choices = table?.choices ?? null;
    const answer = await this.arbiter.turn(this.system, step, table?.state ?? null);
    this.who = table?.state?.character?.name ?? null; // who rolled, for Share
    answer.sent = table?.state ?? null; // what was paid from, for the table to see whether it changed meanwhile
    answer.source = step.dice ? 'table' : 'app'; // whose dice, for the log
    if (answer.refused) throw new Error(answer.refused.words); // said by Roll or by the control, as any refusal
    const after = this.table.tableAfter(table, answer);
    this.pending = after; // until the table has kept the answer (the port's kept)
    // checked as the roll leaves the form (answer.next: one-shot choices unticked, the sheet's fields filled again)
    this.checked = { key: checkKey(answer.next?.request ?? request, answer.roll, after), value: answer.checks };
    return answer;
  }

  /** A roll tapped before the engine and the table are ready: systems()' waiting_dice tumble at once until they are. */
  async waitForEngine() {
    const { count, sides } = this.spec.waiting_dice;
    this.tray.wait(
      Array.from({ length: count }, () => ({ face: 1, sides })),
      { speed: diceSpeed() },
    );
    this.waiting = true;
    this.makeRoom();
    await this.page.ready();
  }

  /** Dice that waited for a roll that did not come (refused, or the engine failed): gone, with the words' room. */
  stopWaiting() {
    if (this.waiting) this.tray.clear();
    this.waiting = false;
    delete this.resultBox.dataset.waiting;
  }

  async act(action) {
    // one follow-up at a time, locked until its dice land (a tap meanwhile lands them at once); none while the
    // outcome it follows is stale (the pad open for a new roll, a roll refused)
    const { did } = this.dispatch({ type: 'act' });
    if (did === 'skip') this.tray.skip();
    if (did !== 'act') return;
    landing.prime();
    const used = controlKey(this.choiceBox);
    const control = this.usedControl;
    try {
      const step = { roll: this.roll, action }; // Python reads from the roll what it earned (tap.py)
      if (this.source === 'table') {
        const roll = this.roll;
        const needed = (faces) => this.arbiter.diceNeededAct(this.system, roll, action, faces);
        const first = await needed([]);
        if (first.dice) {
          step.dice = await this.tableFaces(needed, this.tray.dice);
          if (!step.dice) return; // the pad was left: the roll stays as it was
        } else step.dice = []; // a follow-up that rolls nothing: nothing to ask
      }
      const answer = await this.turn(step);
      const next = answer.roll;
      this.steps?.list.push({ action, drawn: next.drawn, source: answer.source });
      this.ui = { selected: new Set(), pickedDie: null };
      const previous = this.roll;
      const shown = this.show(next, !step.dice, true); // only the dice the follow-up added or rolled again move
      announce(this, next, action, previous, answer);
      if (!(await shown)) return; // a later roll took its place while its dice tumbled
      if (used && !this.choiceBox.contains(document.activeElement)) refocus(this.choiceBox, used, this.tray.canvas);
    } catch (error) {
      // said by the control used, in a player's words; one refusal at a time
      for (const old of this.choiceBox.querySelectorAll('p.field-error[role=alert]')) old.remove();
      const why = h('p', { class: 'field-error', role: 'alert' }, inWords(error, this.spec.fields));
      const at = control && this.choiceBox.contains(control) ? control.closest('[data-choice], li') : null;
      if (at) at.append(why);
      else this.choiceBox.prepend(why);
      why.scrollIntoView({ block: 'nearest' });
      this.dispatch({ type: 'refused' });
    } finally {
      if (['follow-up', 'pad'].includes(this.state.phase)) this.dispatch({ type: 'left' }); // nothing rolled
    }
  }

  /** Show a roll: its dice tumble at this device's speed (the app's dice; the table's own are typed in: `animate`
   * false), and its words and choices come once they land (at once when no die moves or the speed is Off), never over
   * dice still showing other faces; the app's dice that moved sound as they land (landing.js), once per show. Resolves
   * true once they are shown, false if a later roll took its place. */
  show(roll, animate, changed = false) {
    this.roll = roll;
    const dice = this.view.dice(roll, this.ui, this.spec);
    const landed = this.tray.show(dice, { animate, changed, speed: diceSpeed() });
    const moved = animate ? this.tray.moved : []; // the table's own dice made their own sound
    this.waiting = false;
    if (this.tray.canvas.dataset.state !== 'rolling') {
      landing.land(moved);
      return Promise.resolve(this.words(roll));
    }
    this.makeRoom();
    return landed.then(() => {
      if (this.roll !== roll) return false; // a later roll took its place: its own landing sounds
      landing.land(moved);
      return this.words(roll);
    });
  }

  /** The last roll's result and choices go while dice tumble; the words' room stays, in view with the dice. */
  makeRoom() {
    this.resultBox.replaceChildren();
    delete this.resultBox.dataset.stale;
    delete this.resultBox.dataset.outcome;
    delete this.resultBox.dataset.tone;
    this.resultBox.dataset.waiting = '';
    this.choiceBox.replaceChildren();
    reveal(this.form, this.tray.canvas.parentElement, this.resultBox); // the dice and the words' room
  }

  /** The roll's words (outcome, steps) and its follow-up choices, under the landed dice. */
  words(roll) {
    this.dispatch({ type: 'landed', at: performance.now() }); // the outcome on screen from now
    delete this.resultBox.dataset.waiting;
    delete this.resultBox.dataset.stale;
    this.resultBox.dataset.outcome = roll.outcome;
    this.resultBox.dataset.tone = roll.tone;
    this.resultBox.replaceChildren(...outcomeLines(roll), this.shareButton());
    this.renderChoices();
    this.recheck();
    reveal(this.form, this.tray.canvas.parentElement, this.resultBox, this.choiceBox);
    return true;
  }

  /** Share the roll as it stands (issue 22): its link and QR code, made by the engine from its steps (one request a
   * tap, none while one is on its way). */
  shareButton() {
    const steps = this.steps;
    if (!steps) return null;
    const share = (event) => {
      const button = event.currentTarget;
      const { request, list, who, time } = steps;
      shareRoll(button, this.arbiter, { system: this.system, request, steps: list, who, time }).catch((error) => {
        button.after(h('p', { class: 'field-error', role: 'alert' }, `Not shared: ${error.message}`));
      });
    };
    return h('button', { type: 'button', class: 'share', 'data-share': '', onclick: share }, 'Share');
  }

  renderChoices() {
    const refusals = this.ui.refusals;
    const focused = controlKey(this.choiceBox);
    this.choiceBox.replaceChildren(
      ...this.view
        .choices(this.roll, this.ui, {
          // (a view's null: nothing to offer)
          act: (action) => this.act(action),
          redraw: () => {
            this.tray.update(this.view.dice(this.roll, this.ui, this.spec));
            this.renderChoices();
          },
          spec: this.spec,
          situation: this.table.situation(this.system),
          refusal: (choice) => refusals?.get(choice) ?? null,
          oddsAfter: (action) => this.arbiter.oddsAfter(this.system, this.roll, action),
        })
        .filter(Boolean),
    );
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

/** What a check of the table depends on: the form's request, the shown roll, what the table holds for it. */
const checkKey = (request, roll, table) => JSON.stringify([request, roll, table]);

/** Hand the table (the roll log, character sheets) every roll and follow-up, with the engine's answer to its tap
 * (what the table keeps of it: new states, notes, luck), through the form's port. */
function announce(proc, roll, action, previous, answer) {
  proc.table.landed({ system: proc.system, roll, action, previous, answer });
}

/** Beside Roll, no chance: the form as it stands would be refused (its reason is said by Roll or by its field, with a
 * ⚠ that may be off screen: issue 29). A tap on it scrolls to the form's first ⚠ and focuses its field. */
const noOdds = () =>
  h(
    'button',
    {
      type: 'button',
      class: 'no-odds',
      'data-no-odds': '',
      onclick: (event) => {
        const form = event.currentTarget.closest('form');
        const why = [...form.querySelectorAll('output.field-error')].find((out) => !out.hidden);
        if (!why) return;
        why.scrollIntoView({
          block: 'center',
          behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth',
        });
        why.parentElement.querySelector('[aria-invalid="true"]')?.focus({ preventScroll: true });
      },
    },
    'No odds: show the ⚠',
  );
