import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpendRow } from '../../../src/domain/spend.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { pullContext, tempDir } from './helpers.js';
import { spendReport } from '../../../commands/spend.js';
import { monthOf } from '../../../src/domain/period.js';
import { listBudgets } from '../../../src/snapshots/budget-listing.js';
import { testDeps } from '../../support/deps.js';

// A December bill with what real bills carry besides day-to-day usage: a monthly support fee, a
// one-year upfront purchase, a day-1 credit, a correction of November, an unused commitment, a
// marketplace charge, resource names, and a second currency. Every expectation is computed here,
// from the rows written, never from burnrate's output.

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const COLUMNS = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ContractedCost',
  'BillingCurrency',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ChargeCategory',
  'ChargeClass',
  'ChargeFrequency',
  'CommitmentDiscountId',
  'CommitmentDiscountType',
  'CommitmentDiscountCategory',
  'CommitmentDiscountStatus',
  'ServiceName',
  'ProviderName',
  'PublisherName',
  'InvoiceIssuerName',
  'BillingAccountId',
  'ResourceId',
  'ResourceName',
  'RegionId',
  'PricingCurrency',
  'PricingCurrencyEffectiveCost',
  'Tags',
] as const;
type Line = Partial<Record<(typeof COLUMNS)[number], string>>;

const DEC = { BillingPeriodStart: '2026-12-01T00:00:00Z', BillingPeriodEnd: '2027-01-01T00:00:00Z' };
const usage = (day: string, cost: string, more: Line = {}): Line => ({
  ...DEC,
  BilledCost: cost,
  EffectiveCost: cost,
  ListCost: cost,
  ContractedCost: cost,
  ChargePeriodStart: `${day}T00:00:00Z`,
  ChargePeriodEnd: `${nextDay(day)}T00:00:00Z`,
  ChargeCategory: 'Usage',
  ChargeFrequency: 'Usage-Based',
  ResourceId: 'i-0train',
  ResourceName: 'trainer-1',
  Tags: '{"team":"ml-research"}',
  ...more,
});

const LINES: Line[] = [
  usage('2026-12-01', '100.00', { ListCost: '160.00', ContractedCost: '120.00' }),
  usage('2026-12-02', '100.00'),
  // Usage of a resource named only by its Name tag.
  usage('2026-12-02', '7.50', { ResourceId: 'i-0note', ResourceName: '', Tags: '{"team":"ml-research","Name":"notebook-7"}' }),
  // A monthly support fee billed on the 1st for the whole month.
  {
    ...DEC,
    BilledCost: '310.00',
    EffectiveCost: '310.00',
    ChargePeriodStart: '2026-12-01T00:00:00Z',
    ChargePeriodEnd: '2027-01-01T00:00:00Z',
    ChargeCategory: 'Purchase',
    ChargeFrequency: 'Recurring',
    ServiceName: 'AWS Support (Business)',
    Tags: '{"team":"ml-research"}',
  },
  // A one-year upfront purchase: billed in December, amortised (EffectiveCost 0) by the export.
  {
    ...DEC,
    BilledCost: '3650.00',
    EffectiveCost: '0',
    ChargePeriodStart: '2026-12-01T00:00:00Z',
    ChargePeriodEnd: '2027-12-01T00:00:00Z',
    ChargeCategory: 'Purchase',
    ChargeFrequency: 'One-Time',
    CommitmentDiscountId: 'sp-1',
    CommitmentDiscountType: 'Compute Savings Plan',
    CommitmentDiscountCategory: 'Spend',
    ServiceName: 'Savings Plans for AWS Compute usage',
    Tags: '{"team":"ml-research"}',
  },
  // A credit on the 1st.
  usage('2026-12-01', '-50.00', { ChargeCategory: 'Credit', ChargeFrequency: 'One-Time', ResourceId: '', ResourceName: '' }),
  // A correction, billed in December, of a November charge.
  usage('2026-11-15', '-12.25', { ChargeClass: 'Correction' }),
  // An unused commitment hour block.
  usage('2026-12-02', '20.00', {
    BilledCost: '0',
    CommitmentDiscountId: 'sp-1',
    CommitmentDiscountType: 'Compute Savings Plan',
    CommitmentDiscountCategory: 'Spend',
    CommitmentDiscountStatus: 'Unused',
    ResourceId: '',
    ResourceName: '',
    Tags: '',
  }),
  // A marketplace charge, and spend in a second currency.
  usage('2026-12-02', '42.00', { PublisherName: 'Acme Vector DB', ServiceName: 'Acme Vector DB', ResourceId: 'acme-1', ResourceName: '' }),
  // Billed in yen for prices in dollars (FOCUS 1.2): 15,000 JPY was 100.50 USD, the bill's rate 0.0067.
  usage('2026-12-02', '15000', {
    BillingCurrency: 'JPY',
    BillingAccountId: 'jp-1',
    RegionId: 'ap-northeast-1',
    PricingCurrency: 'USD',
    PricingCurrencyEffectiveCost: '100.50',
  }),
].map((line) => ({
  ProviderName: 'AWS',
  InvoiceIssuerName: 'AWS',
  BillingAccountId: '111',
  BillingCurrency: 'USD',
  ServiceName: 'EC2',
  RegionId: 'us-east-1',
  ...line,
}));

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function csv(lines: readonly Line[]): string {
  const field = (v: string) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [COLUMNS.join(','), ...lines.map((l) => COLUMNS.map((c) => field(l[c] ?? '')).join(','))].join('\n') + '\n';
}

function fileOf(name: string, lines: readonly Line[]): string {
  const path = tmp.path(name);
  writeFileSync(path, csv(lines));
  return path;
}

async function imported(): Promise<{ rows: SpendRow[]; dataThrough: string | null }> {
  return readFocusFiles([fileOf('december.csv', LINES)], pullContext());
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const daysOfDecember = 31;

describe('FOCUS charges that are not day-to-day usage', () => {
  it('spreads a charge over the days of its period inside its billing period, to the cent', async () => {
    const { rows } = await imported();
    const fee = rows.filter((r) => r.service === 'AWS Support (Business)');
    expect(fee).toHaveLength(daysOfDecember);
    expect(new Set(fee.map((r) => r.day)).size).toBe(daysOfDecember);
    expect(sum(fee.map((r) => r.billed))).toBeCloseTo(310, 9);
    for (const row of fee) expect(row.billed).toBeCloseTo(310 / daysOfDecember, 9);
    // The year-long purchase is cut at its billing period's end: December carries all of it.
    const purchase = rows.filter((r) => r.chargeFrequency === 'One-Time' && r.chargeCategory === 'Purchase');
    expect(purchase.map((r) => r.day).sort()).toEqual(Array.from({ length: 31 }, (_, i) => `2026-12-${String(i + 1).padStart(2, '0')}`));
    expect(sum(purchase.map((r) => r.billed))).toBeCloseTo(3650, 9);
    expect(sum(purchase.map((r) => r.effective))).toBe(0);
    // The total is the file's total.
    const written = sum(LINES.filter((l) => l.BillingCurrency === 'USD').map((l) => Number(l.BilledCost)));
    expect(sum(rows.filter((r) => r.currency === 'USD').map((r) => r.billed))).toBeCloseTo(written, 6);
    // A one-day charge stays on its day.
    expect(rows.filter((r) => r.chargeCategory === 'Credit').map((r) => [r.day, r.billed])).toEqual([['2026-12-01', -50]]);
  });

  it('splits 100.00 over 31 days into parts that add up exactly', async () => {
    const file = fileOf('odd.csv', [
      {
        ...DEC,
        ProviderName: 'AWS',
        InvoiceIssuerName: 'AWS',
        BillingAccountId: '111',
        BillingCurrency: 'USD',
        ServiceName: 'Support',
        BilledCost: '100.00',
        EffectiveCost: '100.00',
        ChargePeriodStart: '2026-12-01T00:00:00Z',
        ChargePeriodEnd: '2027-01-01T00:00:00Z',
        ChargeCategory: 'Purchase',
        ChargeFrequency: 'Recurring',
      },
    ]);
    const { rows } = await readFocusFiles([file], pullContext());
    expect(rows).toHaveLength(31);
    // Each part is 100/31 to ten decimals; the last takes the remainder, so the parts' sum, taken
    // in cents, is exactly 10,000.
    expect(Math.round(sum(rows.map((r) => r.billed)) * 100)).toBe(10_000);
    expect(Math.abs(sum(rows.map((r) => r.billed)) - 100)).toBeLessThan(1e-9);
  });

  it('says the data reaches as far as its usage, never as far as a fee billed ahead', async () => {
    const { dataThrough } = await imported();
    // The latest usage-based charge ends at the start of 3 December; the fee runs to 1 January and
    // the purchase to December 2027.
    expect(dataThrough).toBe('2026-12-03T00:00:00.000Z');
  });

  it('reads frequency, class, commitments, list and contracted cost, publisher, names and region', async () => {
    const { rows } = await imported();
    const correction = rows.find((r) => r.chargeClass === 'Correction')!;
    // A correction keeps its charge day (November) and the billing period that brought it (December).
    expect([correction.day, correction.billingPeriod, correction.billed]).toEqual(['2026-11-15', '2026-12', -12.25]);
    const unused = rows.find((r) => r.commitmentDiscountStatus === 'Unused')!;
    expect(unused).toMatchObject({
      commitmentDiscountId: 'sp-1',
      commitmentDiscountType: 'Compute Savings Plan',
      billed: 0,
      effective: 20,
    });
    const first = rows.find((r) => r.day === '2026-12-01' && r.resourceId === 'i-0train')!;
    expect([first.listCost, first.contractedCost, first.effective]).toEqual([160, 120, 100]);
    expect(rows.find((r) => r.publisher === 'Acme Vector DB')?.billed).toBe(42);
    expect(rows.find((r) => r.resourceId === 'i-0train')?.resourceName).toBe('trainer-1');
    expect(rows.find((r) => r.resourceId === 'i-0note')?.resourceName).toBe('notebook-7');
    expect(rows.find((r) => r.currency === 'JPY')).toMatchObject({ region: 'ap-northeast-1', invoiceIssuer: 'AWS', billed: 15000 });
  });

  it('keeps currencies and kinds of charge apart in each team day', async () => {
    const batch = await readFocusFiles([fileOf('store.csv', LINES)], pullContext());
    const store = openStore(':memory:');
    await store.importBatches([batch]);
    const days = await store.spend.dailyByTeam('2026-11-01');
    const on = (day: string, currency: string, kind: string) =>
      days.filter((d) => d.team === 'ml-research' && d.day === day && d.currency === currency && d.kind === kind).map((d) => d.billed);
    // 2 December: usage 100 + 7.50 + 42 (marketplace) in USD, the JPY usage apart; the fee's and the
    // purchase's parts are recurring and one-time.
    expect(on('2026-12-02', 'USD', 'usage')[0]).toBeCloseTo(149.5, 9);
    expect(on('2026-12-02', 'JPY', 'usage')).toEqual([15000]);
    expect(on('2026-12-02', 'USD', 'recurring')[0]).toBeCloseTo(10, 9);
    expect(on('2026-12-02', 'USD', 'one-time')[0]).toBeCloseTo(3650 / 31, 9);
    // The credit on the 1st is one-time.
    expect(on('2026-12-01', 'USD', 'one-time')[0]).toBeCloseTo(3650 / 31 - 50, 9);
    await store.close();
  });

  it('converts a second currency at the rate its own bill used when burnrate.yml gives none (FOCUS 1.2 pricing currency)', async () => {
    const team = { id: 'ml-research', budget: { monthly: 10_000, currency: 'USD', thresholds: [50], forecast: false } };
    // Asked once December is over, so the month is whole: fees included (month-to-date would count
    // only the days the data has reached, see test/snapshots/month-to-date-fee.test.ts).
    const { deps } = testDeps({ teams: [team] }, '2027-01-03T09:00:00Z');
    await deps.store.importBatches([await readFocusFiles([fileOf('pricing.csv', LINES)], pullContext())]);
    // By hand: December's team spend in USD, the yen line at its pricing-currency cost (100.50 USD).
    const tagged = LINES.filter((l) => l.Tags?.includes('ml-research') && l.ChargeClass !== 'Correction');
    const usdDecember = sum(tagged.filter((l) => l.BillingCurrency === 'USD').map((l) => Number(l.EffectiveCost)));
    const expected = usdDecember + 100.5;
    const report = await spendReport(deps, { period: monthOf('2026-12-01'), by: 'team', team: 'ml-research' });
    expect(report.currency).toBe('USD');
    // The correction's charge day is in November, outside the period.
    expect(report.total.effective).toBeCloseTo(expected, 6);
    expect(report.warnings).toContain('JPY converted at 0.0067 USD (rates of the 2026-12 bill)');
    const listing = await listBudgets(deps, deps.clock());
    expect(listing.currencies?.map((c) => c.converted)).toEqual([
      [{ currency: 'JPY', rate: expect.closeTo(0.0067, 12), asOf: 'the 2026-12 bill' }],
    ]);
    // A rate in burnrate.yml is a decision: it wins over the bill's.
    const configured = testDeps({ teams: [team], fx: { base: 'USD', rates: { JPY: 0.007 } } }, '2027-01-03T09:00:00Z');
    await configured.deps.store.importBatches([await readFocusFiles([fileOf('pricing2.csv', LINES)], pullContext())]);
    const withConfig = await spendReport(configured.deps, { period: monthOf('2026-12-01'), by: 'team', team: 'ml-research' });
    expect(withConfig.total.effective).toBeCloseTo(usdDecember + 15000 * 0.007, 6);
  });
});
