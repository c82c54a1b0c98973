import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../../../src/store/store.js';
import { fixtureCents as cents, pullContext, tempDir, writeFocusCsv, type FixtureRow } from './helpers.js';

// Split exports: a month arrives as several part files. Every figure is checked against a plain
// sum, in cents, over the rows the test wrote.

const OCTOBER = { start: '2026-10-01', end: '2026-11-01' };
const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function storedCents(store: Store): Promise<{ billed: number; effective: number; teamDays: number }> {
  const totals = await store.spend.totals({ period: OCTOBER }, 'team');
  const days = await store.spend.dailyByTeam(OCTOBER.start);
  return {
    billed: Math.round(totals.reduce((s, t) => s + t.billed, 0) * 100),
    effective: Math.round(totals.reduce((s, t) => s + t.effective, 0) * 100),
    teamDays: Math.round(days.reduce((s, d) => s + d.effective, 0) * 100),
  };
}

const day = (d: number) => ({
  ChargePeriodStart: `2026-10-${String(d).padStart(2, '0')}T00:00:00Z`,
  ChargePeriodEnd: `2026-10-${String(d).padStart(2, '0')}T01:00:00Z`,
});
const PART_1: FixtureRow[] = [
  { BilledCost: '250.00', EffectiveCost: '240.00', ...day(3) },
  { BilledCost: '150.00', EffectiveCost: '160.00', ...day(4), Tags: '{"team":"cv"}' },
];
const PART_2: FixtureRow[] = [
  // the same day, resource and team as a line of part 1: kept apart, so either part can be replaced alone
  { BilledCost: '350.00', EffectiveCost: '350.00', ...day(3) },
  { BilledCost: '250.00', EffectiveCost: '250.00', ...day(5), ResourceId: 'i-0fff', Tags: '{"team":"serving"}' },
];
const ALL = [...PART_1, ...PART_2];

/** An AWS Data Exports layout: data/ and metadata/ folders per billing period, the manifest listing S3 URIs. */
function awsExport(name: string, parts: FixtureRow[][]): { manifest: string; files: string[] } {
  const root = tmp.path(name);
  const data = join(root, 'data', 'BILLING_PERIOD=2026-10');
  const metadata = join(root, 'metadata', 'BILLING_PERIOD=2026-10');
  mkdirSync(data, { recursive: true });
  mkdirSync(metadata, { recursive: true });
  const files = parts.map((rows, i) => writeFocusCsv(join(data, `${name}-0000${i + 1}.csv`), rows));
  const manifest = join(metadata, `${name}-Manifest.json`);
  writeFileSync(
    manifest,
    JSON.stringify({
      executionId: '0f5e0b3c-1111-2222-3333-444455556666',
      exportArn: `arn:aws:bcm-data-exports:us-east-1:123456789012:export/${name}-abc`,
      dataFiles: files.map((_, i) => `s3://billing-bucket/exports/${name}/data/BILLING_PERIOD=2026-10/${name}-0000${i + 1}.csv`),
    }),
  );
  return { manifest, files };
}

describe('importing split exports', () => {
  it('adds up two parts of one month imported one at a time', async () => {
    const store = openStore(':memory:');
    const ctx = pullContext();
    const first = await store.importBatches([await readFocusFiles([writeFocusCsv(tmp.path('cur-00001.csv'), PART_1)], ctx)]);
    const second = await store.importBatches([await readFocusFiles([writeFocusCsv(tmp.path('cur-00002.csv'), PART_2)], ctx)]);
    expect(first).toMatchObject({ replaced: 'parts', rowsDeleted: 0 });
    expect(second).toMatchObject({ replaced: 'parts', rowsDeleted: 0, replacedParts: [] });
    expect(await storedCents(store)).toEqual({
      billed: cents(ALL, 'BilledCost'),
      effective: cents(ALL, 'EffectiveCost'),
      teamDays: cents(ALL, 'EffectiveCost'),
    });
    await store.close();
  });

  it('re-importing a part replaces only that part: the total stays the same', async () => {
    const store = openStore(':memory:');
    const ctx = pullContext();
    const one = writeFocusCsv(tmp.path('again-00001.csv'), PART_1);
    const two = writeFocusCsv(tmp.path('again-00002.csv'), PART_2);
    await store.importBatches([await readFocusFiles([one], ctx)]);
    await store.importBatches([await readFocusFiles([two], ctx)]);
    const again = await store.importBatches([await readFocusFiles([two], ctx)]);
    expect(again).toMatchObject({ replaced: 'parts', rowsDeleted: 2, rowsInserted: 2, replacedParts: ['again-00002.csv'] });
    // the same content under a new name, together with the other part: still counted once
    const copy = tmp.path('copy-of-00001.csv');
    writeFileSync(copy, readFileSync(one));
    await store.importBatches([await readFocusFiles([copy, two], ctx)]);
    expect(await storedCents(store)).toEqual({
      billed: cents(ALL, 'BilledCost'),
      effective: cents(ALL, 'EffectiveCost'),
      teamDays: cents(ALL, 'EffectiveCost'),
    });
    await store.close();
  });

  it('gives the same totals for a manifest-listed export imported whole and part by part', async () => {
    const { manifest, files } = awsExport('focus-monthly', [PART_1, PART_2]);
    const expected = { billed: cents(ALL, 'BilledCost'), effective: cents(ALL, 'EffectiveCost'), teamDays: cents(ALL, 'EffectiveCost') };

    const whole = openStore(':memory:');
    const batch = await readFocusFiles([manifest], pullContext());
    expect(batch.scope.parts?.map((p) => p.name)).toEqual(['focus-monthly-00001.csv', 'focus-monthly-00002.csv']);
    expect(batch.scope.wholeExports).toEqual([
      'aws-export:arn:aws:bcm-data-exports:us-east-1:123456789012:export/focus-monthly-abc:2026-10',
    ]);
    await whole.importBatches([batch]);
    expect(await storedCents(whole)).toEqual(expected);

    const byPart = openStore(':memory:');
    for (const file of files) {
      const part = await readFocusFiles([file], pullContext());
      expect(part.scope.parts?.[0]?.exportId).toBe(batch.scope.parts?.[0]?.exportId); // found through the manifest
      expect(part.scope.wholeExports).toEqual([]);
      await byPart.importBatches([part]);
    }
    expect(await storedCents(byPart)).toEqual(expected);

    // a re-delivered part (same name in the same export, new content) replaces only itself
    const corrected = PART_2.map((row) => ({ ...row, BilledCost: '300.00', EffectiveCost: '300.00' }));
    writeFocusCsv(files[1]!, corrected);
    const summary = await byPart.importBatches([await readFocusFiles([files[1]!], pullContext())]);
    expect(summary.replacedParts).toEqual(['focus-monthly-00002.csv']);
    const now = [...PART_1, ...corrected];
    expect(await storedCents(byPart)).toEqual({
      billed: cents(now, 'BilledCost'),
      effective: cents(now, 'EffectiveCost'),
      teamDays: cents(now, 'EffectiveCost'),
    });
    await whole.close();
    await byPart.close();
  });

  it('refuses a manifest whose data files are missing, naming them', async () => {
    const { manifest } = awsExport('focus-partial', [PART_1]);
    writeFileSync(
      manifest,
      JSON.stringify({
        dataFiles: [
          's3://b/x/focus-partial/data/BILLING_PERIOD=2026-10/focus-partial-00001.csv',
          's3://b/x/focus-partial/data/BILLING_PERIOD=2026-10/focus-partial-00002.csv',
        ],
      }),
    );
    const error = await readFocusFiles([manifest], pullContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).code).toBe('burnrate_focus_missing');
    expect((error as BurnrateError).message).toContain('1 of the data files it lists are missing: focus-partial-00002.csv');
  });

  it('refuses a one-row file that would shrink the month by more than half, with both figures, and changes nothing', async () => {
    const store = openStore(':memory:');
    const ctx = pullContext();
    const month = tmp.path('month.csv');
    await store.importBatches([await readFocusFiles([writeFocusCsv(month, ALL)], ctx)], new Date('2026-11-01T00:00:00Z'));
    const before = await storedCents(store);
    const freshness = await store.freshness.list();

    // a failed export delivered under the same name: one row of 10
    writeFocusCsv(month, [{ BilledCost: '10.00', EffectiveCost: '10.00', ...day(9) }]);
    const error = await store
      .importBatches([await readFocusFiles([month], ctx)], new Date('2026-11-02T00:00:00Z'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    const refused = error as BurnrateError;
    expect(refused.code).toBe('burnrate_import_shrinks');
    const was = (cents(ALL, 'EffectiveCost') / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(refused.message).toContain(`billing period 2026-10 of account 123456789012: ${was} USD before, 10.00 USD after`);
    expect(refused.hint).toContain('--replace-period');
    expect(await storedCents(store)).toEqual(before);
    expect(await store.freshness.list()).toEqual(freshness);

    // asked for explicitly, it replaces the period
    const summary = await store.importBatches([await readFocusFiles([month], ctx)], undefined, { replacePeriod: true });
    expect(summary).toMatchObject({ replaced: 'period', rowsDeleted: 3, rowsInserted: 1 }); // two lines of the 3rd share a daily row
    expect(await storedCents(store)).toEqual({ billed: 1000, effective: 1000, teamDays: 1000 });
    await store.close();
  });
});
