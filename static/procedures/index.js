// The procedures' views: how each procedure's roll JSON becomes dice marks, words, odds bars and follow-up controls.
// PROCEDURE_VIEWS, built here and only here, is the one map of the page's code by procedure: each view is its
// procedure's own file (<id>/view.js), drawn with the parts of view-parts.js. The rules stay in Python; the views only
// present what arbiter.api returned, with the numbers it publishes (`spec`: the procedure's systems() entry).
//
//   view.dice(roll, ui, spec) -> [{face, sides, marks, label?, group?, pick?}]   view.tap?(roll, ui, index)
//   (marks: the engine's for each die, the roll's `marks` lists, and the page's own 'selected' for a die tapped;
//    pick: a tap on the die does something now, view.tap's: it keeps a 44 px tap box and is always drawn)
//   view.choices(roll, ui, {act, redraw, spec, situation, refusal, oddsAfter}) -> elements
//   view.odds(odds, request, spec) -> elements
//   (situation: the table's Situation for Pay the Price, port.situation(system); null without the table;
//    refusal(choice): why the table cannot pay for a choice that names its action ({words, left: how much the payer
//    has left, when the engine says}), or null: then shown disabled, or offered no more than is left;
//    oddsAfter(action): a Promise of arbiter.api.odds_after for the shown roll and `action`)
// A procedure without a view here gets generic-view.js's, drawn from its roll JSON alone.
import { ability_test } from './ability_test/view.js';
import { arbitration } from './arbitration/view.js';
import { withGeneric } from './generic-view.js';
import { luck } from './luck/view.js';
import { ten_again } from './ten_again/view.js';
import { threat } from './threat/view.js';
import { two_dice } from './two_dice/view.js';

/** system → its view: a procedure's own, or the generic one. */
export const PROCEDURE_VIEWS = withGeneric({ ability_test, arbitration, luck, ten_again, threat, two_dice });
