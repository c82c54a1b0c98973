import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFocusCsv } from '../../../scripts/generate-focus.js';
import { mulberry32 } from '../../../src/providers/demo/random.js';
import { ownerTagOf } from '../../../src/domain/ownership.js';
import { UNMAPPED, UNTAGGED, type SpendBatch, type SpendRow } from '../../../src/domain/spend.js';
import { BurnrateError } from '../../../src/domain/errors.js';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../../../src/store/store.js';
import { focusCsv, HEADER, HOURS_HEADER, pullContext, tempDir, writeFocusCsv } from './helpers.js';

const OCTOBER = { start: '2026-10-01', end: '2026-11-01' };
const SPEC_EXAMPLES = decodeURIComponent(new URL('../../fixtures/focus/spec_examples_v1.2', import.meta.url).pathname);

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function sumBy(
  rows: readonly SpendRow[],
  key: (row: SpendRow) => string,
  value: (row: SpendRow) => number = (r) => r.billed,
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + value(row));
  return totals;
}

async function rejection(promise: Promise<unknown>): Promise<BurnrateError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the import to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BurnrateError);
  return error as BurnrateError;
}

describe('readFocusFiles: aggregation', () => {
  it('pre-aggregates hourly charges to exact daily rows per resource, UTC day and billing period', async () => {
    const file = writeFocusCsv(tmp.path('daily.csv'), [
      { BilledCost: '0.1', EffectiveCost: '0.1' },
      { BilledCost: '0.2', EffectiveCost: '0.15', ChargePeriodStart: '2026-10-01T05:00:00Z', ChargePeriodEnd: '2026-10-01T06:00:00Z' },
      // 23:30 at UTC-2 is 01:30 UTC on the 2nd
      {
        BilledCost: '1.25',
        EffectiveCost: '1.25',
        ChargePeriodStart: '2026-10-01T23:30:00-02:00',
        ChargePeriodEnd: '2026-10-02T02:30:00Z',
      },
      {
        BilledCost: '2',
        EffectiveCost: '2',
        ResourceId: 'i-0def',
        ChargePeriodStart: '2026-10-02T10:00:00Z',
        ChargePeriodEnd: '2026-10-02T11:00:00Z',
      },
      { BilledCost: '-0.05', EffectiveCost: '-0.05', ChargeCategory: 'Credit', PricingCategory: 'NULL', ResourceId: 'NULL' },
      { BilledCost: '0.07', EffectiveCost: '0.07', ChargeCategory: 'Tax', PricingCategory: '', ResourceId: '', Tags: 'NULL' },
      // amounts of 10^8 and more take the 128-bit path; sums stay exact
      { BilledCost: '123456789012.35', EffectiveCost: '0.0000000001', ResourceId: 'commitment', ChargeCategory: 'Purchase' },
      { BilledCost: '0.01', EffectiveCost: '0.0000000002', ResourceId: 'commitment', ChargeCategory: 'Purchase' },
    ]);
    const batch = await readFocusFiles([file], pullContext(), 'focus-test');

    expect(batch.scope).toMatchObject({ source: 'focus-test', billingPeriods: ['2026-10'], billingAccounts: ['123456789012'] });
    expect(batch.scope.parts).toEqual([
      { exportId: expect.stringMatching(/^files:/), name: 'daily.csv', contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(batch.rows.every((r) => r.part === 0)).toBe(true);
    expect(batch.dataThrough).toBe('2026-10-02T11:00:00.000Z');
    const byKey = new Map(batch.rows.map((r) => [`${r.day} ${r.resourceId} ${r.chargeCategory}`, r]));
    expect(batch.rows).toHaveLength(6);
    expect(byKey.get('2026-10-01 commitment Purchase')).toMatchObject({ billed: 123456789012.36, effective: 0.0000000003 });
    expect(byKey.get('2026-10-01 i-0abc Usage')).toMatchObject({
      billed: 0.3,
      effective: 0.25,
      team: 'ml-research',
      ownerTag: 'ml-research',
      billingPeriod: '2026-10',
    });
    expect(byKey.get('2026-10-02 i-0abc Usage')).toMatchObject({ billed: 1.25 });
    expect(byKey.get('2026-10-02 i-0def Usage')).toMatchObject({ billed: 2 });
    expect(byKey.get('2026-10-01 null Credit')).toMatchObject({ billed: -0.05, pricingCategory: null, resourceId: null });
    expect(byKey.get('2026-10-01 null Tax')).toMatchObject({ billed: 0.07, team: UNTAGGED, ownerTag: null, pricingCategory: null });
    expect(byKey.get('2026-10-01 i-0abc Usage')).toMatchObject({
      provider: 'AWS',
      billingAccount: '123456789012',
      subAccount: '210987654321',
      service: 'Amazon Elastic Compute Cloud',
      serviceCategory: 'Compute',
      pricingCategory: 'Standard',
      currency: 'USD',
    });
  });

  it('maps owner tags to teams through messy keys, NULL literals, untagged and unmapped values', async () => {
    const tags: [string, string | null, string][] = [
      // [Tags, expected ownerTag, expected team]
      ['{" Team ":"Research"}', 'Research', 'ml-research'],
      ['{"TEAM":" vision "}', 'vision', 'vision'],
      ['{"user:Team":"cv","env":"prod"}', 'cv', 'vision'],
      ['{"user:team":"serving","team":"LLM"}', 'LLM', 'llm-training'], // tagKeys order wins, not JSON order
      ['{"team":"","user:team":"serving"}', 'serving', 'inference'], // empty counts as absent
      ['{"team":"NULL","user: team":"cv"}', 'cv', 'vision'],
      ['{"team":null}', null, UNTAGGED],
      ['{"team":"growth"}', 'growth', UNMAPPED],
      ['{"t eam":"Data Platform"}', 'Data Platform', UNMAPPED],
      ['{"env":"dev"}', null, UNTAGGED],
      ['{}', null, UNTAGGED],
      ['NULL', null, UNTAGGED],
      ['null', null, UNTAGGED],
      ['', null, UNTAGGED],
      ['{team: not json', null, UNTAGGED],
      ['["team","vision"]', null, UNTAGGED],
      ['{"team":42}', '42', UNMAPPED],
    ];
    const file = writeFocusCsv(
      tmp.path('tags.csv'),
      tags.map(([t], i) => ({ Tags: t, ResourceId: `r-${String(i).padStart(2, '0')}` })),
    );
    const batch = await readFocusFiles([file], pullContext(['team', 'user:team']));
    const byResource = new Map(batch.rows.map((r) => [r.resourceId, r]));
    tags.forEach(([t, ownerTag, team], i) => {
      const row = byResource.get(`r-${String(i).padStart(2, '0')}`);
      expect({ tags: t, ownerTag: row?.ownerTag, team: row?.team }).toEqual({ tags: t, ownerTag, team });
    });
  });

  it('reads Tags stored as a Parquet MAP like JSON', async () => {
    const csv = writeFocusCsv(tmp.path('map-tags.csv'), [{ BilledCost: '2.5' }]);
    const parquet = tmp.path('map-tags.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(
      `COPY (SELECT * REPLACE (MAP {'env': 'prod', ' Team ': 'CV'} AS Tags) FROM read_csv('${csv}', all_varchar = true)) TO '${parquet}' (FORMAT parquet)`,
    );
    connection.closeSync();
    instance.closeSync();
    const [row] = (await readFocusFiles([parquet], pullContext())).rows;
    expect(row).toMatchObject({ billed: 2.5, team: 'vision', ownerTag: 'CV' });
  });

  it('only reads the configured tag keys', async () => {
    const file = writeFocusCsv(tmp.path('keys.csv'), [{ Tags: '{"user:team":"cv"}' }]);
    const [row] = (await readFocusFiles([file], pullContext(['team']))).rows;
    expect(row).toMatchObject({ team: UNTAGGED, ownerTag: null });
  });

  it('accepts case-insensitive column names, ServiceProviderName, and absent optional columns', async () => {
    const header = [
      'billedcost',
      'EFFECTIVECOST',
      'BillingCurrency',
      'BillingPeriodStart',
      'ChargePeriodStart',
      'ChargePeriodEnd',
      'ChargeCategory',
      'ServiceName',
      'ServiceProviderName',
      'BillingAccountId',
    ];
    const text = focusCsv([{ BilledCost: '3.5', EffectiveCost: '3' }], HEADER).split('\n');
    // rebuild with the odd header: same values in the order of `header`
    const values = text[1]!.split(',');
    const pick = (name: string): string => values[HEADER.indexOf(name as (typeof HEADER)[number])] ?? '';
    const row = [
      'BilledCost',
      'EffectiveCost',
      'BillingCurrency',
      'BillingPeriodStart',
      'ChargePeriodStart',
      'ChargePeriodEnd',
      'ChargeCategory',
      'ServiceName',
      'ProviderName',
      'BillingAccountId',
    ].map(pick);
    const file = tmp.path('odd-header.csv');
    writeFileSync(file, `${header.join(',')}\n${row.join(',')}\n`);
    const batch = await readFocusFiles([file], pullContext());
    expect(batch.rows).toEqual([
      expect.objectContaining({
        billed: 3.5,
        effective: 3,
        provider: 'AWS',
        team: UNTAGGED,
        ownerTag: null,
        resourceId: null,
        subAccount: null,
        serviceCategory: null,
        pricingCategory: null,
      }),
    ]);
  });

  it('keeps texts as written: quotes, backslashes, line breaks, accents and emoji in names, ids and tags', async () => {
    const service = 'Café "GPU" \\ Service\nline two';
    const resource = 'i-ü\\"0abc 🚀';
    const owner = 'Ré\\search "🧪"';
    const file = writeFocusCsv(tmp.path('texts.csv'), [
      { ServiceName: service, ResourceId: resource, Tags: JSON.stringify({ team: owner }), SubAccountId: 'ácct\t"1"' },
    ]);
    const batch = await readFocusFiles([file], pullContext());
    expect(batch.rows).toEqual([
      expect.objectContaining({ service, resourceId: resource, ownerTag: owner, subAccount: 'ácct\t"1"', day: '2026-10-01' }),
    ]);
  });

  it('stores the same resource name, region and hours whatever order the lines come in', async () => {
    // One instance renamed and moved mid-day (a bill can give one key two names): every import of the
    // bill keeps one of them (the greatest), and its hours are an exact sum, not one that depends on
    // the order the lines were added in.
    const header = [...HOURS_HEADER, 'ResourceName', 'RegionId'];
    const lines = [
      { ResourceName: 'trainer-old', RegionId: 'us-east-1', ConsumedQuantity: '0.1', ConsumedUnit: 'Hrs' },
      { ResourceName: 'trainer-new', RegionId: 'us-west-2', ConsumedQuantity: '0.2', ConsumedUnit: 'Hrs' },
      { ResourceName: 'trainer-old', RegionId: 'us-east-1', ConsumedQuantity: '1080', ConsumedUnit: 'Seconds' },
    ];
    const read = async (name: string, rows: typeof lines) =>
      (await readFocusFiles([writeFocusCsv(tmp.path(name), rows, header)], pullContext())).rows;
    const [forward, backward] = await Promise.all([read('order-a.csv', lines), read('order-b.csv', [...lines].reverse())]);
    const pick = (rows: readonly SpendRow[]) => rows.map((r) => [r.resourceName, r.region, r.usageHours]);
    expect(pick(forward)).toEqual([['trainer-old', 'us-west-2', 0.6]]);
    expect(pick(backward)).toEqual(pick(forward));
  });

  it('reports progress up to the total', async () => {
    const file = writeFocusCsv(tmp.path('progress.csv'), [{}]);
    const calls: [number, number][] = [];
    await readFocusFiles(
      [file],
      pullContext(undefined, (done, total) => calls.push([done, total])),
    );
    expect(calls.length).toBeGreaterThan(0);
    const [done, total] = calls[calls.length - 1]!;
    expect(done).toBe(total);
    expect(total).toBeGreaterThan(0);
  });

  it('returns an empty batch for a file with a header only', async () => {
    const file = writeFocusCsv(tmp.path('header-only.csv'), []);
    const batch = await readFocusFiles([file], pullContext());
    expect(batch).toMatchObject({
      scope: { source: 'focus', billingPeriods: [], billingAccounts: [] },
      rows: [],
      dataThrough: null,
      warnings: [],
    });
  });
});

// A tiny CSV reader, independent of DuckDB, for the exactness test: quoted fields with "" escapes.
function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) throw new Error(`unterminated quote in ${line}`);
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
    } else {
      const comma = line.indexOf(',', i);
      const end = comma === -1 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end;
    }
    if (i >= line.length) return fields;
    i++; // the comma
    if (i === line.length) {
      fields.push('');
      return fields;
    }
  }
}

/** A decimal string as an exact integer count of 1e-10 units. */
function toUnits(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{0,10}))?$/.exec(text);
  if (!match) throw new Error(`not a plain decimal: ${text}`);
  const units = BigInt(match[2]!) * 10n ** 10n + BigInt((match[3] ?? '').padEnd(10, '0'));
  return match[1] ? -units : units;
}

function unitsToCents(units: bigint): number {
  return Number(units) / 1e10;
}

describe('readFocusFiles: exact totals over a realistic export', () => {
  const csv = tmp.path('generated-20k.csv');
  let batch: SpendBatch;
  const ctx = pullContext(['team', 'user:team']);

  const gz = tmp.path('generated-20k.csv.gz');
  const parquet = tmp.path('generated-20k.parquet');

  beforeAll(async () => {
    await generateFocusCsv(csv, 20_000, 7);
    batch = await readFocusFiles([csv], ctx);
    writeFileSync(gz, gzipSync(readFileSync(csv)));
    // A typed Parquet file like real exports: decimal and double costs, timestamps, string Tags.
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`COPY (
      SELECT * REPLACE (
        CAST(BilledCost AS DECIMAL(38, 10)) AS BilledCost, CAST(EffectiveCost AS DOUBLE) AS EffectiveCost,
        CAST(ChargePeriodStart AS TIMESTAMPTZ) AS ChargePeriodStart, CAST(ChargePeriodEnd AS TIMESTAMP) AS ChargePeriodEnd,
        CAST(BillingPeriodStart AS TIMESTAMPTZ) AS BillingPeriodStart)
      FROM read_csv('${csv}', header = true, all_varchar = true, nullstr = ['NULL', ''])
    ) TO '${parquet}' (FORMAT parquet)`);
    connection.closeSync();
    instance.closeSync();
  });

  it('team totals equal an independent sum of BilledCost and EffectiveCost, to the cent', async () => {
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\n');
    const header = parseCsvLine(lines[0]!);
    const col = (name: string): number => header.indexOf(name);
    const [billedAt, effectiveAt, tagsAt] = [col('BilledCost'), col('EffectiveCost'), col('Tags')];
    const billed = new Map<string, bigint>();
    const effective = new Map<string, bigint>();
    for (const line of lines.slice(1)) {
      const fields = parseCsvLine(line);
      expect(fields).toHaveLength(header.length);
      const rawTags = fields[tagsAt]!;
      let tags: Record<string, unknown> | null = null;
      if (rawTags !== '' && rawTags !== 'NULL') {
        try {
          tags = JSON.parse(rawTags) as Record<string, unknown>;
        } catch {
          tags = null; // not JSON: untagged
        }
      }
      const team = ctx.resolveTeam(ownerTagOf(tags, ctx.tagKeys));
      billed.set(team, (billed.get(team) ?? 0n) + toUnits(fields[billedAt]!));
      effective.set(team, (effective.get(team) ?? 0n) + toUnits(fields[effectiveAt]!));
    }

    const ours = sumBy(batch.rows, (r) => r.team);
    const oursEffective = sumBy(
      batch.rows,
      (r) => r.team,
      (r) => r.effective,
    );
    expect([...ours.keys()].sort()).toEqual([...billed.keys()].sort());
    // the realistic file has every kind of owner
    expect([...billed.keys()].sort()).toEqual(['(unmapped)', '(untagged)', 'inference', 'llm-training', 'ml-research', 'vision']);
    for (const [team, units] of billed) {
      expect(Math.abs(ours.get(team)! - unitsToCents(units)), `billed of ${team}`).toBeLessThan(0.005);
      expect(Math.abs(oursEffective.get(team)! - unitsToCents(effective.get(team)!)), `effective of ${team}`).toBeLessThan(0.005);
    }

    // and the same through the store
    const store = openStore(':memory:');
    await store.importBatches([batch]);
    for (const total of await store.spend.totals({ period: OCTOBER }, 'team')) {
      expect(Math.abs(total.billed - unitsToCents(billed.get(total.key)!)), `stored billed of ${total.key}`).toBeLessThan(0.005);
    }
    await store.close();
  });

  it('reads an aggregated result of several DuckDB chunks (2,048 rows each) whole: the sums above cover every chunk', () => {
    expect(batch.rows.length).toBeGreaterThan(3 * 2048);
  });

  it('keeps the raw owner value of unmapped spend and covers the month day by day', () => {
    const unmapped = new Set(batch.rows.filter((r) => r.team === UNMAPPED).map((r) => r.ownerTag));
    expect([...unmapped].sort()).toEqual(['Data Platform', 'growth']);
    const days = new Set(batch.rows.map((r) => r.day));
    expect(days.size).toBe(31);
    expect(batch.scope.billingPeriods).toEqual(['2026-10']);
    expect(batch.scope.billingAccounts).toHaveLength(3);
    expect(batch.dataThrough).toBe('2026-11-01T00:00:00.000Z');
    expect(new Set(batch.rows.map((r) => r.chargeCategory))).toEqual(new Set(['Usage', 'Tax', 'Credit']));
  });

  it('gives the same totals from CSV, CSV.gz and Parquet', async () => {
    const summary = (b: SpendBatch) => ({
      rows: b.rows.length,
      scope: { periods: b.scope.billingPeriods, accounts: b.scope.billingAccounts },
      dataThrough: b.dataThrough,
      teams: [...sumBy(b.rows, (r) => r.team)].map(([team, total]) => [team, total.toFixed(2)]).sort(),
      effective: [
        ...sumBy(
          b.rows,
          (r) => r.day,
          (r) => r.effective,
        ),
      ]
        .map(([day, total]) => [day, total.toFixed(2)])
        .sort(),
    });
    const expected = summary(batch);
    expect(summary(await readFocusFiles([gz], ctx))).toEqual(expected);
    expect(summary(await readFocusFiles([parquet], ctx))).toEqual(expected);
  });

  it('reads several files of mixed formats in one import', async () => {
    const all = await readFocusFiles([csv, gz, parquet], ctx);
    const single = sumBy(batch.rows, (r) => r.team);
    for (const [team, total] of sumBy(all.rows, (r) => r.team)) expect(total).toBeCloseTo(3 * single.get(team)!, 6);
    // rows stay apart per file (each part is replaced on its own later)
    expect(all.rows).toHaveLength(3 * batch.rows.length);
    expect(new Set(all.rows.map((r) => r.part))).toEqual(new Set([0, 1, 2]));
  });
});

describe('readFocusFiles: into the store', () => {
  it('re-importing the same file replaces it instead of doubling; --replace-period replaces the period', async () => {
    const first = writeFocusCsv(tmp.path('reimport-1.csv'), [{ BilledCost: '10' }, { BilledCost: '5', Tags: '{"team":"cv"}' }]);
    const second = writeFocusCsv(tmp.path('reimport-2.csv'), [{ BilledCost: '12' }, { BilledCost: '5', Tags: '{"team":"cv"}' }]);
    const store = openStore(':memory:');
    const ctx = pullContext();
    const a = await store.importBatches([await readFocusFiles([first], ctx)]);
    const b = await store.importBatches([await readFocusFiles([first], ctx)]);
    expect(b.rowsDeleted).toBe(a.rowsInserted);
    expect(await store.spend.totals({ period: OCTOBER }, 'team')).toEqual([
      { key: 'ml-research', currency: 'USD', billed: 10, effective: 1 },
      { key: 'vision', currency: 'USD', billed: 5, effective: 1 },
    ]);
    await store.importBatches([await readFocusFiles([second], ctx)], undefined, { replacePeriod: true });
    expect((await store.spend.totals({ period: OCTOBER }, 'team')).map((t) => [t.key, t.billed])).toEqual([
      ['ml-research', 12],
      ['vision', 5],
    ]);
    await store.close();
  });

  it('a billing period of another account is left alone', async () => {
    const store = openStore(':memory:');
    const ctx = pullContext();
    await store.importBatches([
      await readFocusFiles([writeFocusCsv(tmp.path('acct-a.csv'), [{ BilledCost: '7', BillingAccountId: 'A' }])], ctx),
    ]);
    await store.importBatches([
      await readFocusFiles([writeFocusCsv(tmp.path('acct-b.csv'), [{ BilledCost: '3', BillingAccountId: 'B' }])], ctx),
    ]);
    expect((await store.spend.totals({ period: OCTOBER }, 'team')).map((t) => t.billed)).toEqual([10]);
    await store.close();
  });
});

describe('readFocusFiles: bad input fails the whole import with a clear error', () => {
  let store: Store;
  let before: unknown;

  beforeAll(async () => {
    store = openStore(':memory:');
    await store.importBatches([await readFocusFiles([writeFocusCsv(tmp.path('good.csv'), [{ BilledCost: '100' }])], pullContext())]);
    before = await store.spend.totals({ period: OCTOBER }, 'team');
  });
  afterAll(() => store.close());

  /** Runs a whole import (read + store) and returns its error; the store must not have changed. */
  async function failedImport(files: string[]): Promise<BurnrateError> {
    const error = await rejection(readFocusFiles(files, pullContext()).then((batch) => store.importBatches([batch])));
    expect(await store.spend.totals({ period: OCTOBER }, 'team')).toEqual(before);
    expect(await store.isEmpty()).toBe(false);
    return error;
  }

  it('lists every missing column with the file name', async () => {
    const header = HEADER.filter((c) => !['BillingCurrency', 'ServiceName', 'ProviderName'].includes(c));
    const file = writeFocusCsv(tmp.path('missing-columns.csv'), [{}], header);
    const error = await failedImport([file]);
    expect(error.code).toBe('burnrate_focus_invalid');
    expect(error.message).toBe(`${file}: missing FOCUS columns BillingCurrency, ServiceName, ProviderName (or ServiceProviderName)`);
    expect(error.hint).toMatch(/FOCUS 1\.0, 1\.1 or 1\.2/);
  });

  it('names the file, data row and column of a non-numeric cost', async () => {
    const good = writeFocusCsv(tmp.path('ok-first.csv'), [{}, {}]);
    const file = writeFocusCsv(tmp.path('bad-cost.csv'), [{}, {}, { BilledCost: '12,50x' }, {}, { BilledCost: 'abc' }]);
    const error = await failedImport([good, file]);
    expect(error.code).toBe('burnrate_focus_invalid');
    expect(error.message).toBe(`${file} row 3: BilledCost is not a number ("12,50x") (2 invalid values in all)`);
    expect(error.hint).toMatch(/nothing was imported/);
  });

  it('reports an empty cost or currency', async () => {
    const file = writeFocusCsv(tmp.path('empty-cost.csv'), [{}, { EffectiveCost: '' }]);
    expect((await failedImport([file])).message).toBe(`${file} row 2: EffectiveCost is empty`);
    const nullCost = writeFocusCsv(tmp.path('null-cost.csv'), [{ BilledCost: 'NULL' }]);
    expect((await failedImport([nullCost])).message).toBe(`${nullCost} row 1: BilledCost is empty`);
    const currency = writeFocusCsv(tmp.path('no-currency.csv'), [{}, {}, {}, { BillingCurrency: '' }]);
    expect((await failedImport([currency])).message).toBe(`${currency} row 4: BillingCurrency is empty`);
  });

  it('reports a date that is not ISO 8601', async () => {
    const file = writeFocusCsv(tmp.path('bad-date.csv'), [{ ChargePeriodStart: '10/01/2026' }]);
    expect((await failedImport([file])).message).toBe(`${file} row 1: ChargePeriodStart is not an ISO 8601 date-time ("10/01/2026")`);
    const period = writeFocusCsv(tmp.path('bad-period.csv'), [{}, {}, { BillingPeriodStart: '2026-13-01' }]);
    expect((await failedImport([period])).message).toBe(`${period} row 3: BillingPeriodStart is not an ISO 8601 date-time ("2026-13-01")`);
  });

  it('reports an empty file', async () => {
    const file = tmp.path('empty.csv');
    writeFileSync(file, '');
    const error = await failedImport([file]);
    expect(error.code).toBe('burnrate_focus_invalid');
    expect(error.message).toBe(`${file}: file is empty`);
  });

  it('reports a missing file', async () => {
    const good = writeFocusCsv(tmp.path('exists.csv'), [{}]);
    const error = await failedImport([good, tmp.path('nope/nov.csv')]);
    expect(error.code).toBe('burnrate_focus_missing');
    expect(error.message).toBe(`FOCUS file not found: ${tmp.path('nope/nov.csv')}`);
  });

  it('reports garbage and binary files', async () => {
    const random = mulberry32(3);
    const bytes = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256)));
    const expected: Record<string, string> = {
      'garbage.csv': 'binary data, not a CSV text file',
      'garbage.csv.gz': 'cannot read as FOCUS CSV: not gzip-compressed, although its name ends in .gz',
      'garbage.parquet': 'cannot read as Parquet: not a Parquet file',
    };
    for (const [name, message] of Object.entries(expected)) {
      const file = tmp.path(name);
      writeFileSync(file, bytes);
      const error = await failedImport([file]);
      expect(error.code).toBe('burnrate_focus_invalid');
      expect(error.message).toBe(`${file}: ${message}`);
    }
    const prose = tmp.path('prose.csv');
    writeFileSync(prose, 'Dear customer,\nplease find attached your invoice.\n');
    expect((await failedImport([prose])).message).toBe(
      `${prose}: cannot read as FOCUS CSV: not comma-separated UTF-8 text with the same number of columns on every line`,
    );
  });

  it('reports a ragged line far into a file, with its line number', async () => {
    const good = writeFocusCsv(tmp.path('fine.csv'), [{}]);
    const ragged = tmp.path('ragged.csv');
    writeFileSync(ragged, focusCsv(Array.from({ length: 25_000 }, () => ({}))) + '1,2,3\n');
    const error = await failedImport([good, ragged]);
    expect(error.message).toBe(`${ragged}: cannot read as FOCUS CSV: line 25002 has 3 columns, the header 15`);
  });
});

describe('readFocusFiles: FOCUS 1.2 specification examples', () => {
  it('lists exactly the columns a commitment discount example lacks', async () => {
    const file = `${SPEC_EXAMPLES}/commitment_discount_flexibility__one_hundred_percent_utilization_with_commitment_discount_flexibility_with_1_resource.csv`;
    const error = await rejection(readFocusFiles([file], pullContext()));
    expect(error.message).toBe(
      `${file}: missing FOCUS columns BillingCurrency, ServiceName, ProviderName (or ServiceProviderName), BillingAccountId`,
    );
  });

  it("reads ConsumedQuantity in hours: the commitment example's VM costs its effective cost per hour it ran", async () => {
    const original = readFileSync(
      `${SPEC_EXAMPLES}/commitment_discount_flexibility__one_hundred_percent_utilization_with_commitment_discount_flexibility_with_1_resource.csv`,
      'utf8',
    );
    // The columns the example leaves out, with one value for every row.
    const [header, ...rows] = original.split(/\r?\n/).filter((line) => line.trim() !== '');
    const completed = [
      `${header},BillingCurrency,ServiceName,ProviderName,BillingAccountId`,
      ...rows.map((r) => `${r},USD,Compute,Cloud,acct-1`),
    ];
    const file = tmp.path('commitment-hours.csv');
    writeFileSync(file, completed.join('\n') + '\n');
    const store = openStore(':memory:');
    await store.importBatches([await readFocusFiles([file], pullContext())]);
    const hours = await store.spend.resourceHours('2000-01-01');
    await store.close();
    // Two rows of 1 Hour each: 0.50 covered by the commitment and 2.25 on demand.
    expect(hours).toEqual([{ resourceId: '<my-large-vm-id>', currency: 'USD', period: '2023-01', effective: 2.75, hours: 2 }]);
  });

  it('rejects the M/D/YY dates of a SaaS example (with a byte order mark) instead of misreading them', async () => {
    const file = `${SPEC_EXAMPLES}/saas_examples__spend_agreements__saas_spend_agreements_a2.csv`;
    const error = await rejection(readFocusFiles([file], pullContext()));
    expect(error.message).toBe(`${file} row 1: ChargePeriodStart is not an ISO 8601 date-time ("4/1/25") (26 invalid values in all)`);
    const dollars = `${SPEC_EXAMPLES}/saas_examples__simple_agreements__simple_saas_agreements_a1.csv`;
    expect((await rejection(readFocusFiles([dollars], pullContext()))).message).toMatch(
      /row 1: BilledCost is not a number \("\$10,000\.00 "\)/,
    );
  });

  it('imports the SaaS spend agreement example once its dates are ISO 8601', async () => {
    const original = readFileSync(`${SPEC_EXAMPLES}/saas_examples__spend_agreements__saas_spend_agreements_a2.csv`, 'utf8');
    const iso = original.replace(
      /\b(\d{1,2})\/(\d{1,2})\/(\d{2})\b/g,
      (_, m: string, d: string, y: string) => `20${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}T00:00:00Z`,
    );
    const file = tmp.path('spend-agreement.csv');
    writeFileSync(file, iso);
    const batch = await readFocusFiles([file], pullContext());
    expect(batch.scope.billingPeriods).toEqual([
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
    expect(batch.scope.billingAccounts).toEqual(['000-00-000']);
    // The agreement's charges are spread over the days they cover: the parts add up to the whole (to floating point).
    expect(batch.rows.reduce((sum, r) => sum + r.billed, 0)).toBeCloseTo(1200, 6);
    expect(new Set(batch.rows.map((r) => `${r.provider}/${r.service}/${r.team}`))).toEqual(new Set(['Acme Co/AwesomeDB/(untagged)']));
    // Data freshness comes from usage-based charges only (the last one ends on 1 July 2025); the
    // one-time rows billed later say nothing about how fresh the usage is.
    expect(batch.dataThrough).toBe('2025-07-01T00:00:00.000Z');
  });
});
