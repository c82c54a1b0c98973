import { BurnrateError } from '../../../domain/errors.js';
import { redactAwsSecrets } from '../redact-aws-secrets.js';
import { CLOUDWATCH_GPU_PERMISSIONS, type CloudWatchGpuPermission } from './nvidia-smi-metrics.js';

const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'LimitExceededException',
]);
const ACCESS_DENIED = new Set(['AccessDenied', 'AccessDeniedException']);
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
  $metadata?: { attempts?: number };
}

/** An SDK error from `action` → a BurnrateError that says which permission, credential or quota to look at. */
export function explainCloudWatchError(error: unknown, action: CloudWatchGpuPermission, region: string): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const e = (error ?? {}) as AwsErrorLike;
  const name = e.name ?? '';
  const detail = e.message ? `: ${redactAwsSecrets(e.message)}` : '';
  if (ACCESS_DENIED.has(name)) {
    return new BurnrateError(
      'burnrate_cloudwatch_access_denied',
      `CloudWatch in ${region} denied ${action}${detail}`,
      `Allow ${action} for the IAM role or user burnrate runs as. The GPU metrics source needs ${CLOUDWATCH_GPU_PERMISSIONS.join(' and ')} on resource "*".`,
      1,
    );
  }
  if (THROTTLING.has(name)) {
    const attempts = e.$metadata?.attempts;
    return new BurnrateError(
      'burnrate_cloudwatch_throttled',
      `CloudWatch in ${region} kept throttling ${action}${attempts ? ` (${attempts} attempts)` : ''}.`,
      'Try again in a minute. If it persists, run GPU checks less often or ask AWS to raise the CloudWatch API request quota.',
      1,
    );
  }
  if (name === 'CredentialsProviderError') {
    return new BurnrateError(
      'burnrate_cloudwatch_no_credentials',
      `No AWS credentials found for CloudWatch in ${region}.`,
      'Run burnrate with an IAM role (instance profile, IRSA, ECS task role) or set AWS_PROFILE / AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.',
      1,
    );
  }
  if (BAD_CREDENTIALS.has(name)) {
    return new BurnrateError(
      'burnrate_cloudwatch_credentials_invalid',
      `CloudWatch in ${region} rejected burnrate's AWS credentials (${name}).`,
      'Check that the access key is active, the session token current and the clock of this machine right.',
      1,
    );
  }
  if (NETWORK.has(name) || NETWORK.has(e.code ?? '')) {
    return new BurnrateError(
      'burnrate_cloudwatch_unreachable',
      `CloudWatch in ${region} is unreachable (${e.code || name}).`,
      'Check the region, network access to monitoring.<region>.amazonaws.com (or the VPC endpoint), and AWS_ENDPOINT_URL_CLOUDWATCH if set.',
      1,
    );
  }
  return new BurnrateError(
    'burnrate_cloudwatch_failed',
    `CloudWatch ${action} failed in ${region}: ${name || 'Error'}${detail}`,
    undefined,
    1,
  );
}
