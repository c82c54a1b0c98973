import { expect, it } from 'vitest';
import type { SpendRow } from '../../../src/domain/spend.js';
import { describeStores } from '../../support/stores.js';
import { batchOf, byBytes, expectClose, line, NOVEMBER, sumsBy } from './spend-fixtures.js';

// Spend readings (spend-daily.ts): every reading of spend_daily, on rows whose sums are worked out here.

/** A month of one bill: three teams, two currencies, a name beside an id, a provider column, mixed-case names. */
const BILL: SpendRow[] = [
  line({ resourceName: 'trainer-1', extensions: '{"x_UsageType":"BoxUsage:p5"}', usageHours: 24 }),
  line({ day: '2026-11-04', billed: 10.2, effective: 0.1, usageHours: 24, extensions: '{"x_UsageType":"BoxUsage:p5"}' }),
  line({ day: '2026-11-05', resourceId: 'i-2', billed: 0.2, effective: 0.2, usageHours: 3 }),
  line({ team: 'Vision', ownerTag: 'Vision', service: 'S3', serviceCategory: 'Storage', resourceId: null, billed: 3.3, effective: 3.3 }),
  line({
    team: 'vision',
    ownerTag: 'vision',
    currency: 'EUR',
    resourceId: 'i-eu',
    billed: 7,
    effective: 6.5,
    extensions: '{"x_UsageType":null}',
  }),
  line({
    team: '(untagged)',
    ownerTag: null,
    provider: 'Google Cloud',
    service: 'Compute Engine',
    resourceId: 'vm-1',
    billed: 9.3,
    effective: 9.3,
  }),
];

const importBill = (rows: SpendRow[] = BILL) => batchOf(rows);

/** What totals must say: the rows of the window summed per key and currency, largest first (days in order). */
function expectedTotals(rows: readonly SpendRow[], keyOf: (row: SpendRow) => string, byDay = false) {
  const sums = [...sumsBy(rows, (r) => `${keyOf(r)}\u0000${r.currency}`)].map(([k, sum]) => {
    const [key, currency] = k.split('\u0000') as [string, string];
    return { key, currency, ...sum };
  });
  return sums.sort((a, b) => (byDay ? 0 : b.effective - a.effective) || byBytes(a.key, b.key) || byBytes(a.currency, b.currency));
}

describeStores('spend totals', (store) => {
  it('groups by team, service, day and provider, largest first, in SQLite byte order for ties', async () => {
    await store().importBatches([importBill()]);
    expectClose(
      await store().spend.totals({ period: NOVEMBER }, 'team'),
      expectedTotals(BILL, (r) => r.team),
    );
    expectClose(
      await store().spend.totals({ period: NOVEMBER }, 'service'),
      expectedTotals(BILL, (r) => r.service),
    );
    expectClose(
      await store().spend.totals({ period: NOVEMBER }, 'day'),
      expectedTotals(BILL, (r) => r.day, true),
    );
    expectClose(
      await store().spend.totals({ period: NOVEMBER }, 'provider'),
      expectedTotals(BILL, (r) => r.provider),
    );
  });

  it('names resources beside their ids, and says so when a line has no id', async () => {
    await store().importBatches([importBill()]);
    const keyOf = (r: SpendRow) =>
      r.resourceName && r.resourceId ? `${r.resourceName} (${r.resourceId})` : (r.resourceId ?? '(no resource id)');
    expectClose(await store().spend.totals({ period: NOVEMBER }, 'resource'), expectedTotals(BILL, keyOf));
  });

  it('groups by a provider column kept in the extensions, "(none)" where a row has none', async () => {
    await store().importBatches([importBill()]);
    const keyOf = (r: SpendRow) =>
      (r.extensions ? (JSON.parse(r.extensions) as { x_UsageType: string | null }).x_UsageType : null) ?? '(none)';
    expectClose(await store().spend.totals({ period: NOVEMBER }, 'x_UsageType'), expectedTotals(BILL, keyOf));
  });

  it('filters by teams: none listed, none found', async () => {
    await store().importBatches([importBill()]);
    const teams = ['vision', 'Vision'];
    expectClose(
      await store().spend.totals({ period: NOVEMBER, teams }, 'team'),
      expectedTotals(
        BILL.filter((r) => teams.includes(r.team)),
        (r) => r.team,
      ),
    );
    expect(await store().spend.totals({ period: NOVEMBER, teams: [] }, 'team')).toEqual([]);
    expect(await store().spend.totals({ period: NOVEMBER, teams: ['nobody'] }, 'team')).toEqual([]);
  });

  it('counts a charge of 31 October billed in November on the invoice basis only', async () => {
    const late = line({ day: '2026-10-31', billed: 40, effective: 40 });
    const october = line({ day: '2026-10-15', billingPeriod: '2026-10', billed: 7, effective: 7 });
    await store().importBatches([batchOf([late, ...BILL, october], { billingPeriods: ['2026-10', '2026-11'] })]);
    expectClose(
      await store().spend.totals({ period: NOVEMBER }, 'team'),
      expectedTotals(BILL, (r) => r.team),
    );
    expectClose(
      await store().spend.totals({ period: NOVEMBER, basis: 'invoice' }, 'team'),
      expectedTotals([late, ...BILL], (r) => r.team),
    );
    // A period of part of a month takes the whole billing period on the invoice basis.
    expectClose(
      await store().spend.totals({ period: { start: '2026-10-20', end: '2026-11-02' }, basis: 'invoice' }, 'team'),
      expectedTotals([late, ...BILL, october], (r) => r.team),
    );
  });
});

describeStores('spend per team and day', (store) => {
  it('gives each team-day its sums per currency and kind of charge, from a day on, in key order', async () => {
    const fee = line({
      day: '2026-11-01',
      chargeCategory: 'Purchase',
      chargeFrequency: 'Recurring',
      resourceId: null,
      billed: 100,
      effective: 100,
    });
    const credit = line({ day: '2026-11-03', chargeCategory: 'Credit', billed: -2.5, effective: -2.5 });
    const rows = [...BILL, fee, credit];
    await store().importBatches([importBill(rows)]);
    const kindOf = (r: SpendRow) => (r === fee ? 'recurring' : r === credit ? 'one-time' : 'usage');
    const expected = [...sumsBy(rows, (r) => [r.day, r.team, r.currency, kindOf(r)].join('\u0000'))]
      .map(([key, sum]) => {
        const [day, team, currency, kind] = key.split('\u0000') as [string, string, string, string];
        return { team, day, currency, kind, ...sum };
      })
      .filter((d) => d.day >= '2026-11-03');
    expectClose(await store().spend.dailyByTeam('2026-11-03'), expected);
  });
});

describeStores('spend by resource', (store) => {
  const committed = [
    line({ resourceId: 'i-c1', pricingCategory: 'Committed', commitmentDiscountId: 'sp-1', commitmentDiscountStatus: 'Used' }),
    line({ resourceId: 'i-c2', pricingCategory: 'Standard', commitmentDiscountId: 'sp-1', commitmentDiscountStatus: 'USED' }),
    line({ resourceId: 'i-old', day: '2026-11-01', pricingCategory: 'Committed' }),
    line({ resourceId: '', pricingCategory: 'Committed' }),
    line({
      resourceId: null,
      commitmentDiscountId: 'sp-1',
      commitmentDiscountStatus: 'Unused',
      effective: 4,
      commitmentDiscountEnd: '2027-03-01T00:00:00Z',
    }),
  ];

  it('lists the resources a commitment covered from a day on', async () => {
    await store().importBatches([importBill([...BILL, ...committed])]);
    expect([...(await store().spend.committedResources('2026-11-02'))].sort()).toEqual(['i-c1', 'i-c2']);
  });

  it("sums each resource's cost, days with a charge and hours, per team, currency and commitment", async () => {
    const rows = [
      line({ resourceId: 'i-1', usageHours: 20, commitmentDiscountId: 'sp-1', commitmentDiscountEnd: '2027-01-01T00:00:00Z' }),
      line({
        resourceId: 'i-1',
        day: '2026-11-04',
        usageHours: 4,
        commitmentDiscountId: 'sp-1',
        commitmentDiscountEnd: '2027-03-01T00:00:00Z',
      }),
      line({ resourceId: 'i-1', day: '2026-11-05', effective: 0, usageHours: 1 }),
      line({ resourceId: 'i-1', day: '2026-11-06', team: 'cv' }),
      line({ resourceId: 'i-2', day: '2026-11-06' }),
      line({ resourceId: 'i-3', day: '2026-11-06' }),
      line({ resourceId: 'i-1', day: '2026-12-01' }),
    ];
    await store().importBatches([batchOf(rows, { billingPeriods: ['2026-11'] })]);
    const [a, b, c, d, e] = rows as [SpendRow, SpendRow, SpendRow, SpendRow, SpendRow];
    expectClose(await store().spend.resourceCosts(NOVEMBER, ['i-1', 'i-2', 'i-9']), [
      {
        resourceId: 'i-1',
        team: 'cv',
        currency: 'USD',
        period: '2026-11',
        commitmentId: null,
        effective: d.effective,
        days: 1,
        hours: null,
        commitmentEnd: null,
        provider: 'AWS',
        resourceName: null,
        region: null,
      },
      {
        resourceId: 'i-1',
        team: 'ml',
        currency: 'USD',
        period: '2026-11',
        commitmentId: null,
        effective: c.effective,
        days: 0,
        hours: 1,
        commitmentEnd: null,
        provider: 'AWS',
        resourceName: null,
        region: null,
      },
      {
        resourceId: 'i-1',
        team: 'ml',
        currency: 'USD',
        period: '2026-11',
        commitmentId: 'sp-1',
        effective: a.effective + b.effective,
        days: 2,
        hours: 24,
        commitmentEnd: '2027-03-01T00:00:00Z',
        provider: 'AWS',
        resourceName: null,
        region: null,
      },
      {
        resourceId: 'i-2',
        team: 'ml',
        currency: 'USD',
        period: '2026-11',
        commitmentId: null,
        effective: e.effective,
        days: 1,
        hours: null,
        commitmentEnd: null,
        provider: 'AWS',
        resourceName: null,
        region: null,
      },
    ]);
    expect(await store().spend.resourceCosts(NOVEMBER, [])).toEqual([]);
  });

  it('gives hours of use and charges per resource, from a day on and per day', async () => {
    const rows = [
      line({ resourceId: 'i-b', usageHours: 20, effective: 21.5 }),
      line({ resourceId: 'i-b', day: '2026-11-04', usageHours: 4, effective: 4.1 }),
      line({ resourceId: 'i-b', day: '2026-11-04', usageHours: 0, effective: 1, service: 'EBS' }),
      line({ resourceId: 'i-a', day: '2026-11-04', usageHours: 2, currency: 'EUR', effective: 3 }),
      line({ resourceId: 'i-a', day: '2026-11-02', usageHours: 2, effective: 3 }),
      line({ resourceId: null, usageHours: 5 }),
    ];
    await store().importBatches([batchOf(rows)]);
    const [b1, b2, b3, a1] = rows as [SpendRow, SpendRow, SpendRow, SpendRow];
    expectClose(await store().spend.resourceHours('2026-11-03'), [
      { resourceId: 'i-a', currency: 'EUR', period: '2026-11', effective: a1.effective, hours: 2 },
      { resourceId: 'i-b', currency: 'USD', period: '2026-11', effective: b1.effective + b2.effective, hours: 24 },
    ]);
    expectClose(await store().spend.resourceDays({ start: '2026-11-03', end: '2026-11-05' }, ['i-b', 'i-a']), [
      { resourceId: 'i-a', day: '2026-11-04', currency: 'EUR', period: '2026-11', effective: a1.effective, hours: 2 },
      { resourceId: 'i-b', day: '2026-11-03', currency: 'USD', period: '2026-11', effective: b1.effective, hours: 20 },
      { resourceId: 'i-b', day: '2026-11-04', currency: 'USD', period: '2026-11', effective: b2.effective + b3.effective, hours: 4 },
    ]);
    expect(await store().spend.resourceDays(NOVEMBER, [])).toEqual([]);
  });

  it('sums unused commitments with their end', async () => {
    const unused = [
      ...committed,
      line({ resourceId: null, commitmentDiscountId: 'ri-9', commitmentDiscountStatus: 'unused', effective: 2.2, currency: 'EUR' }),
      line({ resourceId: null, commitmentDiscountId: 'sp-1', commitmentDiscountStatus: 'Unused', effective: 1.1, day: '2026-11-06' }),
    ];
    await store().importBatches([importBill(unused)]);
    expectClose(await store().spend.unusedCommitments(NOVEMBER), [
      { commitmentId: 'ri-9', currency: 'EUR', period: '2026-11', effective: 2.2, commitmentEnd: null },
      { commitmentId: 'sp-1', currency: 'USD', period: '2026-11', effective: 4 + 1.1, commitmentEnd: '2027-03-01T00:00:00Z' },
    ]);
  });

  it("keeps each billing period's part of a resource apart: each is converted at its own period's rate", async () => {
    const oct = (over: Partial<SpendRow>) => line({ day: '2026-10-31', billingPeriod: '2026-10', ...over });
    const rows = [
      oct({ currency: 'JPY', effective: 7000, usageHours: 24 }),
      line({ currency: 'JPY', effective: 6000, usageHours: 24 }),
      oct({ resourceId: null, commitmentDiscountId: 'sp-1', commitmentDiscountStatus: 'Unused', effective: 3 }),
      line({ resourceId: null, commitmentDiscountId: 'sp-1', commitmentDiscountStatus: 'Unused', effective: 2 }),
    ];
    await store().importBatches([batchOf(rows, { billingPeriods: ['2026-10', '2026-11'] })]);
    const [o, n] = rows as [SpendRow, SpendRow];
    const both = { start: '2026-10-01', end: '2026-12-01' };
    const cost = { resourceId: 'i-1', team: 'ml', currency: 'JPY', commitmentId: null, days: 1, hours: 24, commitmentEnd: null };
    const named = { provider: 'AWS', resourceName: null, region: null };
    expectClose(await store().spend.resourceCosts(both, ['i-1']), [
      { ...cost, ...named, period: '2026-10', effective: o.effective },
      { ...cost, ...named, period: '2026-11', effective: n.effective },
    ]);
    expectClose(await store().spend.resourceDays(both, ['i-1']), [
      { resourceId: 'i-1', day: o.day, currency: 'JPY', period: '2026-10', effective: o.effective, hours: 24 },
      { resourceId: 'i-1', day: n.day, currency: 'JPY', period: '2026-11', effective: n.effective, hours: 24 },
    ]);
    expectClose(await store().spend.resourceHours('2026-10-01'), [
      { resourceId: 'i-1', currency: 'JPY', period: '2026-10', effective: o.effective, hours: 24 },
      { resourceId: 'i-1', currency: 'JPY', period: '2026-11', effective: n.effective, hours: 24 },
    ]);
    expectClose(await store().spend.unusedCommitments(both), [
      { commitmentId: 'sp-1', currency: 'USD', period: '2026-10', effective: 3, commitmentEnd: null },
      { commitmentId: 'sp-1', currency: 'USD', period: '2026-11', effective: 2, commitmentEnd: null },
    ]);
  });
});

describeStores('spend for invoices and showback', (store) => {
  it('gives the rates bills used, per billing period and currency pair', async () => {
    const jpy = [
      line({ currency: 'JPY', effective: 1500, pricingCurrency: 'USD', pricingCurrencyEffectiveCost: 10 }),
      line({ currency: 'JPY', effective: 151.2, pricingCurrency: 'USD', pricingCurrencyEffectiveCost: 1.01 }),
      line({ currency: 'USD', effective: 3, pricingCurrency: 'USD', pricingCurrencyEffectiveCost: 3 }),
      line({ currency: 'JPY', effective: 99, pricingCurrency: 'USD', pricingCurrencyEffectiveCost: null }),
      line({ currency: 'EUR', effective: 2, pricingCurrency: 'USD', pricingCurrencyEffectiveCost: 2.2 }),
    ];
    await store().importBatches([importBill(jpy)]);
    expectClose(await store().spend.billRates(), [
      { billingPeriod: '2026-11', currency: 'EUR', pricingCurrency: 'USD', effective: 2, pricingEffective: 2.2 },
      { billingPeriod: '2026-11', currency: 'JPY', pricingCurrency: 'USD', effective: 1500 + 151.2, pricingEffective: 10 + 1.01 },
    ]);
  });

  it("groups a billing period's spend for showback, whatever the charge day", async () => {
    const rows = [
      ...BILL,
      line({ day: '2026-10-31', billed: 40, effective: 40 }),
      line({ resourceId: '', billed: 1, effective: 1 }),
      line({ resourceId: 'i-c', commitmentDiscountId: 'sp-1', commitmentDiscountStatus: 'Used', billed: 2, effective: 1.5 }),
      line({ day: '2026-12-02', billingPeriod: '2026-12', billed: 5, effective: 5 }),
    ];
    await store().importBatches([batchOf(rows, { billingPeriods: ['2026-11', '2026-12'] })]);
    const keyOf = (r: SpendRow) =>
      JSON.stringify([
        r.team,
        r.ownerTag,
        r.provider,
        r.chargeCategory,
        'usage',
        r.resourceId !== null && r.resourceId !== '',
        r.commitmentDiscountId ?? null,
        r.commitmentDiscountStatus ?? null,
        r.currency,
      ]);
    const expected = [
      ...sumsBy(
        rows.filter((r) => r.billingPeriod === '2026-11'),
        keyOf,
      ),
    ]
      .map(([key, sum]) => {
        const [team, ownerTag, provider, chargeCategory, kind, hasResource, commitmentId, commitmentStatus, currency] = JSON.parse(key) as [
          string,
          string | null,
          string,
          string,
          string,
          boolean,
          string | null,
          string | null,
          string,
        ];
        return { team, ownerTag, provider, chargeCategory, kind, hasResource, commitmentId, commitmentStatus, currency, ...sum };
      })
      .sort(
        (a, b) =>
          byBytes(a.team, b.team) ||
          nullsFirst(a.ownerTag, b.ownerTag) ||
          byBytes(a.provider, b.provider) ||
          Number(a.hasResource) - Number(b.hasResource) ||
          nullsFirst(a.commitmentId, b.commitmentId) ||
          byBytes(a.currency, b.currency),
      );
    expectClose(await store().spend.invoiceLines('2026-11'), expected);
    expect(await store().spend.invoiceLines('2027-01')).toEqual([]);
  });

  it("gives a team's corrections of a month's charges, by billing period, service and resource", async () => {
    const fix = (over: Partial<SpendRow>) => line({ chargeClass: 'Correction', billingPeriod: '2026-12', ...over });
    const rows = [
      fix({ resourceId: 'i-2', resourceName: 'b-name', billed: -3, effective: -2.5 }),
      fix({ resourceId: 'i-2', resourceName: 'B-name', billed: -1, effective: -1.25, day: '2026-11-20' }),
      fix({ resourceId: null, service: 'Support', billed: 4, effective: 4 }),
      fix({ resourceId: 'i-1', billingPeriod: '2027-01', billed: 1, effective: 1 }),
      fix({ team: 'cv' }),
      fix({ day: '2026-10-30' }),
      line({ billed: 100, effective: 100 }),
    ];
    await store().importBatches([batchOf(rows, { billingPeriods: ['2026-11', '2026-12', '2027-01'] })]);
    expectClose(await store().spend.corrections('ml', '2026-11'), [
      {
        billingPeriod: '2026-12',
        service: 'EC2',
        resourceId: 'i-2',
        resourceName: 'b-name',
        currency: 'USD',
        billed: -4,
        effective: -3.75,
      },
      { billingPeriod: '2026-12', service: 'Support', resourceId: null, resourceName: null, currency: 'USD', billed: 4, effective: 4 },
      { billingPeriod: '2027-01', service: 'EC2', resourceId: 'i-1', resourceName: null, currency: 'USD', billed: 1, effective: 1 },
    ]);
    expect(await store().spend.corrections('ml', '2026-12')).toEqual([]);
  });

  it('lists the teams with spend from a source from a day on, in byte order', async () => {
    await store().importBatches([importBill()]);
    await store().importBatches([batchOf([line({ team: 'ops' })], { source: 'aws' })]);
    const expected = [...new Set(BILL.filter((r) => r.day >= '2026-11-04').map((r) => r.team))].sort(byBytes);
    expect(await store().spend.teamsOf('focus', '2026-11-04')).toEqual(expected);
    expect(await store().spend.teamsOf('aws', '2026-11-01')).toEqual(['ops']);
    expect(await store().spend.teamsOf('gcp', '2026-11-01')).toEqual([]);
  });
});

/** SQLite's order of a nullable text column: NULL first, then bytes. */
function nullsFirst(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return byBytes(a, b);
}
