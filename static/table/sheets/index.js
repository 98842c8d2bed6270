// Each kind of character sheet, by its procedure: the one map of the table's code by procedure. A kind's module
// offers what "roll as" shows (use) and, where the rules keep counts on the sheet, the engine's ops (ops). The request
// a sheet fills, and the choices it starts from, are arbiter.api's (request_from_sheet, systems()' sheet_choices): see
// choices.js; its limits (Will's maximum too) are its declaration's, checked by schema.js.

import * as abilityTest from './ability-test.js';
import * as arbitration from './arbitration.js';
import * as tenAgain from './ten-again.js';
import * as threat from './threat.js';
import * as twoDice from './two-dice.js';

export const BY_KIND = {
  arbitration,
  two_dice: twoDice,
  threat,
  ten_again: tenAgain,
  ability_test: abilityTest,
};
