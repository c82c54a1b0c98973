import { expect, it } from 'vitest';
import type { SpendRow } from '../../../src/domain/spend.js';
import { describeStores } from '../../support/stores.js';
import { batchOf, line, NOVEMBER } from './spend-fixtures.js';

// Every money sum the store gives equals the bill's lines added by hand: rows whose double sum
// drifts (a thousand 0.1 and 0.7 lines, a billion beside millionths) must still total to the cent
// and below. The expected figures are added here in integer micro-units (BigInt), not read back.

const drifting: SpendRow[] = [
  ...Array.from({ length: 1000 }, (_, i) => line({ day: '2026-11-03', billed: 0.1, effective: 0.7, resourceId: i % 2 ? 'i-1' : 'i-2' })),
  line({ day: '2026-11-04', billed: 1_000_000_000, effective: 999_999_999.99, resourceId: 'i-1' }),
  ...Array.from({ length: 999 }, () => line({ day: '2026-11-04', billed: 0.000001, effective: 0.000003, resourceId: 'i-1' })),
];

/** The lines' amount added as a person would: each in micro-units, summed exactly, divided once. */
function handSum(rows: readonly SpendRow[], amount: 'billed' | 'effective'): number {
  const micros = rows.reduce((sum, row) => sum + BigInt(Math.round(row[amount] * 1_000_000)), 0n);
  return Number(micros) / 1_000_000;
}

describeStores('exact money sums', (store) => {
  it('totals, team days, cost lines and resource costs add micro-units exactly where doubles drift', async () => {
    // The double sum really drifts, so the test would see a store that adds doubles.
    expect(drifting.reduce((sum, r) => sum + r.effective, 0)).not.toBe(handSum(drifting, 'effective'));

    await store().importBatches([batchOf(drifting)]);

    const [team] = await store().spend.totals({ period: NOVEMBER }, 'team');
    expect(team!.billed).toBe(handSum(drifting, 'billed'));
    expect(team!.effective).toBe(handSum(drifting, 'effective'));

    const days = await store().spend.dailyByTeam(NOVEMBER.start);
    for (const day of ['2026-11-03', '2026-11-04']) {
      const rows = drifting.filter((r) => r.day === day);
      const teamDay = days.find((d) => d.day === day)!;
      expect(teamDay.billed).toBe(handSum(rows, 'billed'));
      expect(teamDay.effective).toBe(handSum(rows, 'effective'));
    }

    const lines = await store().breakdowns.costLines(NOVEMBER, 'ml');
    for (const resourceId of ['i-1', 'i-2']) {
      const rows = drifting.filter((r) => r.resourceId === resourceId);
      expect(lines.find((l) => l.resourceId === resourceId)!.effective).toBe(handSum(rows, 'effective'));
    }

    const costs = await store().spend.resourceCosts(NOVEMBER, ['i-1']);
    expect(costs.reduce((sum, c) => sum + c.effective, 0)).toBe(
      handSum(
        drifting.filter((r) => r.resourceId === 'i-1'),
        'effective',
      ),
    );

    const invoice = await store().spend.invoiceLines('2026-11');
    expect(invoice.map((l) => l.billed)).toEqual([handSum(drifting, 'billed')]);
  });
});
