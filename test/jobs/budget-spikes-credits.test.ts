import { describe, expect, it } from 'vitest';
import type { SpendRow } from '../../src/domain/spend.js';
import { daysOf, monthOf, weekdayOf } from '../../src/domain/period.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { spendRow, testDeps } from '../support/deps.js';
import { click } from '../support/recording-reply.js';
import { dispatch } from '../../src/inbound/dispatcher.js';

// From the store to the alert, the audit's cases: a runaway usage day, a daily credit labelled
// One-Time, a tax without ChargeFrequency. Expected figures are sums over the rows written here.

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const days = (from: string, to: string) => daysOf({ start: from, end: to });

async function checkWith(budget: { monthly: number; thresholds: number[] }, rows: SpendRow[], today: string) {
  const config = { admins: ['U0ADMIN'], teams: [{ id: 'ml', name: 'ML', budget: { ...budget, forecast: true } }] };
  const { deps, chat } = testDeps(config, `${today}T09:00:00Z`);
  const periods = [...new Set(rows.map((r) => r.billingPeriod))];
  await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: periods }, rows, dataThrough: `${today}T00:00:00Z` }]);
  const result = await runBudgetCheck(deps);
  await deliverOutbox(deps);
  return { findings: result.findings.filter((f) => f.state !== 'resolved'), chat, deps };
}

describe('budget alerts on spikes and credits', () => {
  it('a runaway usage day: no forecast alert for a month that ends at 93%, and the alert says the day was left out', async () => {
    const usage = days('2026-11-01', '2026-12-08').map((d) => spendRow('ml', d, 1000));
    const runaway = { ...spendRow('ml', '2026-12-01', 20_000), resourceId: 'i-runaway' };
    const rows = [...usage, runaway];
    // By hand: December so far is 7 days × 1,000 + 20,000; the month, 31 × 1,000 + 20,000 = 51,000.
    const spent = sum(rows.filter((r) => r.day >= '2026-12-01').map((r) => r.effective));
    const month = 31 * 1000 + 20_000;
    const { findings, chat, deps } = await checkWith({ monthly: 55_000, thresholds: [40, 100] }, rows, '2026-12-08');
    expect(findings.map((f) => [f.kind, f.threshold])).toEqual([['budget.actual', 40]]);
    expect(findings[0]!.actual).toBeCloseTo(spent, 6);
    expect(findings[0]!.forecast!.amount).toBeCloseTo(month, 6);
    // The forecast and the day it left out are in the alert's Details, a click away.
    const button = chat.posted[0]!.message.blocks.flatMap((b) => (b.type === 'actions' ? b.buttons : [])).find(
      (b) => b.label === 'Details',
    )!;
    const details = click('U0ADMIN', button.action, button.value);
    await dispatch(deps, details);
    const text = details.reply.text();
    expect(text).toContain('$51,000.00 (93%)');
    expect(text).toContain('excluded: 1 Dec, $20,000.00 above usual');
  });

  it('a promotional credit labelled One-Time on every day: forecast net, as spent so far is', async () => {
    const rows = days('2026-11-01', '2026-12-03').flatMap((d) => [
      spendRow('ml', d, 1000),
      { ...spendRow('ml', d, -800), chargeCategory: 'Credit', chargeFrequency: 'One-Time', resourceId: null },
    ]);
    const spent = sum(rows.filter((r) => r.day >= '2026-12-01').map((r) => r.effective));
    const { findings } = await checkWith({ monthly: 7000, thresholds: [5, 100] }, rows, '2026-12-03');
    // By hand: 2 × (1,000 − 800) spent; 31 × 200 = 6,200 for the month, under the 7,000 budget.
    expect(findings.map((f) => [f.kind, f.threshold])).toEqual([['budget.actual', 5]]);
    expect(findings[0]!.actual).toBeCloseTo(spent, 6);
    expect(findings[0]!.forecast!.amount).toBeCloseTo(31 * (1000 - 800), 6);
  });

  it('a tax without ChargeFrequency billed on the 1st: not projected onto its weekday', async () => {
    const usageOf = (d: string) => (weekdayOf(d) % 6 === 0 ? 300 : 1000);
    const usage = days('2026-10-01', '2026-12-10').map((d) => spendRow('ml', d, usageOf(d)));
    const taxOf = (month: string) => 0.08 * sum(daysOf(monthOf(month)).map(usageOf));
    const tax = [
      ['2026-11-01', '2026-10-01'],
      ['2026-12-01', '2026-11-01'],
    ].map(([day, before]) => ({ ...spendRow('ml', day!, taxOf(before!)), chargeCategory: 'Tax', service: 'Tax', resourceId: null }));
    const { findings } = await checkWith({ monthly: 40_000, thresholds: [5] }, [...usage, ...tax], '2026-12-10');
    // By hand: December's usage, every day written the same way, and December's tax billed on the 1st.
    const month = sum(daysOf(monthOf('2026-12-01')).map(usageOf)) + taxOf('2026-11-01');
    expect(findings[0]!.forecast!.amount).toBeCloseTo(month, 6);
  });

  it('a tax without ChargeFrequency billed on each month-end: comes again on this month-end, as last month billed it', async () => {
    const usageOf = (d: string) => (weekdayOf(d) % 6 === 0 ? 300 : 1000);
    const usage = days('2026-09-01', '2026-12-10').map((d) => spendRow('ml', d, usageOf(d)));
    const taxOf = (month: string) => 0.08 * sum(daysOf(monthOf(month)).map(usageOf));
    const tax = ['2026-09-30', '2026-10-31', '2026-11-30'].map((day) => ({
      ...spendRow('ml', day, taxOf(day)),
      chargeCategory: 'Tax',
      service: 'Tax',
      resourceId: null,
    }));
    const { findings } = await checkWith({ monthly: 40_000, thresholds: [5] }, [...usage, ...tax], '2026-12-10');
    // By hand: December's usage and, on 31 December, the tax November billed on its last day.
    const month = sum(daysOf(monthOf('2026-12-01')).map(usageOf)) + taxOf('2026-11-30');
    expect(findings[0]!.forecast!.amount).toBeCloseTo(month, 6);
  });
});
