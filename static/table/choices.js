// What the player picks on a sheet for its next roll, kept as the page edits it (a Set for each list of ids), and
// the JSON choices arbiter.api.request_from_sheet reads. Pure.

/** Picks for a procedure: each of its published sheet_choices (systems()) as `saved` has it (what was picked for the
 * character's last roll, as stored), else at its default; a list as a Set. */
export function picksOf(sheetChoices, saved = null) {
  const value = (f) => (saved && Object.hasOwn(saved, f.name) ? saved[f.name] : f.default);
  return Object.fromEntries(sheetChoices.map((f) => [f.name, f.type === 'list' ? new Set(value(f)) : value(f)]));
}

/** The picks as request_from_sheet's `choices`: JSON, a Set as a list. */
export function choicesOf(picks) {
  return Object.fromEntries(Object.entries(picks).map(([k, v]) => [k, v instanceof Set ? [...v] : v]));
}
