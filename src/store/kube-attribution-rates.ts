// The moves of Kubernetes node cost to teams (kube-attribution.ts) depend on exchange rates only
// where a node-day is billed in several currencies: its shares are fractions of one amount,
// reckoned at burnrate.yml's rates. Every other figure converts when it is read, so a rate changed
// in burnrate.yml would leave those moves at the old rates until the days were imported or
// sampled again, and team spend would differ from `spend --by workload`. The store records the
// rates its moves were made with; whoever makes moves at other rates (a store opened after
// burnrate.yml changed, before its first read; an import or a sample) first makes anew the moves
// of every node-day that needs a rate, in the same transaction, and records its rates.

import type { FxRates } from '../domain/fx.js';
import { addDays } from '../domain/period.js';
import type { Session } from './session.js';
import type { DaySpan } from './spend-team-days.js';

/** burnrate.yml's rates as one text, the same for the same rates whatever order they were written in. */
function ratesText(fx: FxRates): string {
  const sorted = (rates: Readonly<Partial<Record<string, number>>>) => Object.entries(rates).sort(([a], [b]) => (a < b ? -1 : 1));
  const periods = Object.entries(fx.periods ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([period, rates]) => [period, sorted(rates)]);
  return JSON.stringify({ base: fx.base, rates: sorted(fx.rates), periods });
}

/** Whether the moves were made at these rates: one read of one row, taken before a transaction is opened for nothing. */
export async function movesAtRates(db: Session, fx: FxRates): Promise<boolean> {
  const recorded = await db.one<{ rates: string }>('SELECT rates FROM kube_attribution_rates WHERE id = 1');
  return recorded?.rates === ratesText(fx);
}

/**
 * Inside the caller's transaction, under the spend lock: where the moves were made at other rates
 * than `fx` (or before rates were recorded), the spans of days with a node-day that needs a rate
 * (its bill lines and pod split in more than one currency), to be made anew, and `fx` recorded as
 * the moves' rates; none where they were made at `fx`.
 */
export async function spansAtOtherRates(tx: Session, fx: FxRates): Promise<DaySpan[]> {
  if (await movesAtRates(tx, fx)) return [];
  await tx.run('INSERT INTO kube_attribution_rates (id, rates) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET rates = excluded.rates', [
    ratesText(fx),
  ]);
  // A node's own lines and the moves off them (same resource, same currency) count alike here.
  const days = await tx.rows<{ day: string }>(
    `SELECT DISTINCT day FROM (
       SELECT s.day, s.resource_id AS node, s.currency FROM spend_daily s
         JOIN (SELECT DISTINCT day, node_instance_id FROM kube_gpu_usage WHERE node_instance_id IS NOT NULL) u
           ON u.day = s.day AND u.node_instance_id = s.resource_id
       UNION
       SELECT day, node_instance_id, currency FROM kube_split_costs
     ) amounts GROUP BY day, node HAVING count(DISTINCT currency) > 1 ORDER BY day`,
  );
  return runsOf(days.map((d) => d.day));
}

/** Sorted days as spans of consecutive days: a year with a few such node-days is made anew on those days only. */
function runsOf(days: readonly string[]): DaySpan[] {
  const spans: DaySpan[] = [];
  for (const day of days) {
    const last = spans.at(-1);
    if (last && addDays(last.last, 1) === day) last.last = day;
    else spans.push({ first: day, last: day });
  }
  return spans;
}
