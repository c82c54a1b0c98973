import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';
import { batchOf, line } from './spend-fixtures.js';

// Source freshness (source-freshness.ts) and the freshness every import writes: how far each source's data reaches, when
// it was last refreshed, and its last failure until a refresh works.

const at = (iso: string) => new Date(iso);

describeStores('source freshness', (store) => {
  it('records how far each source reaches, never moving back, in byte order of sources', async () => {
    const importAt = (source: string, through: string | null, now: string) =>
      store().importBatches([batchOf([line()], { source, billingAccounts: undefined }, through)], at(now));
    await importAt('focus', '2026-11-04T00:00:00Z', '2026-11-04T06:00:00Z');
    await importAt('Aws', null, '2026-11-04T07:00:00Z');
    await importAt('focus', '2026-11-02T00:00:00Z', '2026-11-05T06:00:00Z'); // older data: the mark stays
    await importAt('Aws', '2026-11-03T00:00:00Z', '2026-11-05T07:00:00Z');
    await importAt('Aws', null, '2026-11-06T07:00:00Z'); // no usage in it: the mark stays
    expect(await store().freshness.list()).toEqual([
      { source: 'Aws', dataThrough: '2026-11-03T00:00:00Z', refreshedAt: '2026-11-06T07:00:00.000Z' },
      { source: 'focus', dataThrough: '2026-11-04T00:00:00Z', refreshedAt: '2026-11-05T06:00:00.000Z' },
    ]);
  });

  it('keeps the last failure of a source until one of its refreshes works', async () => {
    expect(await store().freshness.failures()).toEqual([]);
    await store().freshness.recordFailure('focus', 'AccessDenied', at('2026-11-04T06:00:00Z'));
    await store().freshness.recordFailure('focus', 'Throttled', at('2026-11-04T07:00:00Z'));
    await store().freshness.recordFailure('aws', 'timeout', at('2026-11-04T08:00:00Z'));
    expect(await store().freshness.failures()).toEqual([
      { source: 'aws', failedAt: '2026-11-04T08:00:00.000Z', error: 'timeout' },
      { source: 'focus', failedAt: '2026-11-04T07:00:00.000Z', error: 'Throttled' },
    ]);
    await store().importBatches([batchOf([line()], { source: 'focus' }, '2026-11-04T00:00:00Z')], at('2026-11-04T09:00:00Z'));
    expect(await store().freshness.failures()).toEqual([{ source: 'aws', failedAt: '2026-11-04T08:00:00.000Z', error: 'timeout' }]);
  });

  it('records a refresh that found nothing to import', async () => {
    await store().importBatches([batchOf([], { source: 'gcp', billingAccounts: undefined }, null)], at('2026-11-04T06:00:00Z'));
    expect(await store().freshness.list()).toEqual([{ source: 'gcp', dataThrough: null, refreshedAt: '2026-11-04T06:00:00.000Z' }]);
  });
});
