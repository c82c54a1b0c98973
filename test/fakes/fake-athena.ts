import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { closeServer, readBody, sigV4Scope } from './http-body.js';
import { ARRAY_MIN_MACRO, trinoToDuckDb } from './trino-to-duckdb.js';
import { sendAwsJson, sendAwsJsonError } from './aws-json-protocol.js';

/** A value of one export line item: text, a number, a tag map, or null. */
export type ExportValue = string | number | Record<string, string> | null;

export interface FakeAthenaOptions {
  /** The Glue database and table the test loads, and the catalog and workgroup queries must name. */
  database: string;
  table: string;
  catalog?: string;
  workgroup?: string;
  region?: string;
  /** The table's columns as DuckDB types (TIMESTAMP, DOUBLE, VARCHAR, MAP(VARCHAR, VARCHAR)); billing_period is the partition. */
  columns: Record<string, string>;
  rows: readonly Record<string, ExportValue>[];
  /** Result rows per GetQueryResults page (the header row included), at most the request's MaxResults. */
  rowsPerPage?: number;
  /** What DataScannedInBytes says per line item in the partitions a query names. */
  bytesPerRow?: number;
}

export interface AthenaCall {
  operation: string;
  input: any;
}

interface Execution {
  id: string;
  sql: string;
  input: any;
  /** States still to go through, one per GetQueryExecution. */
  states: string[];
  state: string;
  reason?: string;
  scannedBytes: number;
  columns: string[];
  rows: (string | null)[][];
}

const OPERATIONS = ['StartQueryExecution', 'GetQueryExecution', 'GetQueryResults', 'StopQueryExecution'] as const;
type Operation = (typeof OPERATIONS)[number];

/**
 * Amazon Athena on 127.0.0.1 for tests, speaking its JSON 1.1 protocol (POST /, `X-Amz-Target:
 * AmazonAthena.<Op>`, SigV4-signed for athena). Queries really run: the table the test loads lives
 * in DuckDB, and the SQL received runs there (translated where Trino and DuckDB differ), so results
 * come from the rows, never from recognising burnrate's query. Each query goes QUEUED → RUNNING →
 * SUCCEEDED, one state per GetQueryExecution, with DataScannedInBytes growing with the partitions it
 * names; results come back paged, the first row of the first page being the column names.
 */
export class FakeAthena {
  readonly calls: AthenaCall[] = [];
  readonly unexpected: string[] = [];
  private readonly executions = new Map<string, Execution>();
  private failures: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly duck: { instance: DuckDBInstance; connection: DuckDBConnection },
    private readonly options: FakeAthenaOptions,
  ) {}

  static async start(options: FakeAthenaOptions): Promise<FakeAthena> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(ARRAY_MIN_MACRO);
    let fake: FakeAthena | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeAthena(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, { instance, connection }, options);
    await fake.load(options.rows);
    return fake;
  }

  /** Replaces the table's rows (the export revised, a day added). */
  async load(rows: readonly Record<string, ExportValue>[]): Promise<void> {
    const { connection } = this.duck;
    const { database, table, columns } = this.options;
    const name = `"${database}"."${table}"`;
    await connection.run(`CREATE SCHEMA IF NOT EXISTS "${database}"`);
    await connection.run(
      `CREATE OR REPLACE TABLE ${name} (${Object.entries(columns)
        .map(([c, type]) => `"${c}" ${type}`)
        .join(', ')})`,
    );
    const names = Object.keys(columns);
    for (let i = 0; i < rows.length; i += 500) {
      const values = rows.slice(i, i + 500).map((row) => `(${names.map((c) => literal(row[c] ?? null, columns[c]!)).join(', ')})`);
      await connection.run(`INSERT INTO ${name} VALUES ${values.join(', ')}`);
    }
  }

  /** The next query ends FAILED with this StateChangeReason after running. */
  failNextQuery(reason: string): void {
    this.failures.push(reason);
  }

  callsOf(operation: Operation): AthenaCall[] {
    return this.calls.filter((c) => c.operation === operation);
  }

  /** The SQL of every StartQueryExecution, in order. */
  queries(): string[] {
    return this.callsOf('StartQueryExecution').map((c) => c.input.QueryString as string);
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeAthena got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    await closeServer(this.server);
    this.duck.connection.closeSync();
    this.duck.instance.closeSync();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const scope = sigV4Scope(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.replace(/^AmazonAthena\./, '');
    let input: any;
    try {
      input = JSON.parse(body || '{}');
    } catch {
      input = undefined;
    }
    this.calls.push({ operation, input });
    const region = this.options.region ?? 'eu-west-1';
    const problem =
      req.method !== 'POST' || req.url !== '/'
        ? `${req.method} ${req.url}`
        : !target.startsWith('AmazonAthena.') || !(OPERATIONS as readonly string[]).includes(operation)
          ? `target ${target}`
          : req.headers['content-type'] !== 'application/x-amz-json-1.1'
            ? `content-type ${req.headers['content-type']}`
            : scope.service !== 'athena' || scope.region !== region
              ? `signed for ${scope.service}/${scope.region}, expected athena/${region}`
              : input === undefined
                ? 'body is not JSON'
                : undefined;
    if (problem) {
      this.unexpected.push(`${operation || '(no target)'}: ${problem}`);
      return sendError(res, 'InvalidRequestException', `Unexpected request: ${problem}`);
    }
    switch (operation as Operation) {
      case 'StartQueryExecution':
        return this.startQuery(input, res);
      case 'GetQueryExecution':
        return this.getQueryExecution(input, res);
      case 'GetQueryResults':
        return this.getQueryResults(input, res);
      case 'StopQueryExecution':
        return this.stopQuery(input, res);
    }
  }

  private async startQuery(input: any, res: ServerResponse): Promise<void> {
    const { database, catalog = 'AwsDataCatalog', workgroup = 'primary' } = this.options;
    const context = input.QueryExecutionContext ?? {};
    const invalid =
      typeof input.QueryString !== 'string'
        ? 'QueryString is required'
        : context.Database !== database || context.Catalog !== catalog
          ? `QueryExecutionContext ${JSON.stringify(context)}, expected ${catalog}/${database}`
          : input.WorkGroup !== workgroup
            ? `WorkGroup ${input.WorkGroup}, expected ${workgroup}`
            : undefined;
    if (invalid) {
      this.unexpected.push(`StartQueryExecution: ${invalid}`);
      return sendError(res, 'InvalidRequestException', invalid);
    }
    const execution: Execution = {
      id: randomUUID(),
      sql: input.QueryString,
      input,
      states: ['QUEUED', 'RUNNING', 'SUCCEEDED'],
      state: 'QUEUED',
      scannedBytes: await this.scannedBytes(input.QueryString),
      columns: [],
      rows: [],
    };
    const failure = this.failures.shift();
    if (failure) {
      execution.states = ['QUEUED', 'RUNNING', 'FAILED'];
      execution.reason = failure;
    } else {
      try {
        // Every value as text, as Athena returns them (decimals keep their scale: 12.3400000000).
        const reader = await this.duck.connection.runAndReadAll(
          `SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (${trinoToDuckDb(input.QueryString)}) AS athena_result`,
        );
        execution.columns = reader.columnNames();
        execution.rows = reader.getRowsJS().map((row) => row.map((value) => (value === null ? null : String(value))));
      } catch (error) {
        // As Athena does: the query is accepted, then fails with the engine's message.
        execution.states = ['QUEUED', 'FAILED'];
        execution.reason = athenaReason((error as Error).message.split('\n')[0]!);
      }
    }
    this.executions.set(execution.id, execution);
    sendJson(res, { QueryExecutionId: execution.id });
  }

  private getQueryExecution(input: any, res: ServerResponse): void {
    const execution = this.executions.get(input.QueryExecutionId);
    if (!execution) return sendError(res, 'InvalidRequestException', `QueryExecution ${input.QueryExecutionId} was not found`);
    if (execution.states.length > 0) execution.state = execution.states.shift()!;
    const scanned = execution.state === 'QUEUED' ? 0 : execution.scannedBytes;
    sendJson(res, {
      QueryExecution: {
        QueryExecutionId: execution.id,
        Query: execution.sql,
        StatementType: 'DML',
        WorkGroup: execution.input.WorkGroup,
        QueryExecutionContext: execution.input.QueryExecutionContext,
        ResultConfiguration: execution.input.ResultConfiguration ?? { OutputLocation: 's3://workgroup-results/' },
        Status: {
          State: execution.state,
          SubmissionDateTime: Date.now() / 1000,
          ...(execution.reason && execution.state === 'FAILED' ? { StateChangeReason: execution.reason } : {}),
        },
        Statistics: { DataScannedInBytes: scanned, EngineExecutionTimeInMillis: 10, TotalExecutionTimeInMillis: 12 },
        EngineVersion: { SelectedEngineVersion: 'AUTO', EffectiveEngineVersion: 'Athena engine version 3' },
      },
    });
  }

  private getQueryResults(input: any, res: ServerResponse): void {
    const execution = this.executions.get(input.QueryExecutionId);
    if (!execution) return sendError(res, 'InvalidRequestException', `QueryExecution ${input.QueryExecutionId} was not found`);
    if (execution.state !== 'SUCCEEDED')
      return sendError(res, 'InvalidRequestException', `Query has not yet finished. Current state: ${execution.state}`);
    const all = [execution.columns, ...execution.rows];
    const size = Math.min(this.options.rowsPerPage ?? 1000, Number(input.MaxResults ?? 1000));
    const offset = input.NextToken ? Number(Buffer.from(input.NextToken, 'base64').toString()) : 0;
    const next = offset + size < all.length ? Buffer.from(String(offset + size)).toString('base64') : undefined;
    sendJson(res, {
      UpdateCount: 0,
      ResultSet: {
        Rows: all.slice(offset, offset + size).map((row) => ({ Data: row.map((v) => (v === null ? {} : { VarCharValue: v })) })),
        ResultSetMetadata: {
          ColumnInfo: execution.columns.map((name) => ({
            CatalogName: 'hive',
            Name: name,
            Label: name,
            Type: 'varchar',
            Nullable: 'UNKNOWN',
          })),
        },
      },
      ...(next ? { NextToken: next } : {}),
    });
  }

  private stopQuery(input: any, res: ServerResponse): void {
    const execution = this.executions.get(input.QueryExecutionId);
    if (!execution) return sendError(res, 'InvalidRequestException', `QueryExecution ${input.QueryExecutionId} was not found`);
    execution.states = [];
    execution.state = 'CANCELLED';
    sendJson(res, {});
  }

  /** What Athena would bill: the line items of the billing_period partitions the query names. */
  private async scannedBytes(sql: string): Promise<number> {
    const partitions = /"billing_period" IN \(([^)]*)\)/.exec(sql)?.[1];
    const where = partitions ? `WHERE billing_period IN (${partitions})` : '';
    const reader = await this.duck.connection.runAndReadAll(
      `SELECT count(*) FROM "${this.options.database}"."${this.options.table}" ${where}`,
    );
    return Number(reader.getRowsJS()[0]![0]) * (this.options.bytesPerRow ?? 1000);
  }
}

/** DuckDB's message as Athena words the same failure (a missing column), else as it is. */
function athenaReason(message: string): string {
  const column = /Referenced column "([^"]+)" not found/.exec(message)?.[1];
  return column ? `COLUMN_NOT_FOUND: line 1:8: Column '${column}' cannot be resolved` : message;
}

/** A value as SQL for DuckDB's INSERT. */
function literal(value: ExportValue, type: string): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${quote(k)}: ${quote(v)}`);
    return `CAST(MAP {${entries.join(', ')}} AS ${type})`;
  }
  return quote(value);
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function sendJson(res: ServerResponse, body: unknown): void {
  sendAwsJson(res, '1.1', body);
}

function sendError(res: ServerResponse, type: string, message: string): void {
  sendAwsJsonError(res, '1.1', { status: 400, type, message, messageKey: 'Message' });
}
