// Each kind of character sheet, by its procedure: the one map of the table's code by procedure. A kind's module
// offers what "roll as" shows (use) and, where the rules keep counts on the sheet, the engine's ops (ops). The request
// a sheet fills, and the choices it starts from, are arbiter.api's (request_from_sheet, systems()' sheet_choices): see
// ../table/choices.js; its limits (Will's maximum too) are its declaration's, checked by schema.js.

import * as abilityTest from './ability_test/sheet.js';
import * as arbitration from './arbitration/sheet.js';
import * as tenAgain from './ten_again/sheet.js';
import * as threat from './threat/sheet.js';
import * as twoDice from './two_dice/sheet.js';

export const BY_KIND = {
  arbitration,
  two_dice: twoDice,
  threat,
  ten_again: tenAgain,
  ability_test: abilityTest,
};
