import { savingsLedger } from '../checks/savings/savings-ledger.js';
import { PROFILE_DAYS } from '../checks/savings/weekday-profile.js';
import type { Deps } from '../deps.js';
import { combinedDataThrough } from '../domain/data-through.js';
import { addDays, toDay, type Period } from '../domain/period.js';
import { SAVING_WINDOW_DAYS, type SavingsLedger, type SavingsSummary } from '../domain/saving.js';
import { loadResourceDays } from './resource-lines.js';
import { seenRunning } from './seen-running.js';

/** The ledger's currency: what actions price their savings in (the catalog's and the fleet's USD). */
const LEDGER_CURRENCY = 'USD';

/** Stops are undone by starting the machine again; a right-sized or migrated one runs on purpose. */
const STOPS = new Set(['instance.stop', 'sweep.stop']);

/**
 * The savings ledger over a period, for some teams or all: the actions whose month after them
 * overlaps it, with what the bill confirms (src/checks/savings/savings-ledger.ts). Read-only.
 */
export async function loadSavingsLedger(deps: Deps, period: Period, teams: readonly string[] | null = null): Promise<SavingsLedger> {
  const firstAction = addDays(period.start, -(SAVING_WINDOW_DAYS + 1));
  const [all, freshness] = await Promise.all([deps.store.savings.since(`${firstAction}T00:00:00.000Z`), deps.store.freshness.list()]);
  // Every team's entries: a later action on a resource ends the one before, whoever took it.
  const entries = all.filter((e) => toDay(e.at) < period.end);
  const resources = [...new Set(entries.map((e) => e.resourceId))];
  const stops = entries.filter((e) => STOPS.has(e.action));
  const end = new Date(Math.min(deps.clock().getTime(), Date.parse(`${period.end}T00:00:00Z`)));
  const [charges, running] = await Promise.all([
    loadResourceDays(deps, { start: addDays(firstAction, -PROFILE_DAYS), end: period.end }, resources, { currency: LEDGER_CURRENCY }),
    stops.length === 0 ? new Map<string, Date[]>() : seenRunning(deps, [...new Set(stops.map((e) => e.resourceId))], stops[0]!.at, end),
  ]);
  const daily = new Map<string, Map<string, number>>();
  for (const c of charges.lines) {
    const days = daily.get(c.resourceId) ?? new Map<string, number>();
    days.set(c.day, c.cost);
    daily.set(c.resourceId, days);
  }
  const through = combinedDataThrough(freshness);
  const ledger = savingsLedger({
    entries,
    teams,
    period,
    // A day is billed once the data reaches its end.
    billedThrough: through === null ? null : toDay(new Date(through)),
    daily,
    seenRunning: running,
    currency: LEDGER_CURRENCY,
  });
  // A day's charge in a currency without a rate is in no baseline: the reader of these lines is told which.
  const missing = new Set(ledger.lines.flatMap((l) => charges.missingOf.get(l.resourceId) ?? []));
  return { ...ledger, missing: [...missing].sort() };
}

/** The ledger in one line: what the monthly review and App Home show of it. */
export function savingsSummary(ledger: SavingsLedger): SavingsSummary {
  return {
    currency: ledger.currency,
    realised: ledger.realised,
    expected: ledger.expected,
    actions: ledger.lines.length,
    missing: ledger.missing ?? [],
  };
}
