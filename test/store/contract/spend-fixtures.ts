import { expect } from 'vitest';
import type { KubeUsageRow } from '../../../src/domain/kube-usage.js';
import type { SpendBatch, SpendRow, SpendScope } from '../../../src/domain/spend.js';
import type { StoreUnderTest } from '../../support/stores.js';
import pg from 'pg';

// Spend as the contract tests write it, and plain sums over it: the figures every store must give
// back are computed here from the rows a test wrote, never read from burnrate's own output.

export const NOVEMBER = { start: '2026-11-01', end: '2026-12-01' };

/** An EC2 usage line of team ml on 3 November 2026, in account 111: override what a test is about. */
export const line = (over: Partial<SpendRow> = {}): SpendRow => ({
  day: '2026-11-03',
  billingPeriod: '2026-11',
  team: 'ml',
  ownerTag: 'ml',
  provider: 'AWS',
  billingAccount: '111',
  subAccount: null,
  service: 'EC2',
  serviceCategory: 'Compute',
  resourceId: 'i-1',
  chargeCategory: 'Usage',
  pricingCategory: 'Standard',
  currency: 'USD',
  billed: 10.1,
  effective: 9.3,
  ...over,
});

/** A batch replacing November of account 111 in source `focus`, unless the scope says otherwise. */
export const batchOf = (rows: SpendRow[], scope: Partial<SpendScope> = {}, dataThrough: string | null = null): SpendBatch => ({
  scope: { source: 'focus', billingPeriods: ['2026-11'], billingAccounts: ['111'], ...scope },
  rows,
  dataThrough,
});

/** Sums of billed and effective per key over some rows; keys in SQLite's (byte) order. */
export function sumsBy<K extends string>(
  rows: readonly SpendRow[],
  keyOf: (row: SpendRow) => K,
): Map<K, { billed: number; effective: number }> {
  const sums = new Map<K, { billed: number; effective: number }>();
  for (const row of rows) {
    const sum = sums.get(keyOf(row)) ?? { billed: 0, effective: 0 };
    sum.billed += row.billed;
    sum.effective += row.effective;
    sums.set(keyOf(row), sum);
  }
  return new Map([...sums].sort(([a], [b]) => byBytes(a, b)));
}

export const total = (rows: readonly SpendRow[], amount: 'billed' | 'effective' = 'effective'): number =>
  rows.reduce((sum, row) => sum + row[amount], 0);

/** Text compared as SQLite compares it (and JavaScript, for the ASCII the tests use). */
export const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The same records in the same order; amounts equal to 9 decimals (sums may add in another order). */
export function expectClose(actual: unknown, expected: unknown): void {
  if (typeof expected === 'number') {
    expect(typeof actual).toBe('number');
    expect(actual as number).toBeCloseTo(expected, 9);
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual)).toBe(true);
    expect((actual as unknown[]).length).toBe(expected.length);
    expected.forEach((e, i) => expectClose((actual as unknown[])[i], e));
  } else if (expected !== null && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[key], value);
  } else {
    expect(actual).toEqual(expected);
  }
}

/**
 * Writes Kubernetes usage samples. The Postgres kube usage store is ported apart from the spend
 * side: there the rows are written as they are (an import then attributes them, as on SQLite).
 */
export async function writeKubeUsage(store: StoreUnderTest, rows: readonly KubeUsageRow[]): Promise<void> {
  if (store.url === ':memory:') return store().kubeUsage.record('c', new Date('2026-11-20T00:00:00Z'), rows, []);
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  try {
    for (const r of rows)
      await client.query(
        `INSERT INTO kube_gpu_usage (day, cluster, node, node_instance_id, node_hourly, namespace, workload, team, node_hours)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [r.day, r.cluster, r.node, r.nodeInstanceId, r.nodeHourly, r.namespace, r.workload, r.team, r.nodeHours],
      );
  } finally {
    await client.end();
  }
}
