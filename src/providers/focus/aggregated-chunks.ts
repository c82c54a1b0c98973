import type { DuckDBConnection } from '@duckdb/node-api';
import type { SpendRow } from '../../domain/spend.js';
import type { PullContext } from '../../ports/pull-context.js';
import { spendRowOf, type AggregatedSpendRow } from '../aggregated-spend-row.js';
import { TEXT_COLUMNS } from './focus-sql.js';

// The aggregation's result read chunk by chunk (DuckDB's 2,048 rows at a time), each row turned
// into its SpendRow once: no table of DuckDB values, no row object per result row, no copy of it;
// a row's texts arrive as one JSON array (focus-sql.ts TEXT_COLUMNS).
// What validation and the batch's scope need (problem counts, periods, accounts, freshness) is
// tallied on the way.

/** One row of the aggregation query (focus-sql.ts): the spend row's columns and what rides along. */
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

/** The aggregated rows as spend rows, and what was counted while reading them. */
export interface AggregatedSpend {
  rows: SpendRow[];
  /** Values that could not be parsed, and currencies outside ISO 4217. */
  problems: number;
  /** Cost lines above the ceiling. */
  overCeiling: number;
  billingPeriods: string[];
  billingAccounts: string[];
  /** The latest usage charge period end (epoch ms), null without usage. */
  usageThrough: number | null;
  /** The latest charge period start (epoch ms), null without rows. */
  latestStart: number | null;
}

/**
 * Runs the aggregation query and reads its result chunk by chunk into spend rows. `whenGrouped` is
 * called once DuckDB has grouped the lines, before the first chunk is read.
 */
export async function readAggregatedSpend(
  connection: DuckDBConnection,
  sql: string,
  ctx: Pick<PullContext, 'resolveTeam'>,
  whenGrouped: () => void = () => {},
): Promise<AggregatedSpend> {
  // The stream is ready once every grouping has run: only the spreading over days is left to stream.
  const result = await connection.stream(sql);
  whenGrouped();
  const names = result.columnNames();
  const textsAt = names.indexOf('texts');
  const numbers = names.map((name, at) => ({ name, at })).filter((c) => c.at !== textsAt);
  const out: AggregatedSpend = {
    rows: [],
    problems: 0,
    overCeiling: 0,
    billingPeriods: [],
    billingAccounts: [],
    usageThrough: null,
    latestStart: null,
  };
  const periods = new Set<string>();
  const accounts = new Set<string>();
  // One record refilled per row: spendRowOf reads it and builds the row that is kept.
  const view: Record<string, unknown> = {};
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    // Besides the texts, the query returns only INTEGER and DOUBLE columns, whose DuckDB values are JS numbers.
    const texts = chunk.getColumnVector(textsAt);
    const vectors = numbers.map((c) => chunk.getColumnVector(c.at));
    for (let r = 0; r < chunk.rowCount; r++) {
      const text = JSON.parse(texts.getItem(r) as string) as (string | null)[];
      for (let c = 0; c < TEXT_COLUMNS.length; c++) view[TEXT_COLUMNS[c]!] = text[c];
      for (let c = 0; c < numbers.length; c++) view[numbers[c]!.name] = vectors[c]!.getItem(r);
      const row = view as unknown as AggregatedRow;
      out.problems += row.bad_billed + row.bad_effective + row.bad_charge_start + row.bad_billing_start + row.bad_currency;
      out.overCeiling += row.over_ceiling;
      if (row.usage_through !== null && (out.usageThrough === null || row.usage_through > out.usageThrough))
        out.usageThrough = row.usage_through;
      if (row.latest_start !== null && (out.latestStart === null || row.latest_start > out.latestStart)) out.latestStart = row.latest_start;
      periods.add(row.billing_period!);
      accounts.add(row.account ?? '');
      const spend = spendRowOf(row, ctx);
      spend.part = row.part;
      out.rows.push(spend);
    }
  }
  out.billingPeriods = [...periods].sort();
  out.billingAccounts = [...accounts].sort();
  return out;
}
