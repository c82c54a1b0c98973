import { expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import type { ExportPart, SpendBatch, SpendRow } from '../../../src/domain/spend.js';
import type { Store } from '../../../src/store/store.js';
import { describeStores } from '../../support/stores.js';
import { batchOf, expectClose, line, NOVEMBER, sumsBy, total } from './spend-fixtures.js';

// Store.importBatches: what each kind of import replaces, all or nothing, and the team days that
// follow it. Each expectation is a plain sum over the rows the test imported and expects to remain.

/** What the store must hold: sums per team and day (the rollup) and the total per team. */
async function expectHolds(store: Store, rows: readonly SpendRow[]): Promise<void> {
  const days = [...sumsBy(rows, (r) => `${r.day}\u0000${r.team}`)].map(([key, sum]) => {
    const [day, team] = key.split('\u0000') as [string, string];
    return { team, day, currency: 'USD', kind: 'usage', ...sum };
  });
  expectClose(await store.spend.dailyByTeam('2000-01-01'), days);
  const teams = [...sumsBy(rows, (r) => r.team)].map(([key, sum]) => ({ key, currency: 'USD', ...sum }));
  const totals = await store.spend.totals({ period: { start: '2000-01-01', end: '2100-01-01' } }, 'team');
  expectClose(
    [...totals].sort((a, b) => (a.key < b.key ? -1 : 1)),
    teams.sort((a, b) => (a.key < b.key ? -1 : 1)),
  );
}

describeStores('importing spend by billing period', (store) => {
  it('replaces a billing period of an account on re-import instead of adding to it', async () => {
    const first = [line(), line({ day: '2026-11-04' }), line({ team: 'cv', billed: 3.3, effective: 2.2 })];
    expect(await store().importBatches([batchOf(first)])).toEqual({
      rowsDeleted: 0,
      rowsInserted: 3,
      billingPeriods: ['2026-11'],
      replaced: 'period',
      replacedParts: [],
    });
    await expectHolds(store(), first);
    // The period again, with a day gone and another changed: the gone day leaves the rollup too.
    const again = [line({ billed: 25.5 })];
    expect(await store().importBatches([batchOf(again)])).toMatchObject({ rowsDeleted: 3, rowsInserted: 1 });
    await expectHolds(store(), again);
  });

  it('keeps other accounts, periods and sources when replacing one', async () => {
    const other = [line({ billingAccount: '222', billed: 5, effective: 5 })];
    const october = [line({ day: '2026-10-30', billingPeriod: '2026-10', billed: 1.1, effective: 1.1 })];
    const api = [line({ team: 'cv', billed: 0.7, effective: 0.7 })];
    await store().importBatches([batchOf([line()])]);
    await store().importBatches([batchOf(other, { billingAccounts: ['222'] }), batchOf(october, { billingPeriods: ['2026-10'] })]);
    await store().importBatches([batchOf(api, { source: 'aws', billingAccounts: undefined })]);
    const replaced = [line({ billed: 2, effective: 2 })];
    const summary = await store().importBatches([batchOf(replaced)]);
    expect(summary).toEqual({ rowsDeleted: 1, rowsInserted: 1, billingPeriods: ['2026-11'], replaced: 'period', replacedParts: [] });
    await expectHolds(store(), [...replaced, ...other, ...october, ...api]);
  });

  it('replaces every account of a period when the scope names none', async () => {
    await store().importBatches([batchOf([line()]), batchOf([line({ billingAccount: '222' })], { billingAccounts: ['222'] })]);
    const summary = await store().importBatches([batchOf([line({ team: 'cv' })], { billingAccounts: undefined })]);
    expect(summary).toMatchObject({ rowsDeleted: 2, rowsInserted: 1 });
    await expectHolds(store(), [line({ team: 'cv' })]);
  });

  it('replaces only the days an API pull read again, of its own source', async () => {
    const days = { start: '2026-11-02', end: '2026-11-05' };
    const file = [line({ day: '2026-11-03' })];
    await store().importBatches([batchOf(file)]);
    const pulled = [
      line({ day: '2026-11-01' }),
      line({ day: '2026-11-02', team: 'b' }),
      line({ day: '2026-11-04', team: 'c' }),
      line({ day: '2026-11-05' }),
    ];
    await store().importBatches([batchOf(pulled, { source: 'aws', billingAccounts: undefined })]);
    const again = [line({ day: '2026-11-03', team: 'b', billed: 1, effective: 1 })];
    const summary = await store().importBatches([batchOf(again, { source: 'aws', billingAccounts: undefined, days })]);
    expect(summary).toMatchObject({ rowsDeleted: 2, rowsInserted: 1, replaced: 'period' });
    await expectHolds(store(), [...file, pulled[0]!, pulled[3]!, ...again]);
  });

  it('empties the scope of an import without rows, keeping the other accounts', async () => {
    const other = [line({ billingAccount: '222', billed: 5, effective: 5 })];
    await store().importBatches([batchOf([line(), line({ day: '2026-11-04', team: 'cv' })]), batchOf(other, { billingAccounts: ['222'] })]);
    expect(await store().importBatches([batchOf([])])).toMatchObject({ rowsDeleted: 2, rowsInserted: 0 });
    await expectHolds(store(), other);
  });

  it('writes nothing when any row of any batch is invalid', async () => {
    const kept = [line()];
    await store().importBatches([batchOf(kept, {}, '2026-11-04T00:00:00Z')]);
    const broken = line({ currency: null as unknown as string });
    await expect(
      store().importBatches([
        batchOf([line({ team: 'cv' })], { source: 'aws', billingAccounts: undefined }, '2026-11-09T00:00:00Z'),
        batchOf([line({ billed: 99 }), broken], {}, '2026-11-09T00:00:00Z'),
      ]),
    ).rejects.toThrow();
    await expectHolds(store(), kept);
    expect((await store().freshness.list()).map((f) => [f.source, f.dataThrough])).toEqual([['focus', '2026-11-04T00:00:00Z']]);
  });

  it('imports a large batch whole', async () => {
    // Eighths add up exactly in any order: the sums of thousands of rows can be compared to the cent and beyond.
    const rows = Array.from({ length: 12_001 }, (_, i) =>
      line({ day: `2026-11-${String((i % 30) + 1).padStart(2, '0')}`, team: `t${i % 7}`, billed: (i % 13) / 8, effective: (i % 11) / 8 }),
    );
    expect(await store().importBatches([batchOf(rows)])).toMatchObject({ rowsInserted: rows.length });
    expectClose((await store().spend.totals({ period: NOVEMBER }, 'provider'))[0]?.effective, total(rows));
    await expectHolds(store(), rows);
  });

  it('lets one of two imports of the same period at once win whole, never both', async () => {
    // Large enough for both to be under way together on a store shared by several connections.
    const many = (team: string) =>
      Array.from({ length: 3000 }, (_, i) =>
        line({ team, day: `2026-11-${String((i % 28) + 1).padStart(2, '0')}`, billed: 10.25, effective: 9.5 }),
      );
    const a = many('ml');
    const b = many('cv');
    for (let round = 0; round < 3; round++) {
      await Promise.all([store().importBatches([batchOf(a)]), store().importBatches([batchOf(b)])]);
      const teams = (await store().spend.totals({ period: NOVEMBER }, 'team')).map((t) => t.key);
      expect(teams).toHaveLength(1);
      await expectHolds(store(), teams[0] === 'cv' ? b : a);
    }
  });
});

const part = (name: string, exportId = 'export-1', contentHash = `sha-${name}`): ExportPart => ({ exportId, name, contentHash });

/** A batch of file parts of October in account 123: each row points at its part. */
function partsBatch(parts: ExportPart[], rowsOfParts: SpendRow[][], extra: Partial<SpendBatch['scope']> = {}): SpendBatch {
  const rows = rowsOfParts.flatMap((rows, i) => rows.map((r) => ({ ...r, part: i })));
  return batchOf(rows, { billingPeriods: ['2026-10'], billingAccounts: ['123'], parts, ...extra }, '2026-10-06T00:00:00Z');
}

const oct = (day: number, effective: number, over: Partial<SpendRow> = {}): SpendRow =>
  line({
    day: `2026-10-${String(day).padStart(2, '0')}`,
    billingPeriod: '2026-10',
    billingAccount: '123',
    billed: effective,
    effective,
    ...over,
  });

const PART_1 = [oct(3, 240), oct(4, 160, { team: 'cv' })];
const PART_2 = [oct(3, 350), oct(5, 250, { team: 'serving', resourceId: 'i-0fff' })];
const strip = (rows: SpendRow[]) => rows.map(({ part: _, ...r }) => r);

describeStores('importing split exports', (store) => {
  it('adds up parts imported one at a time, and replaces a part imported again', async () => {
    const first = await store().importBatches([partsBatch([part('cur-00001.csv')], [PART_1])]);
    const second = await store().importBatches([partsBatch([part('cur-00002.csv')], [PART_2])]);
    expect(first).toEqual({ rowsDeleted: 0, rowsInserted: 2, billingPeriods: ['2026-10'], replaced: 'parts', replacedParts: [] });
    expect(second).toMatchObject({ replaced: 'parts', rowsDeleted: 0, replacedParts: [] });
    await expectHolds(store(), [...PART_1, ...PART_2]);

    const again = await store().importBatches([partsBatch([part('cur-00002.csv')], [PART_2])]);
    expect(again).toEqual({
      rowsDeleted: 2,
      rowsInserted: 2,
      billingPeriods: ['2026-10'],
      replaced: 'parts',
      replacedParts: ['cur-00002.csv'],
    });
    await expectHolds(store(), [...PART_1, ...PART_2]);
  });

  it('replaces the same content under another name, and a file of the same name with new content', async () => {
    await store().importBatches([partsBatch([part('a.csv'), part('b.csv')], [PART_1, PART_2])]);
    const renamed = await store().importBatches([partsBatch([part('copy-of-a.csv', 'export-2', 'sha-a.csv')], [PART_1])]);
    expect(renamed.replacedParts).toEqual(['a.csv']);
    const corrected = PART_2.map((r) => ({ ...r, billed: 300, effective: 300 }));
    const redelivered = await store().importBatches([partsBatch([part('b.csv', 'export-1', 'sha-new')], [corrected])]);
    expect(redelivered).toMatchObject({ rowsDeleted: 2, replacedParts: ['b.csv'] });
    await expectHolds(store(), [...PART_1, ...corrected]);
  });

  it('replaces the parts of an export imported whole that are not imported again', async () => {
    await store().importBatches([partsBatch([part('x-1.csv', 'aws-export:x'), part('x-2.csv', 'aws-export:x')], [PART_1, PART_2])]);
    // The export again, now as one file holding every line.
    const merged = [...PART_1, ...PART_2].map((r) => ({ ...r, billed: r.billed * 0.9, effective: r.effective * 0.9 }));
    const whole = await store().importBatches([
      partsBatch([part('x-1.csv', 'aws-export:x', 'sha-x1-new')], [merged], { wholeExports: ['aws-export:x'] }),
    ]);
    expect(whole).toMatchObject({ rowsDeleted: 4, rowsInserted: 4, replacedParts: ['x-1.csv', 'x-2.csv'] });
    await expectHolds(store(), strip(merged));
  });

  it('replaces rows of file imports from before parts were tracked, in the scope accounts only', async () => {
    const legacy = [oct(3, 100), oct(4, 50, { billingAccount: '999' })];
    await store().importBatches([batchOf(legacy, { billingPeriods: ['2026-10'], billingAccounts: ['123', '999'] })]);
    const summary = await store().importBatches([partsBatch([part('new.csv')], [PART_1])]);
    expect(summary).toMatchObject({ rowsDeleted: 1, replacedParts: [] });
    await expectHolds(store(), [legacy[1]!, ...PART_1]);
  });

  it('refuses a part that would shrink the month by more than half, with both figures, and writes nothing', async () => {
    const at = new Date('2026-11-01T00:00:00Z');
    await store().importBatches([partsBatch([part('month.csv')], [[...PART_1, ...PART_2]])], at);
    const freshness = await store().freshness.list();
    await store().freshness.recordFailure('focus', 'earlier failure', at);
    const failures = await store().freshness.failures();

    const tiny = [oct(9, 10)];
    const error = await store()
      .importBatches([partsBatch([part('month.csv', 'export-1', 'sha-small')], [tiny])], new Date('2026-11-02T00:00:00Z'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).code).toBe('burnrate_import_shrinks');
    const was = total([...PART_1, ...PART_2]).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect((error as BurnrateError).message).toContain(`billing period 2026-10 of account 123: ${was} USD before, 10.00 USD after`);
    await expectHolds(store(), [...PART_1, ...PART_2]);
    expect(await store().freshness.list()).toEqual(freshness);
    expect(await store().freshness.failures()).toEqual(failures);

    // Asked for explicitly, it replaces the whole period.
    const summary = await store().importBatches([partsBatch([part('month.csv', 'export-1', 'sha-small')], [tiny])], undefined, {
      replacePeriod: true,
    });
    expect(summary).toEqual({ rowsDeleted: 4, rowsInserted: 1, billingPeriods: ['2026-10'], replaced: 'period', replacedParts: [] });
    await expectHolds(store(), tiny);
  });

  it('lets a part shrink a month by less than half', async () => {
    await store().importBatches([partsBatch([part('a.csv'), part('b.csv')], [PART_1, PART_2])]);
    const smaller = PART_2.map((r) => ({ ...r, billed: r.billed * 0.6, effective: r.effective * 0.6 }));
    await store().importBatches([partsBatch([part('b.csv', 'export-1', 'sha-b2')], [smaller])]);
    await expectHolds(store(), [...PART_1, ...smaller]);
  });
});
