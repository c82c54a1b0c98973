import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { SpendBatch } from '../../domain/spend.js';
import type { PullContext } from '../../ports/pull-context.js';
import { readAggregatedSpend, type AggregatedSpend } from './aggregated-chunks.js';
import { checkFiles } from './check-files.js';
import { focusReadError } from './duckdb-errors.js';
import { expandManifests, identifyParts, type ExportFiles } from './export-parts.js';
import { describeFocusFile } from './describe-focus-file.js';
import { readPodSplits } from './cur-pod-split.js';
import type { FocusFileLayout } from './focus-columns.js';
import { aggregationSql } from './focus-sql.js';
import { DEFAULT_LINE_COST_CEILING, warnLinesAboveCeiling } from './line-ceiling.js';
import { locateFirstProblem } from './locate-problem.js';

// Reads FOCUS 1.0-1.2 cost exports (CSV, CSV.gz, Parquet) with DuckDB and pre-aggregates them to
// daily SpendRows in one query; JavaScript only sees the aggregated rows, read chunk by chunk. Everything is read as
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
  // Hashing the files (which part of which export each is) runs on a worker thread once DuckDB has
  // grouped them: while DuckDB reads, it uses every core; while the result is turned into spend rows
  // on this thread, one is free.
  let identifying: Promise<ExportFiles> | undefined;
  const identify = (): Promise<ExportFiles> => {
    identifying ??= identifyParts(expanded, options.exportId);
    identifying.catch(() => undefined); // awaited below; until then a failure must not be "unhandled"
    return identifying;
  };
  const ceiling = options.lineCostCeiling ?? DEFAULT_LINE_COST_CEILING;
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    const layouts: FocusFileLayout[] = [];
    for (const file of expanded.files) layouts.push(await describeFocusFile(connection, file, options.dimensions));
    const aggregated = await aggregateFocus(connection, layouts, ctx, totalBytes, ceiling, identify);
    const exportFiles = await identify();
    if (aggregated.problems > 0) throw await locateFirstProblem(connection, layouts, aggregated.problems);
    const { overCeiling } = aggregated;
    const warnings = overCeiling > 0 ? await warnLinesAboveCeiling(connection, layouts, ceiling, overCeiling) : [];
    // A CUR's pod split rides with its rows; an import of other files leaves the stored split alone.
    const podSplits = layouts.some((l) => l.reader) ? { podSplits: await readPodSplits(connection, layouts) } : {};
    return { ...toBatch(aggregated, sourceId, exportFiles), ...podSplits, warnings };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function aggregateFocus(
  connection: DuckDBConnection,
  layouts: readonly FocusFileLayout[],
  ctx: PullContext,
  totalBytes: number,
  ceiling: number,
  whenGrouped: () => void,
): Promise<AggregatedSpend> {
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
    const sql = aggregationSql(layouts, ctx.tagKeys, ctx.unitTagKeys, ceiling);
    const aggregated = await readAggregatedSpend(connection, sql, ctx, whenGrouped);
    onProgress?.(totalBytes, totalBytes);
    return aggregated;
  } catch (error) {
    throw focusReadError(error, layouts.length === 1 ? layouts[0]!.file : undefined, layouts);
  } finally {
    if (timer) clearInterval(timer);
  }
}

function toBatch(aggregated: AggregatedSpend, sourceId: string, exportFiles: ExportFiles): SpendBatch {
  const { usageThrough, latestStart } = aggregated;
  return {
    scope: {
      source: sourceId,
      billingPeriods: aggregated.billingPeriods,
      billingAccounts: aggregated.billingAccounts,
      parts: exportFiles.parts,
      wholeExports: exportFiles.wholeExports,
    },
    rows: aggregated.rows,
    // How far the usage reaches; fees and purchases billed ahead say nothing about it. A file of
    // fees only is as fresh as its latest charge start.
    dataThrough:
      usageThrough !== null ? new Date(usageThrough).toISOString() : latestStart !== null ? new Date(latestStart).toISOString() : null,
  };
}
