import { describe, expect, it } from 'vitest';
import { daysOf, monthOf } from '../../src/domain/period.js';
import type { KubeSplitCost, KubeUsageRow } from '../../src/domain/kube-usage.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { spendRow } from '../support/deps.js';
import { cli } from '../support/run-cli.js';
import { expectClose as close } from '../support/yen-bill.js';
import { expectMonthAgrees, halfDayHeld, kubeSplitSurfaces, nodeBillRow, podSplitRow, TEAMS } from './kube-split-surfaces.js';

// A Kubernetes node billed in dollars plus a second charge: in euros on the first ten days of
// November, in yen after. burnrate.yml has a yen rate and no euro rate (nor does the bill). A
// node-day with an amount in euros keeps burnrate's estimate (its samples: half the node each), on
// that node-day only; every other node-day is split by the bill's pod split. Team spend and
// `spend --by workload` follow that one rule, and the answer names the node-days that kept the
// estimate. Written here by hand; expected figures are plain sums over these rows, never burnrate's output.

const NOW = '2026-12-10T09:00:00Z';
const DAYS = daysOf({ start: '2026-11-01', end: '2026-12-10' });
const NODE = 'i-0c0000000000000e4';
/** USD per unit, burnrate.yml's: yen only. */
const RATE: Readonly<Partial<Record<string, number>>> = { USD: 1, JPY: 0.0067 };
const TRAINER = 'prod/cv/Deployment/trainer';
const EVAL = 'prod/ml/StatefulSet/eval';
const CONFIG = { ...TEAMS, fx: { base: 'USD', rates: { JPY: RATE.JPY } } };

/** The second charge's currency on a day: euros the first ten days of November. */
const other = (day: string) => (day <= '2026-11-10' ? 'EUR' : 'JPY');

/** The node's bill each day: its instance hours in dollars, a second charge in euros or yen. */
const BILL: SpendRow[] = DAYS.flatMap((day) => [
  nodeBillRow('platform', day, NODE, 200),
  { ...spendRow('platform', day, other(day) === 'EUR' ? 40 : 6000), resourceId: NODE, currency: other(day) },
]);

const usage = (day: string, workload: string, team: string) => halfDayHeld('ip-10-0-1-4', NODE, day, workload, team);

/** burnrate's samples: 12 of the bill's 24 hours each. */
const USAGE: KubeUsageRow[] = DAYS.flatMap((day) => [usage(day, TRAINER, 'vision'), usage(day, EVAL, 'ml')]);

const split = (day: string, namespace: string, pod: string, currency: string, splitCost: number) =>
  podSplitRow(NODE, day, namespace, pod, currency, splitCost);

/** The bill's pod split: part in dollars, part in the day's second currency. */
const SPLIT: KubeSplitCost[] = DAYS.flatMap((day) => [
  split(day, 'cv', 'trainer-5d8c9f7b4-x1k2p', 'USD', 101.37),
  split(day, 'cv', 'trainer-5d8c9f7b4-q7w3z', other(day), other(day) === 'EUR' ? 20 : 3000),
  split(day, 'ml', 'eval-0', other(day), other(day) === 'EUR' ? 30 : 4500),
  split(day, 'ml', 'notebook-7', 'USD', 9.25),
]);

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const rated = (currency: string) => RATE[currency] !== undefined;

/** One day's dollars by line, by hand: the bill's split where every amount of the day has a rate, else half of the rated bill each. */
function dayLines(day: string): Record<'trainer' | 'eval' | 'notebook' | 'node', number> {
  const bill = BILL.filter((r) => r.day === day);
  const pods = SPLIT.filter((r) => r.day === day);
  const billed = sum(bill.filter((r) => rated(r.currency)).map((r) => r.effective * RATE[r.currency]!));
  const pod = (name: RegExp) => sum(pods.filter((r) => name.test(r.pod)).map((r) => r.splitCost * RATE[r.currency]!));
  const lines = [...bill, ...pods].every((r) => rated(r.currency))
    ? { trainer: pod(/^trainer-/), eval: pod(/^eval-/), notebook: pod(/^notebook-/) }
    : { trainer: billed / 2, eval: billed / 2, notebook: 0 };
  return { ...lines, node: billed - lines.trainer - lines.eval - lines.notebook };
}

const over = (start: string, end: string, line: keyof ReturnType<typeof dayLines>) =>
  sum(DAYS.filter((d) => d >= start && d < end).map((d) => dayLines(d)[line]));
const expected = (team: string, start: string, end: string): number =>
  team === 'vision'
    ? over(start, end, 'trainer')
    : team === 'ml'
      ? over(start, end, 'eval') + over(start, end, 'notebook')
      : over(start, end, 'node');

describe('a node-day with an amount no rate converts keeps the estimate on every surface, that node-day only', () => {
  const surfaces = kubeSplitSurfaces(CONFIG, NOW, { billingPeriods: ['2026-11', '2026-12'], bill: BILL, split: SPLIT, usage: USAGE });

  it('last month: spend --by workload and every team surface agree, and the answer names the node-days that kept the estimate', async () => {
    const { start, end } = monthOf('2026-11-01');
    // Ten days at half the dollar bill, twenty at the bill's split at the yen rate.
    close(expected('vision', start, end), 10 * 100 + 20 * (101.37 + 3000 * 0.0067));

    const answer = JSON.parse(
      (await cli(['spend', '--db', surfaces.db, '--by', 'workload', '--period', '2026-11', '--json'], { cwd: surfaces.cwd, now: NOW })).out,
    ) as { rows: { key: string; effective: number; basis: string }[]; warnings: string[] };
    const workload = (key: string) => answer.rows.find((r) => r.key === key);
    close(workload('cv/Deployment/trainer')?.effective, over(start, end, 'trainer'));
    expect(workload('cv/Deployment/trainer')?.basis).toBe('mixed');
    close(workload('ml/StatefulSet/eval')?.effective, over(start, end, 'eval'));
    close(workload('ml/Pod/notebook-7')?.effective, over(start, end, 'notebook'));
    expect(answer.warnings).toContain(
      `10 node-day(s) split over pods by the bill keep burnrate's estimate: amounts in EUR have no rate to USD ` +
        `(${NODE} on 10 days from 2026-11-01 to 2026-11-10). Add it under fx in burnrate.yml.`,
    );

    await expectMonthAgrees(surfaces, '2026-11', ['vision', 'ml', 'platform'], (team) => expected(team, start, end));
  });
});
