import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import { homeView } from '../../src/inbound/home-view.js';
import { digestPeriod } from '../../src/checks/digest/digest-period.js';
import { daysOf, monthOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { formatMoney } from '../../src/domain/money.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { loadReviewFigures } from '../../src/jobs/review/review-figures.js';
import { loadReviewLines } from '../../src/jobs/review/review-lines.js';
import { listBudgets } from '../../src/snapshots/budget-listing.js';
import { loadMonthShowback } from '../../src/snapshots/month-showback.js';
import { loadCategoryDays } from '../../src/snapshots/team-breakdowns.js';
import { loadDigestContext, loadTeamDigest } from '../../src/snapshots/team-digest.js';
import { loadTeamGauges } from '../../src/snapshots/team-gauges.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { DEMO_JPY } from '../../src/providers/demo/demo-spend.js';
import { buildSources } from '../../src/providers/registry.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { teamDigest } from '../../templates/digest.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { cli, workDir } from '../support/run-cli.js';
import { expectClose as close, inUsd, yenStorageLine } from '../support/yen-bill.js';
import { spendRow, testDeps } from '../support/deps.js';

// One fact, one figure: a team's month is the same amount on every surface that shows it (the spend
// command in chat and on the CLI, its JSON, the budget listing and alert, the monthly review's
// figures, chart and cost lines, showback, the digest, App Home and the gauges /metrics reads).
// The bill is written here in two currencies, the yen billed at a different rate each month (FOCUS
// 1.2's pricing currency gives each bill's own rate); the expected amounts are plain sums over
// these rows, each at its own month's rate, never burnrate's output.

const NOW = '2026-12-10T09:00:00Z';
const DAYS = daysOf({ start: '2026-10-01', end: '2026-12-10' });
const TRAINER_USD = 40;
const ANNOTATIONS_YEN = 30_000;
const ML_USD = 100;

const CONFIG = {
  fx: { base: 'USD' },
  teams: [
    { id: 'vision', name: 'Computer Vision', budget: { monthly: 3000, currency: 'USD', thresholds: [50, 80, 100] } },
    { id: 'ml', name: 'ML Research', budget: { monthly: 10_000, currency: 'USD', thresholds: [80, 100] } },
  ],
  admins: ['U0ADMIN'],
};

function bill(): SpendRow[] {
  return DAYS.flatMap((day) => {
    const yen = ANNOTATIONS_YEN;
    return [
      { ...spendRow('vision', day, TRAINER_USD), resourceId: 'i-trainer', resourceName: 'trainer' },
      { ...yenStorageLine('vision', day, yen), billingAccount: 'jp-1', serviceCategory: 'Storage' },
      spendRow('ml', day, ML_USD),
    ];
  });
}

/** A plain sum over the rows of `team` in [start, end), each converted at its own month's rate. */
function expectedSpend(team: string, start: string, end: string): number {
  return bill()
    .filter((r) => r.team === team && r.day >= start && r.day < end)
    .reduce((sum, r) => sum + inUsd(r), 0);
}

describe("a team's month is one figure on every surface", () => {
  const cwd = workDir();
  const db = join(cwd, 'burnrate.db');
  const { deps } = testDeps(CONFIG, NOW, db);
  const vision = deps.config.teams[0]!;

  beforeAll(async () => {
    writeFileSync(join(cwd, 'burnrate.yml'), JSON.stringify(CONFIG));
    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11', '2026-12'] }, rows: bill(), dataThrough: '2026-12-10T00:00:00Z' },
    ]);
  });
  afterAll(() => deps.store.close());

  it('last month: spend, CLI JSON, review figures, chart and cost lines, and showback agree with the bill', async () => {
    const november = monthOf('2026-11-01');
    // 30 days × ($40 + ¥30,000 × 0.0067) = $7,230.00: November's yen at November's rate.
    const expected = expectedSpend('vision', november.start, november.end);
    close(expected, 30 * (TRAINER_USD + ANNOTATIONS_YEN * 0.0067));

    const report = await spendReport(deps, { period: november, by: 'team', team: 'vision' });
    close(report.total.effective, expected);
    expect(renderPlainText(spendSummary(report, 'Computer Vision'))).toContain(formatMoney(expected, 'USD'));

    const json = JSON.parse(
      (await cli(['spend', '--db', db, '--team', 'vision', '--period', '2026-11', '--json'], { cwd, now: NOW })).out,
    ) as {
      total: { effective: number };
    };
    close(json.total.effective, expected);

    const figures = await loadReviewFigures(deps, vision, '2026-11', null);
    close(figures.spend, expected);
    expect(renderPlainText(reviewSummary(figures, 2))).toContain(formatMoney(expected, 'USD'));

    const days = await loadCategoryDays(deps, november, 'vision', { currency: 'USD' });
    close(
      days.reduce((sum, d) => sum + d.effective, 0),
      expected,
    );

    // The yen line is the larger, once converted: ¥900,000 is $6,030, not "$900,000".
    const lines = await loadReviewLines(deps, 'vision', '2026-11');
    expect(lines.map((l) => l.key)).toEqual(['cv-annotations', 'i-trainer']);
    close(lines[0]!.cost, 30 * ANNOTATIONS_YEN * 0.0067);
    close(lines[1]!.cost, 30 * TRAINER_USD);

    const showback = await loadMonthShowback(deps, '2026-11');
    expect(showback.missing).toEqual([]);
    close(showback.result.lines.find((l) => l.team === 'vision')?.direct, expected);
  });

  it('a month converted at its own rate, not the latest one: October', async () => {
    const october = monthOf('2026-10-01');
    const expected = expectedSpend('vision', october.start, october.end);
    close(expected, 31 * (TRAINER_USD + ANNOTATIONS_YEN * 0.007));
    close((await spendReport(deps, { period: october, by: 'team', team: 'vision' })).total.effective, expected);
    close((await loadReviewFigures(deps, vision, '2026-10', null)).spend, expected);
    close((await loadMonthShowback(deps, '2026-10')).result.lines.find((l) => l.team === 'vision')?.direct, expected);
  });

  it('this month so far: spend, budget listing, budget alert, digest, App Home and the gauges agree with the bill', async () => {
    const december = monthOf('2026-12-01');
    // Nine days billed so far, the yen at December's rate.
    const expected = expectedSpend('vision', december.start, '2026-12-10');
    close(expected, 9 * (TRAINER_USD + ANNOTATIONS_YEN * 0.0065));

    close((await spendReport(deps, { period: december, by: 'team', team: 'vision' })).total.effective, expected);
    close((await spendReport(deps, { period: december, by: 'day', team: 'vision' })).total.effective, expected);

    const listing = await listBudgets(deps, deps.clock());
    close(listing.budgets.find((b) => b.team === 'vision' && b.name === 'monthly')?.actual, expected);

    const check = await runBudgetCheck(deps);
    const alert = check.findings.find((f) => f.team === 'vision');
    close(alert?.actual, expected);

    const digest = await loadTeamDigest(deps, vision, digestPeriod('daily', '2026-12-10')!, await loadDigestContext(deps));
    close(digest.monthToDate.spent, expected);
    expect(renderPlainText(teamDigest(digest))).toContain(formatMoney(expected, 'USD'));

    const home = renderPlainText(await homeView(deps, { userId: 'U0ADMIN', platform: 'slack' }));
    expect(home).toContain(formatMoney(expected, 'USD'));

    const gauges = await loadTeamGauges(deps);
    close(gauges.find((g) => g.team === 'vision')?.spendMonthToDate, expected);
  });
});

describe("the demo organisation's last month is one figure on every surface", () => {
  it('spend, review figures, chart, cost lines and showback agree with a plain sum of the stored bill, yen at its rate', async () => {
    const db = join(workDir(), 'demo.db');
    const { deps } = testDeps(demoConfig(), '2026-12-03T06:00:00Z', db);
    deps.sources = buildSources(deps.config).spend;
    await refreshSources(deps);
    const november = monthOf('2026-11-01');
    const rate = (currency: string) => (currency === 'USD' ? 1 : currency === DEMO_JPY.currency ? DEMO_JPY.usdPerUnit : NaN);
    const raw = new Database(db, { readonly: true });
    const rows = raw
      .prepare(`SELECT team, resource_id AS resource, currency, effective FROM spend_daily WHERE day >= ? AND day < ?`)
      .all(november.start, november.end) as { team: string; resource: string | null; currency: string; effective: number }[];
    raw.close();
    const showback = await loadMonthShowback(deps, '2026-11');
    for (const team of deps.config.teams) {
      const mine = rows.filter((r) => r.team === team.id);
      const expected = mine.reduce((sum, r) => sum + r.effective * rate(r.currency), 0);
      close((await spendReport(deps, { period: november, by: 'team', team: team.id })).total.effective, expected);
      close((await loadReviewFigures(deps, team, '2026-11', null)).spend, expected);
      const days = await loadCategoryDays(deps, november, team.id, { currency: 'USD' });
      close(
        days.reduce((sum, d) => sum + d.effective, 0),
        expected,
      );
      for (const line of await loadReviewLines(deps, team.id, '2026-11')) {
        const billed = mine
          .filter((r) => (r.resource ?? '') === line.resourceId)
          .reduce((sum, r) => sum + r.effective * rate(r.currency), 0);
        if (line.resourceId) close(line.cost, billed);
        expect(line.cost).toBeLessThanOrEqual(expected);
      }
      // Showback rounds its lines to whole cents once, by largest remainder: within a cent.
      expect(Math.abs(showback.result.lines.find((l) => l.team === team.id)!.direct - expected)).toBeLessThan(0.01);
    }
  });
});
