// A Kubernetes GPU node is one line on the bill (its instance), but its GPUs serve the pods of
// several teams. These rows move each workload's share of every bill line of the node to the
// workload's team, as the workload (`k8s:<cluster>/<namespace>/<Kind>/<name>`). The shares are the
// ones every Kubernetes cost figure uses (src/checks/kubernetes/node-day-shares.ts): the bill's own
// pod split (AWS split cost allocation data) where the bill has one for the node-day, burnrate's
// usage samples elsewhere. Each move is a pair: the share to the workload's team, the same amount
// off the node's line, so a node-day's rows still add up to what the bill says, and every reader of
// spend_daily (budgets, reviews, showback, waste) sees Kubernetes spend by team without knowing of
// Kubernetes.
//
// A workload of the node's own team gets its line too (the team's total does not move): reviews and
// the waste diagnosis see each workload's cost as the bill priced it. What stays on the node's
// line: GPUs no pod requested, time the samples did not see (the bill counts more hours than they
// did), and workloads whose namespace has no team. A node-day the bill does not cover (yet) moves nothing: budgets follow the bill.
// A move keeps its bill line's currency and billing period: where a node-day's lines and pod split
// are in several currencies, only the fractions are reckoned in one (billedNodeDays).
// The rows are rebuilt over a span of days, in the caller's transaction, whenever the bill (an
// import), its pod split or the usage (a sample) of those days changes.

import { isWorkloadShare, shareNodeDays, type BilledNodeDay, type BilledPodDay } from '../checks/kubernetes/node-day-shares.js';
import { convert, withBillRates, type FxRates } from '../domain/fx.js';
import type { KubeUsageRow } from '../domain/kube-usage.js';
import { readBillRates } from './bill-rates.js';
import { SPEND_AMOUNTS, SPEND_COLUMN_NAMES } from './schema.js';
import type { InsertColumn, Session } from './session.js';
import { rebuildTeamDays, SPEND_LOCK, type DaySpan } from './spend-team-days.js';

/** No rates of burnrate.yml's: the bills' own convert, where they relate two currencies. */
export const BILL_RATES_ONLY: FxRates = { base: 'USD', rates: {} };

/** The source of the moves in spend_daily: never imported, never a source of freshness. */
export const KUBE_ATTRIBUTION_SOURCE = 'kubernetes';

/** A kube_gpu_usage row under its record's names. */
export const KUBE_USAGE_COLUMNS = `day, cluster, node, node_instance_id AS "nodeInstanceId", node_hourly AS "nodeHourly", namespace, workload,
  team, node_hours AS "nodeHours"`;

/** The columns a move writes of its own: its source, and the workload's team and name. */
const OWN = 'source team owner_tag resource_id resource_name'.split(' ');

/** Every spend_daily column a move copies from the node's bill line as it is: all but its own, its export's and the amounts. */
const COPIED = SPEND_COLUMN_NAMES.filter((c) => !OWN.includes(c) && !['export_id', 'part', 'content_hash', ...SPEND_AMOUNTS].includes(c));

const MOVE_COLUMNS: readonly InsertColumn[] = [
  ...[...OWN, ...COPIED].map((name) => ({ name, type: 'text' as const })),
  ...SPEND_AMOUNTS.map((name) => ({ name, type: 'float8' as const })),
];

/** A bill line of a node: its copied columns then its amounts, in MOVE_COLUMNS order after the first five. */
type NodeLine = unknown[];

/** After the bill, its pod split or the usage of a span changed: the moves made anew, the team days summed again. */
export async function rederiveSpend(tx: Session, span: DaySpan | null, fx: FxRates): Promise<void> {
  if (!span) return;
  await attributeKubeCost(tx, span, fx);
  await rebuildTeamDays(tx, span);
}

/** Rebuilds the moves of Kubernetes node cost to workloads' teams over a span. Runs inside the caller's transaction. */
async function attributeKubeCost(tx: Session, span: DaySpan, fx: FxRates): Promise<void> {
  await tx.lock(SPEND_LOCK);
  await tx.run(`DELETE FROM spend_daily WHERE source = '${KUBE_ATTRIBUTION_SOURCE}' AND day >= ? AND day <= ?`, [span.first, span.last]);
  const usage = await tx.rows<KubeUsageRow>(
    `SELECT ${KUBE_USAGE_COLUMNS} FROM kube_gpu_usage WHERE day >= ? AND day <= ? AND node_instance_id IS NOT NULL`,
    [span.first, span.last],
  );
  // Most imports have no cluster behind them: nothing more to read.
  if (usage.length === 0) return;
  const lines = await nodeLines(tx, span);
  const { billed, pods } = await billedNodeDays(tx, span, lines, fx);
  const moves: unknown[][] = [];
  for (const split of shareNodeDays(usage, billed, pods)) {
    const ofDay = lines.get(`${split.nodeInstanceId}|${split.day}`) ?? [];
    const shares = split.shares.filter((s) => isWorkloadShare(s) && s.team !== null && s.fraction > 0);
    if (ofDay.length === 0 || shares.length === 0) continue;
    const moved = shares.reduce((sum, s) => sum + s.fraction, 0);
    for (const { head, rest } of ofDay) {
      for (const s of shares)
        moves.push([
          KUBE_ATTRIBUTION_SOURCE,
          s.team,
          s.team,
          `k8s:${s.workload}`,
          s.workload.slice(s.cluster.length + 1),
          ...scaled(rest, s.fraction),
        ]);
      moves.push([KUBE_ATTRIBUTION_SOURCE, ...head, ...scaled(rest, -moved)]);
    }
  }
  await tx.insertRows('spend_daily', MOVE_COLUMNS, moves);
}

/** A line's copied columns as they are, its amounts × factor (an amount the bill left empty stays empty). */
function scaled(rest: NodeLine, factor: number): unknown[] {
  const amounts = rest.length - SPEND_AMOUNTS.length;
  return rest.map((v, i) => (i < amounts || v === null ? v : Number(v) * factor));
}

/** An amount's currency and the billing period whose rate converts it. */
interface Priced {
  currency: string;
  period: string;
}

interface BillLines extends Priced {
  /** team, owner_tag, resource_id, resource_name */
  head: unknown[];
  /** COPIED then SPEND_AMOUNTS */
  rest: NodeLine;
}

/** The bill lines of the sampled nodes over the span, per `node|day`. */
async function nodeLines(tx: Session, span: DaySpan): Promise<Map<string, BillLines[]>> {
  const rows = await tx.tuples<unknown[]>(
    `SELECT team, owner_tag, resource_id, resource_name, ${[...COPIED, ...SPEND_AMOUNTS].join(', ')}
     FROM spend_daily WHERE source <> '${KUBE_ATTRIBUTION_SOURCE}' AND day >= ? AND day <= ?
       AND resource_id IN (SELECT node_instance_id FROM kube_gpu_usage WHERE day >= ? AND day <= ? AND node_instance_id IS NOT NULL)`,
    [span.first, span.last, span.first, span.last],
  );
  const byNodeDay = new Map<string, BillLines[]>();
  const dayAt = 4 + COPIED.indexOf('day');
  const currencyAt = 4 + COPIED.indexOf('currency');
  const periodAt = 4 + COPIED.indexOf('billing_period');
  for (const r of rows) {
    const key = `${String(r[2])}|${String(r[dayAt])}`;
    const line = { head: r.slice(0, 4), rest: r.slice(4), currency: String(r[currencyAt]), period: String(r[periodAt]) };
    byNodeDay.set(key, [...(byNodeDay.get(key) ?? []), line]);
  }
  return byNodeDay;
}

/**
 * What the bill charged each node-day (effective cost, hours counted) and its pods' split, in one
 * currency per node-day: its first bill line's. A node-day billed in two currencies, or split in
 * another than it was billed in, has its other amounts converted at their billing period's rate, by
 * the one conversion every surface uses (burnrate.yml's rates, completed with the bills' own), so
 * that its shares are fractions of one amount. One with an amount no rate converts keeps burnrate's
 * estimate: a fraction of part of its cost would move the wrong amount.
 */
async function billedNodeDays(
  tx: Session,
  span: DaySpan,
  lines: ReadonlyMap<string, readonly BillLines[]>,
  fx: FxRates,
): Promise<{ billed: BilledNodeDay[]; pods: BilledPodDay[] }> {
  const effectiveAt = COPIED.length + SPEND_AMOUNTS.indexOf('effective');
  const hoursAt = COPIED.length + SPEND_AMOUNTS.indexOf('usage_hours');
  const split = await tx.rows<BilledPodDay & Priced>(
    `SELECT day, node_instance_id AS "nodeInstanceId", namespace, pod, currency, billing_period AS period, sum(split_cost) AS cost
     FROM kube_split_costs WHERE day >= ? AND day <= ? GROUP BY day, node_instance_id, namespace, pod, currency, billing_period`,
    [span.first, span.last],
  );
  const podsOf = new Map<string, (BilledPodDay & Priced)[]>();
  for (const p of split) {
    const key = `${p.nodeInstanceId}|${p.day}`;
    podsOf.set(key, [...(podsOf.get(key) ?? []), { ...p, cost: Number(p.cost) }]);
  }
  // The bills' own rates are read only when some node-day needs them (most clusters bill in one currency).
  let rates: FxRates | undefined;
  const billed: BilledNodeDay[] = [];
  const pods: BilledPodDay[] = [];
  for (const [key, ofDay] of lines) {
    const [nodeInstanceId, day] = key.split('|') as [string, string];
    const ofPods = podsOf.get(key) ?? [];
    const to = ofDay[0]!.currency;
    const oneCurrency = [...ofDay, ...ofPods].every((a) => a.currency === to);
    const at = oneCurrency ? fx : (rates ??= withBillRates(fx, await readBillRates(tx)));
    const lineCosts = ofDay.map((l) => convert(Number(l.rest[effectiveAt]), l.currency, to, at, l.period));
    const podCosts = ofPods.map((p) => convert(p.cost, p.currency, to, at, p.period));
    const counted = ofDay.filter((l) => l.rest[hoursAt] !== null);
    billed.push({
      nodeInstanceId,
      day,
      cost: lineCosts.reduce<number>((sum, c) => sum + (c ?? 0), 0),
      hours: counted.length ? counted.reduce((sum, l) => sum + Number(l.rest[hoursAt]), 0) : null,
    });
    if ([...lineCosts, ...podCosts].every((c) => c !== null))
      ofPods.forEach((p, i) =>
        pods.push({ nodeInstanceId: p.nodeInstanceId, day: p.day, namespace: p.namespace, pod: p.pod, cost: podCosts[i]! }),
      );
  }
  return { billed, pods };
}
