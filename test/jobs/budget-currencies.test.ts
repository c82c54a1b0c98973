import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { daysOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { listBudgets } from '../../src/snapshots/budget-listing.js';
import { budgetListMessage } from '../../templates/budget-list.js';
import { spendRow, testDeps } from '../support/deps.js';
import { spendReport } from '../../commands/spend.js';
import { monthOf } from '../../src/domain/period.js';

// A team billed in two currencies: USD from one account, JPY from another. Amounts in different
// currencies are never added; with a rate they are converted into the budget's currency.

const team = { id: 'ml', name: 'ML', budget: { monthly: 1000, currency: 'USD', thresholds: [50, 80, 100], forecast: false } };
const JPY_RATE = 0.0067;
const DAYS = daysOf({ start: '2026-11-01', end: '2026-11-11' });
const USD_PER_DAY = 40;
const JPY_PER_DAY = 3000;

async function importTwoCurrencies(deps: ReturnType<typeof testDeps>['deps']) {
  const jpy = (day: string): SpendRow => ({ ...spendRow('ml', day, JPY_PER_DAY), currency: 'JPY', billingAccount: 'jp-1' });
  await deps.store.importBatches([
    {
      scope: { source: 'test', billingPeriods: ['2026-11'] },
      rows: DAYS.flatMap((d) => [spendRow('ml', d, USD_PER_DAY), jpy(d)]),
      dataThrough: '2026-11-11T00:00:00Z',
    },
  ]);
}

describe('budgets over spend in several currencies', () => {
  it('converts the other currency at the configured rate before comparing with the budget', async () => {
    const { deps, chat } = testDeps({ teams: [team], fx: { base: 'USD', asOf: '2026-11-30', rates: { JPY: JPY_RATE } } });
    await importTwoCurrencies(deps);
    const result = await runBudgetCheck(deps);
    // By hand: 10 days × (40 USD + 3,000 JPY × 0.0067) = 10 × 60.10 = 601.00 USD: past 50%, under 80%.
    const expected = DAYS.length * (USD_PER_DAY + JPY_PER_DAY * JPY_RATE);
    expect(expected).toBeCloseTo(601, 9);
    expect(result.findings.map((f) => f.threshold)).toEqual([50]);
    expect(result.findings[0]!.actual).toBeCloseTo(expected, 6);
    await deliverOutbox(deps);
    expect(chat.headlines()).toEqual(['ML has spent 60% of its November 2026 budget ($601.00 of $1,000.00)']);

    const listing = await listBudgets(deps, deps.clock());
    expect(listing.budgets.find((b) => b.name === 'monthly')?.actual).toBeCloseTo(expected, 6);
    const context = budgetListMessage(listing).blocks.at(-1);
    expect(JSON.stringify(context)).toContain('ml: JPY converted at 0.0067 USD (rates of 2026-11-30)');
  });

  it('holds the team with a notice naming the currency and the setting when there is no rate', async () => {
    const { deps, chat } = testDeps({ teams: [team] });
    await importTwoCurrencies(deps);
    const result = await runBudgetCheck(deps);
    // 400 USD alone would cross 50% wrongly low, and 400 + 30,000 would be nonsense: no finding at all.
    expect(result.findings).toEqual([]);
    expect(result.heldTeams).toEqual(['ml']);
    await deliverOutbox(deps);
    expect(chat.headlines()).toEqual(['ML: budget alerts on hold, no exchange rate for JPY']);
    expect(JSON.stringify(chat.posted[0])).toContain('fx: { base: USD, asOf: YYYY-MM-DD, rates: { JPY: <USD per JPY> } }');
    // Said once a day, however often the check runs.
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(1);

    const listing = await listBudgets(deps, deps.clock());
    expect(listing.budgets.find((b) => b.name === 'monthly')?.actual).toBeNull();
    expect(JSON.stringify(budgetListMessage(listing))).toContain(
      'ml: spend in JPY not counted: no exchange rate (add fx.rates.JPY to burnrate.yml)',
    );
  });

  it('spend answers convert to one currency and name what they converted or left out', async () => {
    const withRate = testDeps({ teams: [team], fx: { base: 'USD', asOf: '2026-11-30', rates: { JPY: JPY_RATE } } });
    await importTwoCurrencies(withRate.deps);
    const report = await spendReport(withRate.deps, { period: monthOf('2026-11-01'), by: 'team' });
    // By hand, as in the budget: 10 × 40 USD + 10 × 3,000 JPY × 0.0067 = 601 USD, one row for the team.
    expect(report.currency).toBe('USD');
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]!.effective).toBeCloseTo(DAYS.length * (USD_PER_DAY + JPY_PER_DAY * JPY_RATE), 6);
    expect(report.total.effective).toBeCloseTo(601, 6);
    expect(report.warnings).toContain('JPY converted at 0.0067 USD (rates of 2026-11-30)');

    const withoutRate = testDeps({ teams: [team] });
    await importTwoCurrencies(withoutRate.deps);
    const partial = await spendReport(withoutRate.deps, { period: monthOf('2026-11-01'), by: 'day' });
    // The 400 USD only; the 30,000 JPY is named, never added to it.
    expect(partial.total.effective).toBeCloseTo(DAYS.length * USD_PER_DAY, 6);
    expect(partial.rows.map((r) => r.key)).toEqual(DAYS);
    expect(partial.warnings).toContain('¥30,000 (JPY) not included: no exchange rate to USD (add fx.rates.JPY to burnrate.yml)');
  });

  it('refuses a bad fx block with a message that says what to write', () => {
    const errors = (fx: unknown) => configSchema.safeParse({ fx }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(errors({ rates: { JPY: -1 } })).toEqual(['fx.rates.JPY: expected a rate above 0']);
    expect(errors({ rates: { jpy: 0.0067 } })[0]).toContain('expected the ISO 4217 code in capitals: JPY');
    expect(errors({ asOf: '30/11/2026' })).toEqual(['fx.asOf: expected the date the rates were taken as YYYY-MM-DD, e.g. 2026-11-30']);
  });
});
