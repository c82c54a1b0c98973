import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { cli, workDir } from '../support/run-cli.js';
import { spendRow } from '../support/deps.js';

// Charge days against invoices: a charge incurred on 31 October that the November invoice carries.

describe('spend by charge day or by invoice', () => {
  it('groups by the billing period with --basis invoice, by the charge day otherwise', async () => {
    const store = openStore(':memory:');
    const late = { ...spendRow('ml', '2026-10-31', 40), billingPeriod: '2026-11' };
    const november = spendRow('ml', '2026-11-03', 100);
    const october = spendRow('ml', '2026-10-15', 7);
    await store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] }, rows: [late, november, october], dataThrough: null },
    ]);
    const period = { start: '2026-11-01', end: '2026-12-01' };
    const total = async (basis: 'charge' | 'invoice') =>
      (await store.spend.totals({ period, basis }, 'team')).map((r) => [r.key, r.billed]);
    // By hand: charge days in November: 100; the November invoice: 100 + the 40 of 31 October.
    expect(await total('charge')).toEqual([['ml', 100]]);
    expect(await total('invoice')).toEqual([['ml', 140]]);
    await store.close();
  });

  it('names resources beside their ids when the bill gives a name', async () => {
    const store = openStore(':memory:');
    await store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [{ ...spendRow('ml', '2026-11-03', 10), resourceId: 'i-0abc', resourceName: 'trainer-1' }, spendRow('ml', '2026-11-04', 5)],
        dataThrough: null,
      },
    ]);
    const rows = await store.spend.totals({ period: { start: '2026-11-01', end: '2026-12-01' } }, 'resource');
    expect(rows.map((r) => r.key)).toEqual(['trainer-1 (i-0abc)', 'i-ml']);
    await store.close();
  });

  it('refuses another basis and says which there are', async () => {
    const result = await cli(['spend', '--basis', 'weekly'], { cwd: workDir() });
    expect(result.code).toBe(2);
    expect(result.err).toContain('--basis must be one of charge, invoice');
  });
});
