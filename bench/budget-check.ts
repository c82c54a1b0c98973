import pino from 'pino';
import { checkBudgets } from '../src/checks/budget/check-budgets.js';
import { configSchema, type TeamConfig } from '../src/config/schema.js';
import type { Deps } from '../src/deps.js';
import { addDays } from '../src/domain/period.js';
import type { SpendRow } from '../src/domain/spend.js';
import { runBudgetCheck } from '../src/jobs/budget-check.js';
import { openStore } from '../src/store/sqlite/open-sqlite-store.js';
import { median } from './stats.js';

export interface BudgetBenchResult {
  teams: number;
  days: number;
  /** The pure check over an in-memory snapshot of every day. */
  checkMs: number;
  /** The whole job: load from SQLite, check, reconcile, record, queue. */
  jobMs: number;
  /** The same two in CPU time of this process (process.cpuUsage): what a machine busy with other work disturbs less. */
  checkCpuMs: number;
  jobCpuMs: number;
  findings: number;
}

/** Wall and CPU time of one run, ms. */
async function timed(run: () => unknown): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

const NOW = new Date('2026-11-21T09:00:00Z');

/** Budget checks over `teams` teams with `days` days of daily spend each. */
export async function benchBudgetCheck(options: { teams: number; days: number; runs: number }): Promise<BudgetBenchResult> {
  const teams: TeamConfig[] = Array.from({ length: options.teams }, (_, i) => ({
    ...configSchema.parse({
      teams: [
        {
          id: `team-${i}`,
          timezone: ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'][i % 4],
          budget: { monthly: 30_000 + (i % 7) * 10_000, weekly: 9_000 },
        },
      ],
    }).teams[0]!,
  }));
  const firstDay = addDays('2026-11-21', -options.days);
  const amount = (t: number, d: number) => 600 + ((t * 7919 + d * 104_729) % 900);

  const daily = new Map(
    teams.map((team, t) => [
      team.id,
      new Map(Array.from({ length: options.days }, (_, d) => [addDays(firstDay, d), amount(t, d)] as const)),
    ]),
  );
  const snapshot = { teams, daily, dataThrough: '2026-11-21T00:00:00Z' };
  // The setup above leaves garbage (a thousand config parses); collect it now, not inside the timing.
  (globalThis as { gc?: () => void }).gc?.();
  const checkTimes: { wall: number; cpu: number }[] = [];
  let findings = 0;
  for (let run = 0; run < options.runs; run++)
    checkTimes.push(await timed(() => (findings = checkBudgets(snapshot, { lookbackDays: 28 }, NOW).length)));

  const store = openStore(':memory:');
  const rows: SpendRow[] = teams.flatMap((team, t) =>
    Array.from({ length: options.days }, (_, d) => {
      const day = addDays(firstDay, d);
      return {
        day,
        billingPeriod: day.slice(0, 7),
        team: team.id,
        ownerTag: team.id,
        provider: 'AWS',
        billingAccount: '1',
        subAccount: null,
        service: 'EC2',
        serviceCategory: 'Compute',
        resourceId: null,
        chargeCategory: 'Usage',
        pricingCategory: 'Standard',
        currency: 'USD',
        billed: amount(t, d),
        effective: amount(t, d),
      };
    }),
  );
  const periods = [...new Set(rows.map((r) => r.billingPeriod))];
  await store.importBatches([{ scope: { source: 'bench', billingPeriods: periods }, rows, dataThrough: snapshot.dataThrough }]);
  const deps: Deps = { config: configSchema.parse({}), store, sources: [], chat: [], clock: () => NOW, log: pino({ level: 'silent' }) };
  deps.config.teams = teams;
  const jobTimes: { wall: number; cpu: number }[] = [];
  for (let run = 0; run < options.runs; run++) jobTimes.push(await timed(() => runBudgetCheck(deps, { dryRun: true })));
  await store.close();
  return {
    teams: options.teams,
    days: options.days,
    checkMs: median(checkTimes.map((t) => t.wall)),
    jobMs: median(jobTimes.map((t) => t.wall)),
    checkCpuMs: median(checkTimes.map((t) => t.cpu)),
    jobCpuMs: median(jobTimes.map((t) => t.cpu)),
    findings,
  };
}
