import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import type { Deps } from '../../src/deps.js';
import type { KubeSplitCost, KubeUsageRow } from '../../src/domain/kube-usage.js';
import { monthOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { loadReviewFigures } from '../../src/jobs/review/review-figures.js';
import { listBudgets } from '../../src/snapshots/budget-listing.js';
import { loadMonthShowback } from '../../src/snapshots/month-showback.js';
import { loadTeamGauges } from '../../src/snapshots/team-gauges.js';
import { spendRow, testDeps } from '../support/deps.js';
import { cli, workDir } from '../support/run-cli.js';
import { expectClose as close } from '../support/yen-bill.js';

// What the tests of the bill's pod split share: a store and a burnrate.yml the CLI reads, holding a
// bill, its pod split and burnrate's samples written by the test, and every team surface compared
// with the test's own plain sum.

/** The node's team (platform) and the workloads' (vision, ml), each with a monthly budget in USD, and an admin. */
export const TEAMS = {
  teams: [
    { id: 'platform', budget: { monthly: 100_000, currency: 'USD', thresholds: [100] } },
    { id: 'vision', budget: { monthly: 10_000, currency: 'USD', thresholds: [100] } },
    { id: 'ml', budget: { monthly: 10_000, currency: 'USD', thresholds: [100] } },
  ],
  admins: ['U0ADMIN'],
};

/** The team surfaces' store and working folder, filled before the tests and closed after. */
export interface KubeSplitSurfaces {
  deps: Deps;
  cwd: string;
  db: string;
  now: string;
}

/**
 * Imports `bill` (with `split`, over `billingPeriods`) and records `usage` before the file's tests;
 * the bill's data runs through `now`'s day. With `importedWith`, they are imported by a store opened
 * with that earlier burnrate.yml, which is then re-opened with `config` (its rates changed since).
 */
export function kubeSplitSurfaces(
  config: Record<string, unknown>,
  now: string,
  data: {
    billingPeriods: string[];
    bill: SpendRow[];
    split: KubeSplitCost[];
    usage: KubeUsageRow[];
    importedWith?: Record<string, unknown>;
  },
): KubeSplitSurfaces {
  const cwd = workDir();
  const db = join(cwd, 'burnrate.db');
  const { deps } = testDeps(data.importedWith ?? config, now, db);
  const through = `${now.slice(0, 10)}T00:00:00Z`;
  beforeAll(async () => {
    writeFileSync(join(cwd, 'burnrate.yml'), JSON.stringify(config));
    await deps.store.importBatches([
      { scope: { source: 'cur', billingPeriods: data.billingPeriods }, rows: data.bill, podSplits: data.split, dataThrough: through },
    ]);
    await deps.store.kubeUsage.record('prod', new Date(through), data.usage, []);
    if (!data.importedWith) return;
    await deps.store.close();
    Object.assign(deps, testDeps(config, now, db).deps);
    // The CLI below runs in this process: the re-opened store's own work on opening is done first.
    await deps.store.ready();
  });
  afterAll(() => deps.store.close());
  return { deps, cwd, db, now };
}

/** A day of a node's instance on the bill: `team`'s, `amount` in USD, 24 hours. */
export const nodeBillRow = (team: string, day: string, node: string, amount: number): SpendRow => ({
  ...spendRow(team, day, amount),
  resourceId: node,
  usageHours: 24,
});

/** A day of burnrate's samples of a node in cluster prod (`host`, instance `nodeInstanceId`): `workload` held it 12 hours. */
export const halfDayHeld = (host: string, nodeInstanceId: string, day: string, workload: string, team: string): KubeUsageRow => ({
  day,
  cluster: 'prod',
  node: host,
  nodeInstanceId,
  nodeHourly: 40,
  namespace: workload.split('/')[1]!,
  workload,
  team,
  nodeHours: 12,
});

/** One pod's amount of the bill's pod split of a node in cluster prod, one day. */
export const podSplitRow = (
  nodeInstanceId: string,
  day: string,
  namespace: string,
  pod: string,
  currency: string,
  splitCost: number,
): KubeSplitCost => ({ day, nodeInstanceId, cluster: 'prod', namespace, pod, billingPeriod: day.slice(0, 7), currency, splitCost });

/** `spend --by workload --json` of a month, as the CLI answers it. */
export async function workloadRows(s: KubeSplitSurfaces, month: string): Promise<{ key: string; effective: number; basis: string }[]> {
  const out = (await cli(['spend', '--db', s.db, '--by', 'workload', '--period', month, '--json'], { cwd: s.cwd, now: s.now })).out;
  return (JSON.parse(out) as { rows: { key: string; effective: number; basis: string }[] }).rows;
}

/** A finished month: each team's spend, its JSON on the CLI, the review's figures and showback equal `want(team)`. */
export async function expectMonthAgrees(s: KubeSplitSurfaces, month: string, teams: readonly string[], want: (team: string) => number) {
  const period = monthOf(`${month}-01`);
  const showback = await loadMonthShowback(s.deps, month);
  for (const team of teams) {
    close((await spendReport(s.deps, { period, by: 'team', team })).total.effective, want(team));
    const json = JSON.parse(
      (await cli(['spend', '--db', s.db, '--team', team, '--period', month, '--json'], { cwd: s.cwd, now: s.now })).out,
    ) as { total: { effective: number } };
    close(json.total.effective, want(team));
    const config = s.deps.config.teams.find((t) => t.id === team)!;
    close((await loadReviewFigures(s.deps, config, month, null)).spend, want(team));
    expect(Math.abs(showback.result.lines.find((l) => l.team === team)!.direct - want(team))).toBeLessThan(0.01);
  }
}

/** This month so far: each team's spend, the budget listing and the gauges /metrics reads equal `want(team)`. */
export async function expectMonthToDateAgrees(s: KubeSplitSurfaces, teams: readonly string[], want: (team: string) => number) {
  const { start, end } = monthOf(s.now.slice(0, 10));
  const listing = await listBudgets(s.deps, s.deps.clock());
  const gauges = await loadTeamGauges(s.deps);
  for (const team of teams) {
    close((await spendReport(s.deps, { period: { start, end }, by: 'team', team })).total.effective, want(team));
    close(listing.budgets.find((b) => b.team === team && b.name === 'monthly')?.actual, want(team));
    close(gauges.find((g) => g.team === team)?.spendMonthToDate, want(team));
  }
}
