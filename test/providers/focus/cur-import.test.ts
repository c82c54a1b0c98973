import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { pullContext, tempDir } from './helpers.js';

// AWS Cost and Usage Reports (CUR 2.0 as CSV and Parquet, and the legacy CUR) built here from the
// published column names, imported through the real path, and compared with sums over the lines
// written. `effective` is each line's amortised cost worked out by hand from the FOCUS mapping:
// covered usage at its Savings Plan rate, the negation and the upfront fee at 0, the recurring fee
// at its unused part (commitment 40, used 30).

const tmp = tempDir();
afterAll(() => tmp.cleanup());

interface CurLine {
  type: string;
  unblended: number;
  effective: number;
  team: string | null;
  spEffective?: number;
  resource?: string;
  /** line_item_usage_amount, in pricing_unit Hrs. */
  hours?: number;
}

const LINES: CurLine[] = [
  { type: 'Usage', unblended: 100, effective: 100, team: 'ml-research', resource: 'i-0train', hours: 10 },
  { type: 'SavingsPlanCoveredUsage', unblended: 50, effective: 30, spEffective: 30, team: 'ml-research', resource: 'i-0train', hours: 5 },
  { type: 'SavingsPlanNegation', unblended: -50, effective: 0, team: 'ml-research', resource: 'i-0train', hours: 5 },
  { type: 'SavingsPlanRecurringFee', unblended: 40, effective: 10, team: null },
  { type: 'SavingsPlanUpfrontFee', unblended: 1200, effective: 0, team: null },
  { type: 'Tax', unblended: 8, effective: 8, team: null },
  { type: 'Credit', unblended: -20, effective: -20, team: 'llm' },
  { type: 'Usage', unblended: 15, effective: 15, team: null, resource: 'vol-1' },
];

const CUR2 = [
  'bill_billing_period_start_date',
  'bill_billing_period_end_date',
  'bill_payer_account_id',
  'line_item_usage_account_id',
  'line_item_line_item_type',
  'line_item_usage_start_date',
  'line_item_usage_end_date',
  'line_item_product_code',
  'line_item_resource_id',
  'line_item_unblended_cost',
  'line_item_currency_code',
  'savings_plan_savings_plan_effective_cost',
  'savings_plan_savings_plan_a_r_n',
  'savings_plan_total_commitment_to_date',
  'savings_plan_used_commitment',
  'resource_tags',
  'line_item_usage_amount',
  'pricing_unit',
  'savings_plan_end_time',
];

function cur2Csv(path: string): string {
  const field = (v: string) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = LINES.map((l) =>
    [
      '2026-11-01T00:00:00Z',
      '2026-12-01T00:00:00Z',
      '111111111111',
      '222222222222',
      l.type,
      '2026-11-03T00:00:00Z',
      '2026-11-04T00:00:00Z',
      'AmazonEC2',
      l.resource ?? '',
      String(l.unblended),
      'USD',
      String(l.spEffective ?? 0),
      l.type.startsWith('SavingsPlan') ? 'arn:aws:savingsplans::111111111111:savingsplan/sp-1' : '',
      l.type === 'SavingsPlanRecurringFee' ? '40' : '0',
      l.type === 'SavingsPlanRecurringFee' ? '30' : '0',
      l.team ? JSON.stringify({ user_team: l.team, user_Name: 'x' }) : '{}',
      l.hours === undefined ? '' : String(l.hours),
      l.hours === undefined ? '' : 'Hrs',
      l.type.startsWith('SavingsPlan') ? '2027-01-31T23:59:59Z' : '',
    ]
      .map(field)
      .join(','),
  );
  writeFileSync(path, [CUR2.join(','), ...rows].join('\n') + '\n');
  return path;
}

function legacyCsv(path: string): string {
  const header = [
    'bill/BillingPeriodStartDate',
    'bill/PayerAccountId',
    'lineItem/UsageAccountId',
    'lineItem/LineItemType',
    'lineItem/UsageStartDate',
    'lineItem/UsageEndDate',
    'lineItem/ProductCode',
    'lineItem/ResourceId',
    'lineItem/UnblendedCost',
    'lineItem/CurrencyCode',
    'savingsPlan/SavingsPlanEffectiveCost',
    'savingsPlan/TotalCommitmentToDate',
    'savingsPlan/UsedCommitment',
    'resourceTags/user:team',
  ];
  const rows = LINES.map((l) =>
    [
      '2026-11-01T00:00:00Z',
      '111111111111',
      '222222222222',
      l.type,
      '2026-11-03T00:00:00Z',
      '2026-11-04T00:00:00Z',
      'AmazonEC2',
      l.resource ?? '',
      String(l.unblended),
      'USD',
      String(l.spEffective ?? 0),
      l.type === 'SavingsPlanRecurringFee' ? '40' : '',
      l.type === 'SavingsPlanRecurringFee' ? '30' : '',
      l.team ?? '',
    ].join(','),
  );
  writeFileSync(path, [header.join(','), ...rows].join('\n') + '\n');
  return path;
}

async function toParquet(csv: string, parquet: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  await c.run(
    `COPY (SELECT * REPLACE (
        CAST(line_item_unblended_cost AS DOUBLE) AS line_item_unblended_cost,
        CAST(line_item_usage_start_date AS TIMESTAMP) AS line_item_usage_start_date,
        CAST(line_item_usage_end_date AS TIMESTAMP) AS line_item_usage_end_date,
        CAST(bill_billing_period_start_date AS TIMESTAMP) AS bill_billing_period_start_date,
        CAST(bill_billing_period_end_date AS TIMESTAMP) AS bill_billing_period_end_date,
        CAST(CAST(resource_tags AS JSON) AS MAP(VARCHAR, VARCHAR)) AS resource_tags)
      FROM read_csv('${csv}', header = true, all_varchar = true)) TO '${parquet}' (FORMAT parquet)`,
  );
  c.closeSync();
  instance.closeSync();
  return parquet;
}

/** Team totals after importing the file into a real store. */
async function teamTotals(file: string) {
  const store = openStore(':memory:');
  await store.importBatches([await readFocusFiles([file], pullContext())]);
  const totals = await store.spend.totals({ period: { start: '2026-11-01', end: '2026-12-01' } }, 'team');
  await store.close();
  return new Map(totals.map((t) => [t.key, { billed: t.billed, effective: t.effective }]));
}

/** The same totals summed over the lines written. */
function expected(): Map<string, { billed: number; effective: number }> {
  const out = new Map<string, { billed: number; effective: number }>();
  const teamOf = (t: string | null) => (t === null ? '(untagged)' : t === 'llm' ? 'llm-training' : t);
  for (const l of LINES) {
    const key = teamOf(l.team);
    const sum = out.get(key) ?? { billed: 0, effective: 0 };
    out.set(key, { billed: sum.billed + l.unblended, effective: sum.effective + l.effective });
  }
  return out;
}

function expectSameTotals(actual: Map<string, { billed: number; effective: number }>) {
  const want = expected();
  expect([...actual.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [team, sums] of want) {
    expect(actual.get(team)!.billed).toBeCloseTo(sums.billed, 9);
    expect(actual.get(team)!.effective).toBeCloseTo(sums.effective, 9);
  }
}

describe('AWS CUR files imported through the FOCUS mapping', () => {
  it('imports a CUR 2.0 CSV to the same team totals as a plain sum', async () => {
    expectSameTotals(await teamTotals(cur2Csv(tmp.path('cur2.csv'))));
  });

  it('imports a CUR 2.0 Parquet file with its resource_tags map', async () => {
    const parquet = await toParquet(cur2Csv(tmp.path('cur2-for-parquet.csv')), tmp.path('cur2.parquet'));
    expectSameTotals(await teamTotals(parquet));
  });

  it('imports a legacy CUR with resourceTags/user:team columns', async () => {
    expectSameTotals(await teamTotals(legacyCsv(tmp.path('legacy.csv'))));
  });

  it('gives CUR line items FOCUS charge categories, frequencies and commitment status', async () => {
    const batch = await readFocusFiles([cur2Csv(tmp.path('kinds.csv'))], pullContext());
    const of = (category: string) => batch.rows.filter((r) => r.chargeCategory === category);
    expect(of('Tax').map((r) => [r.billed, r.chargeFrequency])).toEqual([[8, 'Recurring']]);
    expect(of('Credit').map((r) => r.billed)).toEqual([-20]);
    const unused = batch.rows.find((r) => r.commitmentDiscountStatus === 'Unused')!;
    expect([unused.billed, unused.effective, unused.commitmentDiscountId]).toEqual([
      40,
      10,
      'arn:aws:savingsplans::111111111111:savingsplan/sp-1',
    ]);
    expect(batch.rows.find((r) => r.commitmentDiscountStatus === 'Used')?.effective).toBe(30);
    expect(of('Purchase').reduce((s, r) => s + r.billed, 0)).toBe(40 + 1200);
  });

  it("counts an instance's hours once (on its usage lines, not the negations): its billed rate is effective cost per hour", async () => {
    const store = openStore(':memory:');
    await store.importBatches([await readFocusFiles([cur2Csv(tmp.path('hours.csv'))], pullContext())]);
    const [train] = (await store.spend.resourceHours('2026-11-01')).filter((r) => r.resourceId === 'i-0train');
    const covered = (await store.spend.resourceCosts({ start: '2026-11-01', end: '2026-12-01' }, ['i-0train'])).find((r) => r.commitmentId);
    await store.close();
    // The plan's end time comes along, so an expiring commitment can be told ahead.
    expect(covered).toMatchObject({ commitmentEnd: '2027-01-31T23:59:59Z', hours: 5 });
    // Usage 10 h at 100 and covered usage 5 h at 30 (the negation's 5 h offset cost, not time).
    expect(train).toMatchObject({ effective: 100 + 30 + 0, hours: 10 + 5 });
  });
});

describe('files that are not FOCUS', () => {
  const refusal = async (name: string, content: string) => {
    const file = tmp.path(name);
    writeFileSync(file, content);
    const error = await readFocusFiles([file], pullContext()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BurnrateError);
    return error as BurnrateError;
  };

  it("counts a reservation's upfront fee at 0 effective (it is amortised into the covered usage) and a support fee as billed", async () => {
    const ri = 'arn:aws:ec2:us-east-1:111111111111:reserved-instances/ri-1';
    const header = [
      'bill_billing_period_start_date',
      'bill_billing_period_end_date',
      'bill_payer_account_id',
      'line_item_line_item_type',
      'line_item_usage_start_date',
      'line_item_usage_end_date',
      'line_item_product_code',
      'line_item_unblended_cost',
      'line_item_currency_code',
      'reservation_reservation_a_r_n',
      'reservation_effective_cost',
      'reservation_unused_amortized_upfront_fee_for_billing_period',
      'reservation_unused_recurring_fee',
      'resource_tags',
    ];
    // type, unblended, reservation ARN, reservation effective, unused upfront, unused recurring; effective by hand.
    const lines: [string, number, string, number, number, number, number][] = [
      ['Fee', 3650, ri, 0, 0, 0, 0], // the upfront payment: amortised into DiscountedUsage
      ['DiscountedUsage', 0, ri, 10, 0, 0, 10],
      ['RIFee', 24, ri, 0, 1.5, 0.5, 2], // the month's recurring fee: its unused part
      ['Fee', 100, '', 0, 0, 0, 100], // a support plan
    ];
    const csv = [
      header.join(','),
      ...lines.map(([type, unblended, arn, effective, upfront, recurring]) =>
        [
          '2026-11-01T00:00:00Z',
          '2026-12-01T00:00:00Z',
          '111111111111',
          type,
          '2026-11-03T00:00:00Z',
          '2026-11-04T00:00:00Z',
          type === 'Fee' && arn === '' ? 'AWSSupportBusiness' : 'AmazonEC2',
          unblended,
          'USD',
          arn,
          effective,
          upfront,
          recurring,
          '"{""user_team"": ""ml-research""}"',
        ].join(','),
      ),
    ].join('\n');
    const path = tmp.path('cur2-reservation.csv');
    writeFileSync(path, csv + '\n');
    const { rows } = await readFocusFiles([path], pullContext());
    const total = (k: 'billed' | 'effective') => rows.reduce((s, r) => s + r[k], 0);
    expect(total('billed')).toBeCloseTo(
      lines.reduce((s, l) => s + l[1], 0),
      6,
    );
    expect(total('effective')).toBeCloseTo(
      lines.reduce((s, l) => s + l[6], 0),
      6,
    );
    const upfront = rows.filter(
      (r) => r.chargeCategory === 'Purchase' && r.commitmentDiscountId === ri && r.chargeFrequency === 'One-Time',
    );
    expect(upfront.reduce((s, r) => s + r.billed, 0)).toBeCloseTo(3650, 6);
    expect(upfront.every((r) => r.effective === 0)).toBe(true);
    // Without bill/BillType, the support plan recurs, as Cost Explorer's Fee and Support record types say.
    expect(rows.find((r) => r.billed === 100)?.chargeFrequency).toBe('Recurring');
  });

  it('names an Azure EA or pay-as-you-go export and says how to export FOCUS', async () => {
    const ea = await refusal(
      'azure-ea.csv',
      'InvoiceSectionName,AccountName,SubscriptionId,Date,MeterCategory,CostInBillingCurrency\nx,y,z,2026-11-01,VM,1\n',
    );
    expect(ea.message).toContain('is an Azure cost export');
    expect(ea.hint).toContain('Cost and usage details (FOCUS)');
    const payg = await refusal(
      'azure-payg.csv',
      'SubscriptionGuid,ResourceGroup,UsageDateTime,MeterCategory,PreTaxCost\nx,y,2026-11-01,VM,1\n',
    );
    expect(payg.message).toContain('is an Azure cost export');
  });

  it('names an Azure export with German headers', async () => {
    const de = await refusal('azure-de.csv', 'Abonnement,Datum,Messungskategorie,Kosten\nx,2026-11-01,VM,1\n');
    expect(de.message).toContain('German headers');
  });

  it('names a Google Cloud billing CSV', async () => {
    const gcp = await refusal(
      'gcp.csv',
      'Billing account ID,Project ID,Service description,SKU description,Cost (USD)\nx,p,Compute,GPU,1\n',
    );
    expect(gcp.message).toContain('Google Cloud billing export');
    expect(gcp.hint).toContain('FOCUS BigQuery view');
  });

  it('imports a FOCUS file that starts with a byte-order mark', async () => {
    const file = tmp.path('bom.csv');
    writeFileSync(
      file,
      '\uFEFFBilledCost,EffectiveCost,BillingCurrency,BillingPeriodStart,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ServiceName,ProviderName,BillingAccountId\n' +
        '12.5,12.5,USD,2026-11-01T00:00:00Z,2026-11-03T00:00:00Z,2026-11-04T00:00:00Z,Usage,EC2,AWS,1\n',
    );
    const batch = await readFocusFiles([file], pullContext());
    expect(batch.rows.map((r) => r.billed)).toEqual([12.5]);
  });
});
