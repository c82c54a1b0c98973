import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { showback } from '../../../src/checks/review/showback.js';
import { costAndUsageRows } from '../../../src/providers/aws/cost-and-usage-rows.js';
import { chargeOfRecordType } from '../../../src/providers/aws/record-types.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { pullContext, tempDir, TEAMS } from '../../providers/focus/helpers.js';

// A month of a CUR 2.0 export written here line by line: on-demand usage, Savings Plan covered
// usage with its negations, the plan's recurring fee (partly unused) and upfront fee, a reserved
// instance's upfront fee, covered usage and monthly fee, AWS support, taxes, a credit, untagged and
// unmapped usage. Each line's effective cost is worked out by hand from the FOCUS mapping (covered
// usage at its amortised rate, negations and upfront fees at 0, a recurring commitment fee at its
// unused part); every expectation below is a plain sum over these lines.

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const SP = 'arn:aws:savingsplans::111111111111:savingsplan/sp-1';
const RI = 'arn:aws:ec2:us-east-1:111111111111:reserved-instances/ri-1';

interface Line {
  type: string;
  bill: 'Anniversary' | 'Purchase';
  unblended: number;
  /** The effective cost by hand. */
  effective: number;
  tag: string | null;
  resource?: string;
  product?: string;
  sp?: { effective?: number; commitment?: number; used?: number };
  ri?: { effective?: number; unusedUpfront?: number; unusedRecurring?: number };
}

const LINES: Line[] = [
  { type: 'Usage', bill: 'Anniversary', unblended: 1000, effective: 1000, tag: 'ml-research', resource: 'i-1' },
  {
    type: 'SavingsPlanCoveredUsage',
    bill: 'Anniversary',
    unblended: 600,
    effective: 400,
    tag: 'llm',
    resource: 'i-2',
    sp: { effective: 400 },
  },
  { type: 'SavingsPlanNegation', bill: 'Anniversary', unblended: -600, effective: 0, tag: 'llm', resource: 'i-2', sp: {} },
  {
    type: 'SavingsPlanCoveredUsage',
    bill: 'Anniversary',
    unblended: 300,
    effective: 200,
    tag: 'serving',
    resource: 'i-3',
    sp: { effective: 200 },
  },
  { type: 'SavingsPlanNegation', bill: 'Anniversary', unblended: -300, effective: 0, tag: 'serving', resource: 'i-3', sp: {} },
  // The plan's monthly fee: 750 committed, 600 used (the covered usage above), 150 unused.
  { type: 'SavingsPlanRecurringFee', bill: 'Anniversary', unblended: 750, effective: 150, tag: null, sp: { commitment: 750, used: 600 } },
  { type: 'SavingsPlanUpfrontFee', bill: 'Purchase', unblended: 9000, effective: 0, tag: null, sp: {} },
  // A reserved instance: its upfront payment, its covered usage and its month's fee (8 of it unused).
  { type: 'Fee', bill: 'Purchase', unblended: 3650, effective: 0, tag: null, ri: {} },
  { type: 'DiscountedUsage', bill: 'Anniversary', unblended: 0, effective: 240, tag: 'cv', resource: 'i-4', ri: { effective: 240 } },
  { type: 'RIFee', bill: 'Anniversary', unblended: 248, effective: 8, tag: null, ri: { unusedUpfront: 6, unusedRecurring: 2 } },
  { type: 'Fee', bill: 'Anniversary', unblended: 100, effective: 100, tag: null, product: 'AWSSupportBusiness' },
  { type: 'Tax', bill: 'Anniversary', unblended: 123.45, effective: 123.45, tag: null },
  { type: 'Tax', bill: 'Purchase', unblended: 5, effective: 5, tag: null },
  { type: 'Credit', bill: 'Anniversary', unblended: -20, effective: -20, tag: 'ml-research' },
  { type: 'Usage', bill: 'Anniversary', unblended: 15, effective: 15, tag: null, resource: 'vol-1' },
  { type: 'Usage', bill: 'Anniversary', unblended: 70, effective: 70, tag: 'growth', resource: 'i-5' },
];

const HEADER = [
  'bill_bill_type',
  'bill_billing_period_start_date',
  'bill_billing_period_end_date',
  'bill_payer_account_id',
  'line_item_line_item_type',
  'line_item_usage_start_date',
  'line_item_usage_end_date',
  'line_item_product_code',
  'line_item_resource_id',
  'line_item_unblended_cost',
  'line_item_currency_code',
  'savings_plan_savings_plan_a_r_n',
  'savings_plan_savings_plan_effective_cost',
  'savings_plan_total_commitment_to_date',
  'savings_plan_used_commitment',
  'reservation_reservation_a_r_n',
  'reservation_effective_cost',
  'reservation_unused_amortized_upfront_fee_for_billing_period',
  'reservation_unused_recurring_fee',
  'resource_tags',
];

function curCsv(lines: readonly Line[], name: string): string {
  const field = (v: string) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = lines.map((l) =>
    [
      l.bill,
      '2026-11-01T00:00:00Z',
      '2026-12-01T00:00:00Z',
      '111111111111',
      l.type,
      '2026-11-03T00:00:00Z',
      '2026-11-04T00:00:00Z',
      l.product ?? 'AmazonEC2',
      l.resource ?? '',
      String(l.unblended),
      'USD',
      l.sp ? SP : '',
      String(l.sp?.effective ?? 0),
      String(l.sp?.commitment ?? 0),
      String(l.sp?.used ?? 0),
      l.ri ? RI : '',
      String(l.ri?.effective ?? 0),
      String(l.ri?.unusedUpfront ?? 0),
      String(l.ri?.unusedRecurring ?? 0),
      l.tag ? JSON.stringify({ user_team: l.tag }) : '{}',
    ]
      .map(field)
      .join(','),
  );
  const path = tmp.path(name);
  writeFileSync(path, [HEADER.join(','), ...rows].join('\n') + '\n');
  return path;
}

async function importCur(lines: readonly Line[], name: string) {
  const store = openStore(':memory:');
  const batch = await readFocusFiles([curCsv(lines, name)], pullContext());
  await store.importBatches([batch]);
  const invoice = await store.spend.invoiceLines('2026-11');
  await store.close();
  return { rows: batch.rows, invoice };
}

const cents = (amount: number) => Math.round(amount * 100);
const total = (lines: readonly Line[], key: 'unblended' | 'effective') => lines.reduce((s, l) => s + l[key], 0);

describe('showback of a CUR bill', () => {
  it('reconciles billed to shown with every line in one term: no rounding plug', async () => {
    const { invoice } = await importCur(LINES, 'reconcile.csv');
    const r = showback(invoice, TEAMS).reconciliation;
    // Purchases: the upfront fees, billed now, shown at 0 (amortised into covered usage).
    const upfront = LINES.filter((l) => l.bill === 'Purchase' && l.type !== 'Tax');
    // Recurring commitment fees: billed in full, shown at their unused part.
    const fees = LINES.filter((l) => l.type === 'SavingsPlanRecurringFee' || l.type === 'RIFee');
    const rest = LINES.filter((l) => !upfront.includes(l) && !fees.includes(l));
    const inCents = (amount: number) => cents(amount) / 100;
    expect(r).toEqual({
      billed: inCents(total(LINES, 'unblended')),
      effective: inCents(total(LINES, 'effective')),
      purchases: inCents(total(upfront, 'unblended') - total(upfront, 'effective')), // 12,650
      unusedCommitment: inCents(total(fees, 'unblended') - total(fees, 'effective')), // 840
      amortisedUsage: inCents(total(rest, 'unblended') - total(rest, 'effective')), // −840
    });
    expect(cents(r.effective) + cents(r.purchases) + cents(r.unusedCommitment) + cents(r.amortisedUsage)).toBe(cents(r.billed));
  });

  it('takes ChargeFrequency from the bill type and the line item type, as the FOCUS converter does', async () => {
    const { rows } = await importCur(LINES, 'frequency.csv');
    const frequency = (type: string, bill: string, unblended: number) =>
      rows.find((r) => r.billed === unblended && LINES.some((l) => l.type === type && l.bill === bill && l.unblended === unblended))
        ?.chargeFrequency;
    expect(frequency('Fee', 'Purchase', 3650)).toBe('One-Time'); // the reservation's upfront payment
    expect(frequency('SavingsPlanUpfrontFee', 'Purchase', 9000)).toBe('One-Time');
    expect(frequency('Tax', 'Purchase', 5)).toBe('One-Time'); // the tax on that purchase
    expect(frequency('Tax', 'Anniversary', 123.45)).toBe('Recurring');
    expect(frequency('RIFee', 'Anniversary', 248)).toBe('Recurring');
    expect(frequency('SavingsPlanRecurringFee', 'Anniversary', 750)).toBe('Recurring');
    expect(frequency('Usage', 'Anniversary', 1000)).toBe('Usage-Based');
    // AWS support from the CUR is what Cost Explorer says of the same fee: a recurring purchase.
    const support = rows.find((r) => r.billed === 100)!;
    expect([support.chargeCategory, support.chargeFrequency]).toEqual([
      chargeOfRecordType('Fee').chargeCategory,
      chargeOfRecordType('Fee').chargeFrequency,
    ]);
    expect(chargeOfRecordType('Support').chargeFrequency).toBe(support.chargeFrequency);
  });

  it("shares support and taxes over the teams' AWS spend, charges unused commitment to whom it covered, to the cent", async () => {
    const { invoice } = await importCur(LINES, 'teams.csv');
    const result = showback(invoice, TEAMS);
    const teamOf: Record<string, string> = { 'ml-research': 'ml-research', llm: 'llm-training', serving: 'inference', cv: 'vision' };
    const direct = new Map<string, number>();
    for (const l of LINES) if (l.tag && teamOf[l.tag]) direct.set(teamOf[l.tag]!, (direct.get(teamOf[l.tag]!) ?? 0) + l.effective);
    const spend = [...direct.values()].reduce((a, b) => a + b, 0);
    const shared = total(
      LINES.filter((l) => l.type === 'Tax' || l.product === 'AWSSupportBusiness'),
      'effective',
    );
    // The plan's 150 unused over what it covered (llm 400, serving 200); the reservation's 8 all vision's.
    const commitment: Record<string, number> = { 'llm-training': (150 * 400) / 600, inference: (150 * 200) / 600, vision: 8 };
    for (const [team, own] of direct) {
      const line = result.lines.find((l) => l.team === team)!;
      const exact = own + (shared * own) / spend + (commitment[team] ?? 0);
      expect(line.direct).toBe(own);
      expect(Math.abs(line.total - exact)).toBeLessThan(0.01);
      expect(cents(line.direct) + cents(line.shared) + cents(line.commitment ?? 0)).toBe(cents(line.total));
    }
    expect(result.organisation).toEqual([
      { key: '(unmapped: growth)', amount: 70, note: expect.any(String) },
      { key: '(unallocated)', amount: 15, note: expect.any(String) },
    ]);
    const shown = result.lines.reduce((s, l) => s + cents(l.total), 0) + result.organisation.reduce((s, o) => s + cents(o.amount), 0);
    expect(shown).toBe(cents(total(LINES, 'effective')));
  });

  it('shares the same support fee the same way whether the CUR or Cost Explorer brought it', async () => {
    // One day of usage by two teams and AWS support, as a CUR and as Cost Explorer's answer.
    const usage: Line[] = [
      { type: 'Usage', bill: 'Anniversary', unblended: 700, effective: 700, tag: 'ml-research', resource: 'i-1' },
      { type: 'Usage', bill: 'Anniversary', unblended: 300, effective: 300, tag: 'llm', resource: 'i-2' },
    ];
    const support: Line = { type: 'Fee', bill: 'Anniversary', unblended: 100, effective: 100, tag: null, product: 'AWSSupportBusiness' };
    const fromCur = showback((await importCur([...usage, support], 'support.csv')).invoice, TEAMS);

    const amount = (n: number) => ({
      UnblendedCost: { Amount: String(n), Unit: 'USD' },
      AmortizedCost: { Amount: String(n), Unit: 'USD' },
    });
    const day = { TimePeriod: { Start: '2026-11-03', End: '2026-11-04' } };
    const ctx = pullContext();
    const rows = [
      ...costAndUsageRows(
        [
          {
            ...day,
            Groups: usage.map((l) => ({ Keys: [`team$${l.tag}`, 'Amazon Elastic Compute Cloud - Compute'], Metrics: amount(l.unblended) })),
          },
        ],
        ctx,
        '111111111111',
        'service',
      ),
      ...costAndUsageRows(
        [{ ...day, Groups: [{ Keys: ['team$', 'Fee'], Metrics: amount(support.unblended) }] }],
        ctx,
        '111111111111',
        'recordType',
      ),
    ];
    const store = openStore(':memory:');
    await store.importBatches([{ scope: { source: 'aws', billingPeriods: ['2026-11'] }, rows, dataThrough: '2026-11-04T00:00:00.000Z' }]);
    const fromCostExplorer = showback(await store.spend.invoiceLines('2026-11'), TEAMS);
    await store.close();

    // Support shared by AWS spend: 100 × 700/1,000 and 100 × 300/1,000, nothing left unallocated.
    const shares = (r: typeof fromCur) => Object.fromEntries(r.lines.map((l) => [l.team, l.shared]));
    expect(shares(fromCur)).toEqual({ 'ml-research': (100 * 700) / 1000, 'llm-training': (100 * 300) / 1000 });
    expect(shares(fromCostExplorer)).toEqual(shares(fromCur));
    expect(fromCur.organisation).toEqual([]);
    expect(fromCostExplorer.organisation).toEqual([]);
  });
});
