import { afterAll, describe, expect, it } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import { monthOf } from '../../src/domain/period.js';
import { listBudgets } from '../../src/snapshots/budget-listing.js';
import { loadTeamGauges } from '../../src/snapshots/team-gauges.js';
import { readFocusFiles } from '../../src/providers/focus/read-focus.js';
import { testDeps } from '../support/deps.js';
import { HEADER, pullContext, tempDir, writeFocusCsv, type FixtureRow } from '../providers/focus/helpers.js';

// The audit's case: a team with a $5,000 monthly fee billed for the whole month on the 1st, and
// usage through the 5th. On the 6th, month-to-date spend is the usage of the five days plus the
// fee's five days out of 31 (it is spread over its month on import), on every surface that shows
// it: spend, the budget's "spent so far" and the App Home / metrics gauge. Expectations come from
// the rows written below.

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const USAGE: [string, string][] = [
  ['2026-12-01', '431.17'],
  ['2026-12-02', '388.40'],
  ['2026-12-03', '402.99'],
  ['2026-12-04', '512.05'],
  ['2026-12-05', '377.21'],
];
const FEE = '5000.00';
const DAYS_IN_DECEMBER = 31;

const row = (r: FixtureRow): FixtureRow => ({
  BillingPeriodStart: '2026-12-01T00:00:00Z',
  ResourceId: 'i-0train',
  Tags: '{"team":"ml-research"}',
  ...r,
});
const ROWS: FixtureRow[] = [
  ...USAGE.map(([day, cost]) =>
    row({ BilledCost: cost, EffectiveCost: cost, ChargePeriodStart: `${day}T00:00:00Z`, ChargePeriodEnd: `${nextDay(day)}T00:00:00Z` }),
  ),
  row({
    BilledCost: FEE,
    EffectiveCost: FEE,
    ChargePeriodStart: '2026-12-01T00:00:00Z',
    ChargePeriodEnd: '2027-01-01T00:00:00Z',
    ChargeCategory: 'Purchase',
    ChargeFrequency: 'Recurring',
    ServiceName: 'Platform subscription',
    ResourceId: '',
    ServiceCategory: '',
  }),
];

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function writeFile(name: string): string {
  return writeFocusCsv(tmp.path(name), ROWS, [...HEADER, 'ChargeFrequency']);
}

/** Cents as integers, from the decimal strings written: no binary arithmetic in the expectation. */
const cents = (amount: string) => Number(amount.replace('.', ''));

describe('month-to-date spend with a monthly fee spread over its month', () => {
  it('counts the fee only for the days incurred, the same on spend, the budget and the gauge', async () => {
    const team = { id: 'ml-research', budget: { monthly: 20_000, currency: 'USD', thresholds: [50], forecast: true } };
    const { deps } = testDeps({ teams: [team] }, '2026-12-06T09:00:00Z');
    await deps.store.importBatches([await readFocusFiles([writeFile('december.csv')], pullContext())], deps.clock());

    // By hand: the usage of 1-5 December, and 5/31 of the fee.
    const usageCents = USAGE.reduce((sum, [, cost]) => sum + cents(cost), 0);
    const expected = usageCents / 100 + (cents(FEE) / 100) * (USAGE.length / DAYS_IN_DECEMBER);

    const spend = await spendReport(deps, { period: monthOf('2026-12-06'), by: 'service', team: 'ml-research' });
    expect(spend.total.effective).toBeCloseTo(expected, 6);
    // The fee's line is its five days, not the month's 5,000.
    expect(spend.rows.find((r) => r.key === 'Platform subscription')?.effective).toBeCloseTo((5000 * 5) / 31, 6);

    const budget = (await listBudgets(deps, deps.clock())).budgets.find((b) => b.team === 'ml-research' && b.period === 'monthly');
    expect(budget?.actual).toBeCloseTo(expected, 6);

    const gauge = (await loadTeamGauges(deps)).find((g) => g.team === 'ml-research');
    expect(gauge?.spendMonthToDate).toBeCloseTo(expected, 6);
  });

  it('counts the whole fee once its month is over', async () => {
    const team = { id: 'ml-research', budget: { monthly: 20_000, currency: 'USD', thresholds: [50], forecast: false } };
    const { deps } = testDeps({ teams: [team] }, '2027-01-15T09:00:00Z');
    await deps.store.importBatches([await readFocusFiles([writeFile('december-past.csv')], pullContext())], deps.clock());
    const spend = await spendReport(deps, { period: monthOf('2026-12-01'), by: 'team', team: 'ml-research' });
    const usageCents = USAGE.reduce((sum, [, cost]) => sum + cents(cost), 0);
    expect(spend.total.effective).toBeCloseTo((usageCents + cents(FEE)) / 100, 6);
  });
});
