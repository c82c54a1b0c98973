import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { SpendBatch, SpendRow } from '../../domain/spend.js';
import { BurnrateError } from '../../errors.js';
import type { PullContext } from '../port.js';
import { checkFiles } from './check-files.js';
import { runForFile } from './duckdb-errors.js';
import { CHECKS, describeFocusFile, FOCUS_COLUMNS, type FocusFileLayout } from './focus-columns.js';
import { aggregationSql, columnSql, focusReaderSql, sqlIdentifier } from './focus-sql.js';

// Reads FOCUS 1.0-1.2 cost exports (CSV, CSV.gz, Parquet) with DuckDB and pre-aggregates them to
// daily SpendRows in one query; JavaScript only sees the aggregated rows. Everything is read as
// text and parsed in SQL so bad values are found and reported instead of silently becoming NULL.

const FIX_HINT =
  'FOCUS costs must be plain decimal numbers (e.g. 12.50), periods ISO 8601 date-times (e.g. 2026-10-01T00:00:00Z). ' +
  'Fix or re-export the file; nothing was imported.';

/** Reads FOCUS files into one batch that replaces their billing periods and accounts. All or nothing. */
export async function readFocusFiles(files: string[], ctx: PullContext, sourceId = 'focus'): Promise<SpendBatch> {
  const totalBytes = await checkFiles(files);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    const layouts: FocusFileLayout[] = [];
    for (const file of files) layouts.push(await describeFocusFile(connection, file));
    const aggregated = await aggregateFocus(connection, layouts, ctx, totalBytes);
    const problems = countProblems(aggregated);
    if (problems > 0) throw await locateFirstProblem(connection, layouts, problems);
    return toBatch(aggregated, ctx, sourceId);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

interface AggregatedRow {
  day: string | null;
  billing_period: string | null;
  account: string | null;
  provider: string | null;
  sub_account: string | null;
  service: string | null;
  service_category: string | null;
  resource_id: string | null;
  charge_category: string | null;
  pricing_category: string | null;
  currency: string | null;
  owner_tag: string | null;
  experiment: string | null;
  run_id: string | null;
  sweep: string | null;
  billed: number | null;
  effective: number | null;
  data_through: number | null;
  bad_billed: number;
  bad_effective: number;
  bad_charge_start: number;
  bad_billing_start: number;
  bad_currency: number;
}

async function aggregateFocus(connection: DuckDBConnection, layouts: readonly FocusFileLayout[], ctx: PullContext, totalBytes: number): Promise<AggregatedRow[]> {
  const onProgress = ctx.onProgress;
  let timer: NodeJS.Timeout | undefined;
  if (onProgress) {
    await connection.run('SET enable_progress_bar = true');
    await connection.run('SET enable_progress_bar_print = false');
    onProgress(0, totalBytes);
    timer = setInterval(() => {
      const percentage = connection.progress.percentage;
      if (percentage > 0) onProgress(Math.min(totalBytes, Math.round((percentage / 100) * totalBytes)), totalBytes);
    }, 250);
  }
  try {
    const rows = await runForFile(connection, aggregationSql(layouts, ctx.tagKeys, ctx.unitTagKeys), layouts.length === 1 ? layouts[0]!.file : undefined, layouts);
    onProgress?.(totalBytes, totalBytes);
    return rows as unknown as AggregatedRow[];
  } finally {
    if (timer) clearInterval(timer);
  }
}

function countProblems(rows: readonly AggregatedRow[]): number {
  let problems = 0;
  for (const row of rows) problems += row.bad_billed + row.bad_effective + row.bad_charge_start + row.bad_billing_start + row.bad_currency;
  return problems;
}

/**
 * Only on the error path: finds the first bad row (file, data row number, column, value) with a
 * second, single-threaded query per file, so row numbers follow the file order.
 */
async function locateFirstProblem(connection: DuckDBConnection, layouts: readonly FocusFileLayout[], problems: number): Promise<BurnrateError> {
  const inAll = problems > 1 ? ` (${problems.toLocaleString('en-US')} invalid values in all)` : '';
  await connection.run('SET threads = 1');
  for (const layout of layouts) {
    const checks = CHECKS.map((check) => {
      const found = layout.columns[check.alias]!;
      const raw = found.type === 'VARCHAR' ? sqlIdentifier(found.name) : `CAST(${sqlIdentifier(found.name)} AS VARCHAR)`;
      const parsed = columnSql(layout, FOCUS_COLUMNS.find((c) => c.alias === check.alias)!);
      return { ...check, raw, parsed };
    });
    const sql = `
      SELECT data_row, ${checks.map((c) => `raw_${c.alias}, ok_${c.alias}`).join(', ')}
      FROM (
        SELECT row_number() OVER () AS data_row,
          ${checks.map((c) => `${c.raw} AS raw_${c.alias}, ${c.parsed} IS NOT NULL AS ok_${c.alias}`).join(',\n          ')}
        FROM ${focusReaderSql(layout.file)}
      )
      WHERE NOT (${checks.map((c) => `ok_${c.alias}`).join(' AND ')})
      ORDER BY data_row
      LIMIT 1`;
    const [bad] = await runForFile(connection, sql, layout.file);
    if (!bad) continue;
    const check = checks.find((c) => bad[`ok_${c.alias}`] !== true)!;
    const raw = bad[`raw_${check.alias}`];
    const shown = typeof raw === 'string' ? JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw) : null;
    const what =
      shown === null || (typeof raw === 'string' && raw.trim() === '')
        ? `${check.column} is empty`
        : check.problem === 'number'
          ? `${check.column} is not a number (${shown})`
          : check.problem === 'date'
            ? `${check.column} is not an ISO 8601 date-time (${shown})`
            : `${check.column} is invalid (${shown})`;
    return new BurnrateError('burnrate_focus_invalid', `${layout.file} row ${String(bad['data_row'])}: ${what}${inAll}`, FIX_HINT);
  }
  return new BurnrateError('burnrate_focus_invalid', `FOCUS files have ${problems} invalid cost, date or currency values`, FIX_HINT);
}

function toBatch(aggregated: readonly AggregatedRow[], ctx: PullContext, sourceId: string): SpendBatch {
  const periods = new Set<string>();
  const accounts = new Set<string>();
  let dataThrough = -Infinity;
  const rows: SpendRow[] = aggregated.map((row) => {
    const billingPeriod = row.billing_period!;
    periods.add(billingPeriod);
    accounts.add(row.account ?? '');
    if (row.data_through !== null && row.data_through > dataThrough) dataThrough = row.data_through;
    return {
      day: row.day!,
      billingPeriod,
      team: ctx.resolveTeam(row.owner_tag),
      ownerTag: row.owner_tag,
      provider: row.provider ?? '(none)',
      billingAccount: row.account,
      subAccount: row.sub_account,
      service: row.service ?? '(none)',
      serviceCategory: row.service_category,
      resourceId: row.resource_id,
      chargeCategory: row.charge_category ?? '(none)',
      pricingCategory: row.pricing_category,
      currency: row.currency!,
      billed: row.billed ?? 0,
      effective: row.effective ?? 0,
      experiment: row.experiment,
      run: row.run_id,
      sweep: row.sweep,
    };
  });
  return {
    scope: { source: sourceId, billingPeriods: [...periods].sort(), billingAccounts: [...accounts].sort() },
    rows,
    dataThrough: Number.isFinite(dataThrough) ? new Date(dataThrough).toISOString() : null,
  };
}
