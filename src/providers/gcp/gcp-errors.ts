import { BurnrateError } from '../../domain/errors.js';

// gRPC status codes, as the gax clients report them (also over HTTP/JSON).
const PERMISSION_DENIED = 7;
const RESOURCE_EXHAUSTED = 8;
const INTERNAL = 13;
const UNAVAILABLE = 14;
const UNAUTHENTICATED = 16;

interface GoogleErrorLike {
  code?: number | string;
  message?: string;
  attempts?: number;
  errors?: { reason?: string; message?: string }[];
  response?: { status?: number };
}

/** What was being done when a Google call failed, for the message. */
export interface GoogleCall {
  service: string;
  /** The IAM permission the call needs, e.g. `bigquery.jobs.create`. */
  permission: string;
  /** The role that grants it, named in the hint. */
  role: string;
  /** What it was asked about: a table, a billing account. */
  resource: string;
}

function reasonsOf(e: GoogleErrorLike): string[] {
  return (e.errors ?? []).map((x) => x.reason ?? '');
}

/** Throttling or a passing server error: worth another try after a wait. */
export function isRetryableGoogleError(error: unknown): boolean {
  const e = (error ?? {}) as GoogleErrorLike;
  const code = Number(e.code ?? e.response?.status);
  if (code === 429 || code >= 500 || code === RESOURCE_EXHAUSTED || code === UNAVAILABLE || code === INTERNAL) return true;
  return code === 403 && reasonsOf(e).some((r) => r === 'rateLimitExceeded' || r === 'quotaExceeded');
}

/** A client error → a BurnrateError naming the permission, credential or quota to look at. */
export function explainGoogleError(error: unknown, call: GoogleCall): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const e = (error ?? {}) as GoogleErrorLike;
  const code = Number(e.code ?? e.response?.status);
  const message = (e.message ?? '').replace(/^\d+ [A-Z_]+: /, '');
  if (isRetryableGoogleError(error)) {
    return new BurnrateError(
      'burnrate_gcp_throttled',
      `${call.service} kept refusing (${code}${e.attempts ? `, ${e.attempts} attempts` : ''}): ${message}`,
      'burnrate retried with backoff and will try again at the next refresh; if it persists, check the API quota of the project.',
      1,
    );
  }
  if (reasonsOf(e).includes('bytesBilledLimitExceeded')) {
    return new BurnrateError(
      'burnrate_gcp_query_too_costly',
      `${call.service} refused a query on ${call.resource} that would bill more than maxGigabytesBilled allows: ${message}`,
      'Raise maxGigabytesBilled on the gcp source in burnrate.yml if the export is that large, or lower backfillDays.',
      2,
    );
  }
  if (code === PERMISSION_DENIED || (code === 403 && !reasonsOf(e).includes('billingNotEnabled'))) {
    return new BurnrateError(
      'burnrate_gcp_permission_denied',
      `${call.service} denied ${call.permission} on ${call.resource}: ${message}`,
      `Grant burnrate's service account ${call.role} (it includes ${call.permission}); docs/permissions.md lists every role burnrate needs.`,
      1,
    );
  }
  if (code === UNAUTHENTICATED || code === 401 || /default credentials|invalid_grant|invalid_client/i.test(e.message ?? '')) {
    return new BurnrateError(
      'burnrate_gcp_credentials_invalid',
      `${call.service} could not authenticate burnrate: ${message}`,
      'Set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or run where Application Default Credentials are available (workload identity, gcloud auth application-default login).',
      1,
    );
  }
  if (code === 404) {
    return new BurnrateError(
      'burnrate_gcp_not_found',
      `${call.service} found no ${call.resource}: ${message}`,
      'Check the names in the gcp source of burnrate.yml.',
      2,
    );
  }
  return new BurnrateError(
    'burnrate_gcp_failed',
    `${call.service} failed on ${call.resource}: ${code ? `${code} ` : ''}${message || 'error'}`,
    undefined,
    1,
  );
}
