import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { SpendBatch, SpendRow } from '../../domain/spend.js';
import { spendRowOf, type AggregatedSpendRow } from '../aggregated-spend-row.js';
import type { PullContext } from '../../ports/pull-context.js';
import { checkFiles } from './check-files.js';
import { runForFile } from './duckdb-errors.js';
import { expandManifests, identifyParts, type ExportFiles } from './export-parts.js';
import { describeFocusFile } from './describe-focus-file.js';
import type { FocusFileLayout } from './focus-columns.js';
import { aggregationSql } from './focus-sql.js';
import { DEFAULT_LINE_COST_CEILING, warnLinesAboveCeiling } from './line-ceiling.js';
import { locateFirstProblem } from './locate-problem.js';

// Reads FOCUS 1.0-1.2 cost exports (CSV, CSV.gz, Parquet) with DuckDB and pre-aggregates them to
// daily SpendRows in one query; JavaScript only sees the aggregated rows. Everything is read as
// text and parsed in SQL so bad values are found and reported instead of silently becoming NULL.

export interface FocusReadOptions {
  /** The export of the files no AWS manifest lists; by default the set of files read together. */
  exportId?: string | undefined;
  /** Cost lines above this amount, in their own currency, are imported with a warning naming them. */
  lineCostCeiling?: number | undefined;
  /** Provider columns (x_…) kept as dimensions of the rows. */
  dimensions?: readonly string[] | undefined;
}

/** A batch of export parts, and what looked wrong without being refused. */
export interface FocusBatch extends SpendBatch {
  warnings: string[];
}

/**
 * Reads FOCUS files (or the files an AWS Data Exports manifest lists) into one batch of export
 * parts: stored, it replaces only the earlier rows of the same parts. All or nothing.
 */
export async function readFocusFiles(
  inputs: string[],
  ctx: PullContext,
  sourceId = 'focus',
  options: FocusReadOptions = {},
): Promise<FocusBatch> {
  const expanded = await expandManifests(inputs);
  const totalBytes = await checkFiles(expanded.files);
  // Hashing the files (which part of which export each is) runs while DuckDB reads them: it needs
  // the main thread, DuckDB's work is on its own threads.
  const identifying = identifyParts(expanded, options.exportId);
  identifying.catch(() => undefined); // awaited below; until then a failure must not be "unhandled"
  const ceiling = options.lineCostCeiling ?? DEFAULT_LINE_COST_CEILING;
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    const layouts: FocusFileLayout[] = [];
    for (const file of expanded.files) layouts.push(await describeFocusFile(connection, file, options.dimensions));
    const aggregated = await aggregateFocus(connection, layouts, ctx, totalBytes, ceiling);
    const exportFiles = await identifying;
    const problems = countProblems(aggregated);
    if (problems > 0) throw await locateFirstProblem(connection, layouts, problems);
    const overCeiling = aggregated.reduce((sum, row) => sum + row.over_ceiling, 0);
    const warnings = overCeiling > 0 ? await warnLinesAboveCeiling(connection, layouts, ceiling, overCeiling) : [];
    return { ...toBatch(aggregated, ctx, sourceId, exportFiles), warnings };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

interface AggregatedRow extends AggregatedSpendRow {
  part: number;
  /** The latest usage charge period end of the group (on its first day only). */
  usage_through: number | null;
  /** The latest charge period start of the group (on its first day only). */
  latest_start: number | null;
  bad_billed: number;
  bad_effective: number;
  bad_charge_start: number;
  bad_billing_start: number;
  bad_currency: number;
  over_ceiling: number;
}

async function aggregateFocus(
  connection: DuckDBConnection,
  layouts: readonly FocusFileLayout[],
  ctx: PullContext,
  totalBytes: number,
  ceiling: number,
): Promise<AggregatedRow[]> {
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
    const rows = await runForFile(
      connection,
      aggregationSql(layouts, ctx.tagKeys, ctx.unitTagKeys, ceiling),
      layouts.length === 1 ? layouts[0]!.file : undefined,
      layouts,
      true,
    );
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

function toBatch(aggregated: readonly AggregatedRow[], ctx: PullContext, sourceId: string, exportFiles: ExportFiles): SpendBatch {
  const periods = new Set<string>();
  const accounts = new Set<string>();
  let usageThrough = -Infinity;
  let latestStart = -Infinity;
  const rows: SpendRow[] = aggregated.map((row) => {
    const billingPeriod = row.billing_period!;
    periods.add(billingPeriod);
    accounts.add(row.account ?? '');
    if (row.usage_through !== null && row.usage_through > usageThrough) usageThrough = row.usage_through;
    if (row.latest_start !== null && row.latest_start > latestStart) latestStart = row.latest_start;
    return { ...spendRowOf(row, ctx), part: row.part };
  });
  return {
    scope: {
      source: sourceId,
      billingPeriods: [...periods].sort(),
      billingAccounts: [...accounts].sort(),
      parts: exportFiles.parts,
      wholeExports: exportFiles.wholeExports,
    },
    rows,
    // How far the usage reaches; fees and purchases billed ahead say nothing about it. A file of
    // fees only is as fresh as its latest charge start.
    dataThrough: Number.isFinite(usageThrough)
      ? new Date(usageThrough).toISOString()
      : Number.isFinite(latestStart)
        ? new Date(latestStart).toISOString()
        : null,
  };
}
