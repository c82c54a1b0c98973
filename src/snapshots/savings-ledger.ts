import { savingsLedger } from '../checks/savings/savings-ledger.js';
import type { Deps } from '../deps.js';
import { combinedDataThrough } from '../domain/data-through.js';
import { convert } from '../domain/fx.js';
import { addDays, toDay, type Period } from '../domain/period.js';
import { BASELINE_DAYS, SAVING_WINDOW_DAYS, type SavingsLedger } from '../domain/saving.js';
import { loadFxRates } from './fx-rates.js';

/** The ledger's currency: what actions price their savings in (the catalog's and the fleet's USD). */
const LEDGER_CURRENCY = 'USD';

/**
 * The savings ledger over a period, for some teams or all: the actions whose month after them
 * overlaps it, with what the bill confirms (src/checks/savings/savings-ledger.ts). Read-only.
 */
export async function loadSavingsLedger(deps: Deps, period: Period, teams: readonly string[] | null = null): Promise<SavingsLedger> {
  const firstAction = addDays(period.start, -(SAVING_WINDOW_DAYS + 1));
  const [all, fx, freshness] = await Promise.all([
    deps.store.savings.since(`${firstAction}T00:00:00.000Z`),
    loadFxRates(deps),
    deps.store.freshness.list(),
  ]);
  const entries = all.filter((e) => toDay(e.at) < period.end && (teams === null || (e.team !== null && teams.includes(e.team))));
  const charges = await deps.store.spend.resourceDays({ start: addDays(firstAction, -BASELINE_DAYS), end: period.end }, [
    ...new Set(entries.map((e) => e.resourceId)),
  ]);
  const daily = new Map<string, Map<string, number>>();
  for (const c of charges) {
    const amount = convert(c.effective, c.currency, LEDGER_CURRENCY, fx);
    if (amount === null) continue;
    const days = daily.get(c.resourceId) ?? new Map<string, number>();
    days.set(c.day, (days.get(c.day) ?? 0) + amount);
    daily.set(c.resourceId, days);
  }
  const through = combinedDataThrough(freshness);
  return savingsLedger({
    entries,
    period,
    // A day is billed once the data reaches its end.
    billedThrough: through === null ? null : toDay(new Date(through)),
    daily,
    currency: LEDGER_CURRENCY,
  });
}
