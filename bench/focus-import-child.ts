// One measured run of the FOCUS import benchmark, in its own process so its peak RSS is its own.
//   node dist/bench/focus-import-child.js import|floor <file.csv> <workDir>
// Prints one JSON line: { mode, ms, rows, peakRssMb }.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { teamResolver } from '../src/domain/ownership.js';
import { demoConfig } from '../src/providers/demo/demo-config.js';
import { readFocusFiles } from '../src/providers/focus/read-focus.js';
import { openStore } from '../src/store/sqlite/open-sqlite-store.js';

export interface ChildResult {
  mode: 'import' | 'floor';
  ms: number;
  /** Aggregated rows produced (import: rows stored in SQLite). */
  rows: number;
  peakRssMb: number;
}

const config = demoConfig();
const TAG_KEYS = config.ownership.tagKeys;

/** The real path end to end: DuckDB aggregation, team mapping, SQLite transaction. */
async function runImport(file: string, workDir: string): Promise<number> {
  const dbPath = join(workDir, `bench-import-${process.pid}.db`);
  try {
    const batch = await readFocusFiles([file], { now: new Date(), tagKeys: TAG_KEYS, resolveTeam: teamResolver(config.teams) });
    const store = openStore(dbPath);
    try {
      const summary = await store.importBatches([batch]);
      return summary.rowsInserted;
    } finally {
      await store.close();
    }
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  }
}

/**
 * The floor: DuckDB on its own, written without the project's reader: its typed CSV read
 * (read_csv_auto), the owner tag with json_extract_string, grouped by the same keys as the import
 * (the charge columns included), fully read into JS. No validation, no spreading, no SQLite.
 */
async function runFloor(file: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    const tag = TAG_KEYS.map((key) => `json_extract_string(TRY_CAST(Tags AS JSON), '$.${key.replace(/'/g, "''")}')`).join(', ');
    const reader = await connection.runAndReadAll(`
      SELECT CAST(ChargePeriodStart AS DATE) AS day, strftime(BillingPeriodStart, '%Y-%m') AS billing_period,
        BillingAccountId, ProviderName, SubAccountId, ServiceName, ServiceCategory, ResourceId, ResourceName, RegionId,
        ChargeCategory, ChargeClass, ChargeFrequency, CommitmentDiscountId, PricingCategory, BillingCurrency,
        PublisherName, InvoiceIssuerName, coalesce(${tag}) AS owner_tag,
        sum(BilledCost) AS billed, sum(EffectiveCost) AS effective, sum(ListCost) AS list_cost, sum(ContractedCost) AS contracted_cost,
        max(ChargePeriodEnd) AS data_through
      FROM read_csv_auto('${file.replace(/'/g, "''")}')
      GROUP BY ALL`);
    return reader.getRowObjectsJS().length;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function main(): Promise<void> {
  const [mode, file, workDir = '.'] = process.argv.slice(2);
  if ((mode !== 'import' && mode !== 'floor') || !file) {
    console.error('usage: node dist/bench/focus-import-child.js import|floor <file.csv> [workDir]');
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const rows = mode === 'import' ? await runImport(file, workDir) : await runFloor(file);
  const ms = performance.now() - started;
  const result: ChildResult = { mode, ms: Math.round(ms), rows, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
  console.log(JSON.stringify(result));
}

await main();
