// The ports the page's parts meet through (issue 29, STYLE.md "State: one owner"): each is handed to the parts that
// use it (main.js makes them), never reached through a window global or a document-wide event.
//
//   TablePort  between the forms (each Procedure is handed it) and the table (table/index.js fills it in once its
//              store opens): what a tap may spend from, a Situation's marks, each landed roll handed back, a form
//              built, a link opened; and, the other way, the forms' rechecks when what pays changed
//   notices    the one event target of the page's notices that carry no data ('tab': the Roll view's procedure
//              changed; 'view': the view changed): their listeners read the page as it is now

/** The page's notices with no data: 'tab', 'view'. */
export const notices = new EventTarget();

export class TablePort {
  /** `forms` the page's side: {built(): the Procedures made so far}. */
  constructor(forms) {
    this.forms = forms;
    this.table = null; // the table's side, once its store opened (attach)
    this.waiting = []; // what came for the table before it opened: [method, args]
    this.rechecking = null;
  }

  /** The table's side, its store open: {tableFor, tableAfter, situation, landed, built, shared, idle}; what came
   * before is handed to it now, in order. */
  attach(table) {
    this.table = table;
    for (const [method, args] of this.waiting.splice(0)) table[method](...args);
  }

  /** Hand `method(...args)` to the table, now or once it opened. */
  tell(method, ...args) {
    if (this.table) this.table[method](...args);
    else this.waiting.push([method, args]);
  }

  // --- asked by the forms ------------------------------------------------------------------------------------------

  /** What the table holds that a tap of `system` may spend from ({state, choices}); null before it opened (the forms
   * are then the player's own). */
  tableFor(system, request) {
    return this.table?.tableFor(system, request) ?? null;
  }

  /** `table` (tableFor's) as it is once the table keeps a tap's `answer`. */
  tableAfter(table, answer) {
    return table && this.table ? this.table.tableAfter(table, answer) : null;
  }

  /** The Situation a roll's Pay the Price list shows (its marks, who pays); null without the table. */
  situation(system) {
    return this.table?.situation(system) ?? null;
  }

  /** A roll or a follow-up landed on a form ({system, roll, action, previous, answer}): the table keeps what the
   * engine's answer brings and logs it, once. */
  landed(tap) {
    this.tell('landed', tap);
  }

  /** A form's Procedure was built (forms of other views are built when first shown). */
  built(proc) {
    this.tell('built', proc);
  }

  /** A roll or a table shared by link was opened ({kind, link}). */
  shared(link) {
    this.tell('shared', link);
  }

  /** Resolves once the table has done all it was handed so far (every landed roll kept and logged). */
  idle() {
    return this.table ? this.table.idle() : new Promise((resolve) => this.waiting.push(['idle', [resolve]]));
  }

  // --- asked by the table ------------------------------------------------------------------------------------------

  /** What pays for a shown roll's choices changed (the Scheme, a sheet): each built form checks them again, once for
   * a burst of changes; resolves once every form has its checks. */
  recheck() {
    this.rechecking ??= new Promise((resolve) => {
      setTimeout(resolve, 0);
    }).then(() => {
      this.rechecking = null;
      return Promise.all(this.forms.built().map((proc) => proc.recheck()));
    });
    return this.rechecking;
  }

  /** The table kept the last tap of `system`'s form: its form reads the table again. */
  kept(system) {
    const proc = this.forms.built().find((p) => p.system === system);
    if (proc) proc.pending = null;
    this.recheck();
  }
}
