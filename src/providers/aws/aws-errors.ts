import { BurnrateError } from '../../domain/errors.js';
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

interface AwsErrorLike {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { attempts?: number; httpStatusCode?: number };
}

/** What was being done when an AWS call failed, for the message. */
export interface AwsCall {
  /** Human name of the service: "Cost Explorer", "AWS Budgets". */
  service: string;
  /** The IAM action, e.g. `ce:GetCostAndUsage`: named in the message when it is denied. */
  permission: string;
  /** Whose credentials: the role ARN or "default credentials". */
  account: string;
}

/**
 * An SDK error → a BurnrateError that names the permission, credential or quota to look at. The SDK
 * has already retried throttling and 5xx answers with backoff by then; this explains what is left.
 */
export function explainAwsError(error: unknown, call: AwsCall): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const raw = (error ?? {}) as AwsErrorLike;
  // Every text quoted from AWS below goes through the redaction first.
  const e: AwsErrorLike = { ...raw, ...(raw.message === undefined ? {} : { message: redactAwsSecrets(String(raw.message)) }) };
  const name = e.name ?? '';
  const who = call.account === 'default credentials' ? "burnrate's AWS credentials" : `role ${call.account}`;
  // The message of an assume-role failure comes from STS: the role, not the service, is the problem.
  const assuming = /sts:AssumeRole|AssumeRole/.test(e.message ?? '');
  if (ACCESS_DENIED.has(name) && assuming) {
    return new BurnrateError(
      'burnrate_aws_assume_role_denied',
      `AWS denied sts:AssumeRole on ${call.account}: ${e.message}`,
      `Let burnrate's own identity assume the role (sts:AssumeRole in its policy, and the role's trust policy naming it).`,
      1,
    );
  }
  if (ACCESS_DENIED.has(name)) {
    return new BurnrateError(
      'burnrate_aws_access_denied',
      `${call.service} denied ${call.permission} to ${who}${e.message ? `: ${e.message}` : ''}`,
      `Allow ${call.permission} for the IAM role or user burnrate runs as (docs/permissions.md lists every permission burnrate needs).`,
      1,
    );
  }
  if (THROTTLING.has(name)) {
    const attempts = e.$metadata?.attempts;
    return new BurnrateError(
      'burnrate_aws_throttled',
      `${call.service} kept throttling ${call.permission}${attempts ? ` (${attempts} attempts)` : ''}.`,
      "burnrate retries with backoff; it will try again at the next refresh. If it persists, another tool is using up the account's request quota.",
      1,
    );
  }
  if (name === 'CredentialsProviderError') {
    return new BurnrateError(
      'burnrate_aws_no_credentials',
      `No AWS credentials found for ${call.service}.`,
      'Run burnrate with an IAM role (instance profile, IRSA, ECS task role) or set AWS_PROFILE / AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.',
      1,
    );
  }
  if (BAD_CREDENTIALS.has(name)) {
    return new BurnrateError(
      'burnrate_aws_credentials_invalid',
      `${call.service} rejected ${who} (${name}).`,
      'Check that the access key is active, the session token current and the clock of this machine right.',
      1,
    );
  }
  if (NETWORK.has(name) || NETWORK.has(e.code ?? '')) {
    return new BurnrateError(
      'burnrate_aws_unreachable',
      `${call.service} is unreachable (${e.code || name}).`,
      'Check network access to AWS (or AWS_ENDPOINT_URL if set).',
      1,
    );
  }
  const status = e.$metadata?.httpStatusCode;
  return new BurnrateError(
    'burnrate_aws_failed',
    `${call.service} ${call.permission} failed: ${name || 'Error'}${status ? ` (HTTP ${status})` : ''}${e.message ? `: ${e.message}` : ''}`,
    undefined,
    1,
  );
}
