// A logged roll's steps, as its Share link carries them and a live table sends them: from the log's entries (the
// store's records), the entries that re-derive a roll as it stood at one of them, and those entries as a link's steps.
// Pure, over plain records: the Log view (../log/log.js) shares a roll by them, a live table (../live/sync.js) sends it.

/** For the log `all` ([id, entry], oldest first, ids without "log:"): a function giving, for the entry `id`, the
 * entries that re-derive its roll as it stood then — its roll entry and each follow-up of it up to this one, oldest
 * first — or null when they cannot (a note, an entry logged before the faces were kept, a follow-up whose roll is
 * gone, a request too long to keep). The log is read once, for every entry a drawing shows. */
export function shareSteps(all) {
  const at = new Map(all.map(([key], i) => [key, i]));
  const followUps = new Map(); // a roll's id -> [index, entry] of the follow-ups that name it, oldest first
  all.forEach(([, x], i) => {
    if (!x.follows) return;
    if (!followUps.has(x.follows)) followUps.set(x.follows, []);
    followUps.get(x.follows).push([i, x]);
  });
  return (id) => {
    const e = all[at.get(id)]?.[1];
    if (!e || e.kind === 'note' || !Array.isArray(e.drawn)) return null;
    const rootId = e.kind === 'roll' ? id : e.follows;
    const root = all[at.get(rootId)]?.[1];
    if (!root || root.kind !== 'roll' || !root.request || !Array.isArray(root.drawn)) return null;
    const upTo = at.get(id);
    const follows = (followUps.get(rootId) ?? []).filter(([i]) => i <= upTo && all[i][0] !== rootId);
    const steps = [root, ...follows.map(([, x]) => x)];
    return steps.slice(1).every((x) => x.action && Array.isArray(x.drawn)) ? steps : null;
  };
}

/** The steps of a roll as its Share link carries them (and a live table sends them), from its log
 * entries (shareSteps'): [{drawn, source}, then {action, drawn, source} per follow-up]. Pure. */
export const linkSteps = (steps) =>
  steps.map((x, i) => ({
    ...(i ? { action: x.action } : {}),
    drawn: x.drawn,
    source: x.source === 'table' ? 'table' : 'app',
  }));
