import type { SavingEntry } from '../../domain/saving.js';

/**
 * A stopping instance may still be scraped for a few minutes: GPU samples this soon after a stop
 * are its last ones, not a restart.
 */
export const RESTART_GRACE_MS = 15 * 60_000;

/** Until when an entry's change held, and what ended it; `until` null: it still holds. */
export interface Hold {
  until: Date | null;
  endedBy: 'resumed' | 'reverted' | 'restarted' | 'acted on again' | null;
}

/**
 * When each entry stopped saving, in the order given (oldest first, as the store lists them):
 *   - a Resume clicked in burnrate (a workload stopped and resumed 8 s later saved nothing), or a
 *     spot migration reverted: the entry's own endedAt;
 *   - the resource seen running again (its GPUs reported after the stop): someone started it;
 *   - the next action on the same resource: from then on that entry counts its days, so repeated
 *     Stops of one instance never count a day twice.
 * Only the earliest of these counts. Pure.
 */
export function entryHolds(entries: readonly SavingEntry[], seenRunning: ReadonlyMap<string, readonly Date[]>): Hold[] {
  return entries.map((entry, i) => {
    const ends: { at: Date; by: NonNullable<Hold['endedBy']> }[] = [];
    if (entry.endedAt) ends.push({ at: entry.endedAt, by: entry.action === 'spot.approve' ? 'reverted' : 'resumed' });
    // Only a stop is undone by running: a right-sized instance runs on purpose, and a spot migration
    // replaces the instance (the old id reporting again says nothing of the new one).
    if (entry.action === 'instance.stop' || entry.action === 'sweep.stop') {
      const restart = seenRunning.get(entry.resourceId)?.find((t) => t.getTime() > entry.at.getTime() + RESTART_GRACE_MS);
      if (restart) ends.push({ at: restart, by: 'restarted' });
    }
    const next = entries.slice(i + 1).find((e) => e.resourceId === entry.resourceId && e.at.getTime() >= entry.at.getTime());
    if (next) ends.push({ at: next.at, by: 'acted on again' });
    const first = ends.reduce<(typeof ends)[number] | null>((a, b) => (a === null || b.at < a.at ? b : a), null);
    return first ? { until: first.at, endedBy: first.by } : { until: null, endedBy: null };
  });
}
