import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type AthenaClient,
} from '@aws-sdk/client-athena';
import { explainAwsError } from '../aws-errors.js';
import { queryFailedError, scanLimitError, type QueryPlace } from './athena-errors.js';

/** How one query is run: where, with what limit, and how patiently its state is polled. */
export interface AthenaQueryOptions extends QueryPlace {
  database: string;
  catalog: string;
  /** Stop the query once Athena reports it scanned more than this. */
  maxBytesScanned: number;
  /** Whose credentials, for messages. */
  account: string;
}

/** Result rows by column name (every value text, as Athena gives it; null for SQL NULL), and the bytes scanned. */
export interface AthenaQueryResult {
  rows: Record<string, string | null>[];
  scannedBytes: number;
}

/** The first wait before asking for a query's state; each next one doubles, up to MAX_POLL_MS. */
const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 5000;

/**
 * Runs a query and reads its whole result: StartQueryExecution, GetQueryExecution until the query
 * leaves QUEUED and RUNNING (waits doubling), then GetQueryResults page by page. Athena has no
 * per-query byte cap on StartQueryExecution itself, so the bytes scanned so far are checked at
 * every poll and the query is stopped once over the limit; only a workgroup's per-query cutoff
 * guarantees nothing more is scanned (and billed) between two polls.
 */
export async function runAthenaQuery(client: AthenaClient, sql: string, options: AthenaQueryOptions): Promise<AthenaQueryResult> {
  const explain = (operation: string) => (error: unknown) => {
    throw explainAwsError(error, { service: 'Amazon Athena', permission: `athena:${operation}`, account: options.account });
  };
  const started = await client
    .send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        QueryExecutionContext: { Catalog: options.catalog, Database: options.database },
        WorkGroup: options.workgroup,
        ...(options.outputLocation ? { ResultConfiguration: { OutputLocation: options.outputLocation } } : {}),
      }),
    )
    .catch(explain('StartQueryExecution'));
  const queryId = started.QueryExecutionId!;
  const scannedBytes = await waitForQuery(client, queryId, options, explain);
  return { rows: await readResults(client, queryId, explain), scannedBytes };
}

async function waitForQuery(
  client: AthenaClient,
  queryId: string,
  options: AthenaQueryOptions,
  explain: (operation: string) => (error: unknown) => never,
): Promise<number> {
  let wait = FIRST_POLL_MS;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, MAX_POLL_MS);
    const { QueryExecution: execution } = await client
      .send(new GetQueryExecutionCommand({ QueryExecutionId: queryId }))
      .catch(explain('GetQueryExecution'));
    const state = execution?.Status?.State;
    const scanned = execution?.Statistics?.DataScannedInBytes ?? 0;
    if (state === 'SUCCEEDED') return scanned;
    if (state === 'FAILED' || state === 'CANCELLED') {
      const reason = execution?.Status?.StateChangeReason ?? execution?.Status?.AthenaError?.ErrorMessage;
      throw queryFailedError(state, reason, queryId, options);
    }
    if (scanned > options.maxBytesScanned) {
      // Stopped even if the stop itself fails: the limit's error is what the operator must see.
      await client.send(new StopQueryExecutionCommand({ QueryExecutionId: queryId })).catch(() => undefined);
      throw scanLimitError(scanned, options.maxBytesScanned / 1e9, queryId, options);
    }
  }
}

async function readResults(
  client: AthenaClient,
  queryId: string,
  explain: (operation: string) => (error: unknown) => never,
): Promise<Record<string, string | null>[]> {
  const rows: Record<string, string | null>[] = [];
  let names: string[] | undefined;
  let token: string | undefined;
  do {
    const page = await client
      .send(new GetQueryResultsCommand({ QueryExecutionId: queryId, MaxResults: 1000, NextToken: token }))
      .catch(explain('GetQueryResults'));
    const pageRows = page.ResultSet?.Rows ?? [];
    // The first row of a SELECT's first page repeats the column names.
    const first = names === undefined;
    names ??= (page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? []).map((c) => c.Name ?? '');
    for (const row of first ? pageRows.slice(1) : pageRows) {
      const values: Record<string, string | null> = {};
      (row.Data ?? []).forEach((datum, i) => (values[names![i]!] = datum.VarCharValue ?? null));
      rows.push(values);
    }
    token = page.NextToken;
  } while (token);
  return rows;
}
