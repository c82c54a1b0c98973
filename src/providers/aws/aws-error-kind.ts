import { redactAwsSecrets } from './redact-aws-secrets.js';

const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'LimitExceededException',
]);
const ACCESS_DENIED = new Set(['AccessDenied', 'AccessDeniedException', 'UnauthorizedOperation']);
const BAD_CREDENTIALS = new Set([
  // EC2's own names for a key it does not know and a request signed too long ago.
  'AuthFailure',
  'RequestExpired',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'SignatureDoesNotMatch',
  'InvalidSignatureException',
  'ExpiredToken',
  'ExpiredTokenException',
]);
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'TimeoutError',
]);

/** What went wrong in an AWS SDK call, for every AWS service's own message. */
export type AwsErrorKind = 'access_denied' | 'throttled' | 'no_credentials' | 'credentials_invalid' | 'unreachable' | 'failed';

export interface AwsFailure {
  kind: AwsErrorKind;
  /** The SDK's error name, e.g. `AccessDeniedException` ('' when it had none). */
  name: string;
  /** The network error code, e.g. `ECONNREFUSED`, when there was one. */
  code?: string;
  /** AWS's own message with any secret it quoted redacted. */
  message?: string;
  attempts?: number;
  httpStatus?: number;
}

interface AwsErrorLike {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { attempts?: number; httpStatusCode?: number };
}

/**
 * An SDK error, classified once for every AWS service (the SDK has already retried throttling and
 * 5xx answers with backoff by then). Every text quoted from AWS is redacted here, before any caller sees it.
 */
export function classifyAwsError(error: unknown): AwsFailure {
  const e = (error ?? {}) as AwsErrorLike;
  const name = e.name ?? '';
  const failure: AwsFailure = {
    kind: 'failed',
    name,
    ...(e.code ? { code: e.code } : {}),
    ...(e.message ? { message: redactAwsSecrets(String(e.message)) } : {}),
    ...(e.$metadata?.attempts ? { attempts: e.$metadata.attempts } : {}),
    ...(e.$metadata?.httpStatusCode ? { httpStatus: e.$metadata.httpStatusCode } : {}),
  };
  if (ACCESS_DENIED.has(name)) return { ...failure, kind: 'access_denied' };
  if (THROTTLING.has(name)) return { ...failure, kind: 'throttled' };
  if (name === 'CredentialsProviderError') return { ...failure, kind: 'no_credentials' };
  if (BAD_CREDENTIALS.has(name)) return { ...failure, kind: 'credentials_invalid' };
  if (NETWORK.has(name) || NETWORK.has(e.code ?? '')) return { ...failure, kind: 'unreachable' };
  return failure;
}
