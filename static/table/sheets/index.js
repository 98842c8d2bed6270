// Each kind of character sheet, by its procedure: what "roll as" offers (use), the request it makes (request, pure),
// the pick state it starts from (picks) and, where the rules keep counts on the sheet, the engine's ops (ops).

import * as abilityTest from './ability-test.js';
import * as arbitration from './arbitration.js';
import * as tenAgain from './ten-again.js';
import * as threat from './threat.js';
import * as twoDice from './two-dice.js';

export const BY_KIND = {
  arbitration, two_dice: twoDice, threat, ten_again: tenAgain, ability_test: abilityTest,
};
