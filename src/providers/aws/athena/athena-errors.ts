import { BurnrateError } from '../../../domain/errors.js';
import { redactAwsSecrets } from '../redact-aws-secrets.js';

/** Where the query ran and what it read, for the messages. */
export interface QueryPlace {
  sourceId: string;
  /** database.table */
  table: string;
  workgroup: string;
  outputLocation?: string | undefined;
}

/** Athena's reasons for a failed query, and what to look at for each (first match wins). */
const REASONS: { pattern: RegExp; hint: (place: QueryPlace) => string }[] = [
  {
    pattern: /bytes scanned limit|BytesScannedCutoff|data usage control/i,
    hint: (p) =>
      `The workgroup ${p.workgroup} limits the bytes a query may scan, and this one needed more. Check that the table is partitioned by billing_period, or raise the workgroup's per-query data usage control.`,
  },
  {
    pattern: /glue:|Lake Formation|not authorized to perform: glue/i,
    hint: (p) =>
      `Allow glue:GetTable and glue:GetPartitions on ${p.table} (and Lake Formation SELECT if it governs the database); docs/permissions.md lists them.`,
  },
  {
    pattern: /output location|OutputLocation|query results location/i,
    hint: (p) =>
      `Set outputLocation (s3://bucket/prefix/) on the athena source ${p.sourceId}, or a query result location on the workgroup ${p.workgroup}, and allow s3:PutObject there.`,
  },
  {
    pattern: /Access Denied|AccessDenied|Permission denied on S3|s3:/i,
    hint: (p) =>
      `Allow s3:GetObject and s3:ListBucket on the export's bucket, and s3:PutObject and s3:GetObject on ${p.outputLocation ?? "the workgroup's result location"}; docs/permissions.md lists them.`,
  },
  {
    pattern: /COLUMN_NOT_FOUND|cannot be resolved|TYPE_MISMATCH|FUNCTION_NOT_FOUND/i,
    hint: (p) =>
      `The table does not have the columns of the format given: check format (focus for FOCUS 1.2, cur2 for CUR 2.0) on the athena source ${p.sourceId}, and that the export includes every column.`,
  },
  {
    pattern: /TABLE_NOT_FOUND|SCHEMA_NOT_FOUND|does not exist/i,
    hint: (p) =>
      `Check database and table (${p.table}) on the athena source ${p.sourceId}, and that the catalog and region are the table's.`,
  },
];

/** A query Athena ended as FAILED or CANCELLED, with its own reason and what to do about it. */
export function queryFailedError(state: string, reason: string | undefined, queryId: string, place: QueryPlace): BurnrateError {
  const text = redactAwsSecrets(reason?.trim() || 'no reason given');
  const hint =
    REASONS.find((r) => r.pattern.test(text))?.hint(place) ??
    (state === 'CANCELLED'
      ? 'Someone or something (a workgroup limit, an administrator) cancelled the query; it runs again at the next refresh.'
      : `See the query ${queryId} in the Athena console (workgroup ${place.workgroup}) for details.`);
  return new BurnrateError(
    'burnrate_athena_query_failed',
    `Athena query ${queryId} on ${place.table} ${state === 'CANCELLED' ? 'was cancelled' : 'failed'}: ${text}`,
    hint,
    1,
  );
}

/** A query burnrate stopped because it scanned more than maxGigabytesScanned. */
export function scanLimitError(scannedBytes: number, maxGigabytes: number, queryId: string, place: QueryPlace): BurnrateError {
  return new BurnrateError(
    'burnrate_athena_scan_limit',
    `Athena query ${queryId} on ${place.table} scanned ${(scannedBytes / 1e9).toFixed(1)} GB, more than maxGigabytesScanned (${maxGigabytes} GB) allows: burnrate stopped it.`,
    `Check that the table is partitioned by billing_period; raise maxGigabytesScanned on the athena source ${place.sourceId} if the export really is that large. A per-query data usage control on the workgroup ${place.workgroup} makes Athena itself cancel such a query before it scans more.`,
    1,
  );
}
