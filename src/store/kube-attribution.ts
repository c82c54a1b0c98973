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
import { priceNodeDays, type NodeBillAmount, type PodBillAmount } from '../checks/kubernetes/priced-node-days.js';
import { withBillRates, type FxRates } from '../domain/fx.js';
import type { KubeUsageRow } from '../domain/kube-usage.js';
import { readBillRates } from './bill-rates.js';
import { movesAtRates, spansAtOtherRates } from './kube-attribution-rates.js';
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

/**
 * After the bill, its pod split or the usage of a span changed: the moves made anew, the team days
 * summed again. Moves made at other rates than `fx` are made anew first (kube-attribution-rates.ts):
 * every move is at one set of rates, the ones every figure converts at when it is read.
 */
export async function rederiveSpend(tx: Session, span: DaySpan | null, fx: FxRates): Promise<void> {
  if (!span) return;
  await tx.lock(SPEND_LOCK);
  await remakeMoves(tx, [...(await spansAtOtherRates(tx, fx)), span], fx);
}

/**
 * On opening the store with burnrate.yml's rates, before its first read: moves made at other rates
 * (the file's rates changed since) made anew at these, in one transaction; nothing when they are the same.
 */
export async function attributeAtRates(db: Session, fx: FxRates): Promise<void> {
  if (await movesAtRates(db, fx)) return;
  await db.transaction(async (tx) => {
    await tx.lock(SPEND_LOCK);
    await remakeMoves(tx, await spansAtOtherRates(tx, fx), fx);
  });
}

async function remakeMoves(tx: Session, spans: readonly DaySpan[], fx: FxRates): Promise<void> {
  for (const span of spans) {
    await attributeKubeCost(tx, span, fx);
    await rebuildTeamDays(tx, span);
  }
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

interface BillLines {
  /** team, owner_tag, resource_id, resource_name */
  head: unknown[];
  /** COPIED then SPEND_AMOUNTS */
  rest: NodeLine;
  /** The line's currency and the billing period whose rate converts it. */
  currency: string;
  period: string;
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
 * What the bill charged each node-day and its pods' split, by the one rule `spend --by workload`
 * reads too (priceNodeDays): each node-day's amounts in one currency, at their billing period's
 * rate (burnrate.yml's, completed with the bills' own); a node-day with an amount no rate converts
 * keeps burnrate's estimate.
 */
async function billedNodeDays(
  tx: Session,
  span: DaySpan,
  lines: ReadonlyMap<string, readonly BillLines[]>,
  fx: FxRates,
): Promise<{ billed: BilledNodeDay[]; pods: BilledPodDay[] }> {
  const effectiveAt = COPIED.length + SPEND_AMOUNTS.indexOf('effective');
  const hoursAt = COPIED.length + SPEND_AMOUNTS.indexOf('usage_hours');
  const pods = await tx.rows<PodBillAmount>(
    `SELECT day, node_instance_id AS "nodeInstanceId", namespace, pod, currency, billing_period AS period, sum(split_cost) AS cost
     FROM kube_split_costs WHERE day >= ? AND day <= ? GROUP BY day, node_instance_id, namespace, pod, currency, billing_period`,
    [span.first, span.last],
  );
  const amounts: NodeBillAmount[] = [...lines].flatMap(([key, ofDay]) => {
    const [nodeInstanceId, day] = key.split('|') as [string, string];
    return ofDay.map(({ rest, currency, period }) => ({
      nodeInstanceId,
      day,
      currency,
      period,
      cost: Number(rest[effectiveAt]),
      hours: rest[hoursAt] === null ? null : Number(rest[hoursAt]),
    }));
  });
  const split = pods.map((p) => ({ ...p, cost: Number(p.cost) }));
  // The bills' own rates are read only when some amount needs them (most clusters bill in one currency).
  const currencies = new Set([...amounts, ...split].map((a) => a.currency));
  const rates = currencies.size > 1 ? withBillRates(fx, await readBillRates(tx)) : fx;
  return priceNodeDays(amounts, split, rates);
}
