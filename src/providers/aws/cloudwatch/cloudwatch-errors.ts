import { BurnrateError } from '../../../domain/errors.js';
import { classifyAwsError } from '../aws-error-kind.js';
import { BAD_CREDENTIALS_HINT, NO_CREDENTIALS_HINT } from '../aws-errors.js';
import { CLOUDWATCH_GPU_PERMISSIONS, type CloudWatchGpuPermission } from './nvidia-smi-metrics.js';

/** An SDK error from `action` → a BurnrateError that says which permission, credential or quota to look at. */
export function explainCloudWatchError(error: unknown, action: CloudWatchGpuPermission, region: string): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const e = classifyAwsError(error);
  const detail = e.message ? `: ${e.message}` : '';
  switch (e.kind) {
    case 'access_denied':
      return new BurnrateError(
        'burnrate_cloudwatch_access_denied',
        `CloudWatch in ${region} denied ${action}${detail}`,
        `Allow ${action} for the IAM role or user burnrate runs as. The GPU metrics source needs ${CLOUDWATCH_GPU_PERMISSIONS.join(' and ')} on resource "*".`,
        1,
      );
    case 'throttled':
      return new BurnrateError(
        'burnrate_cloudwatch_throttled',
        `CloudWatch in ${region} kept throttling ${action}${e.attempts ? ` (${e.attempts} attempts)` : ''}.`,
        'Try again in a minute. If it persists, run GPU checks less often or ask AWS to raise the CloudWatch API request quota.',
        1,
      );
    case 'no_credentials':
      return new BurnrateError(
        'burnrate_cloudwatch_no_credentials',
        `No AWS credentials found for CloudWatch in ${region}.`,
        NO_CREDENTIALS_HINT,
        1,
      );
    case 'credentials_invalid':
      return new BurnrateError(
        'burnrate_cloudwatch_credentials_invalid',
        `CloudWatch in ${region} rejected burnrate's AWS credentials (${e.name}).`,
        BAD_CREDENTIALS_HINT,
        1,
      );
    case 'unreachable':
      return new BurnrateError(
        'burnrate_cloudwatch_unreachable',
        `CloudWatch in ${region} is unreachable (${e.code || e.name}).`,
        'Check the region, network access to monitoring.<region>.amazonaws.com (or the VPC endpoint), and AWS_ENDPOINT_URL_CLOUDWATCH if set.',
        1,
      );
    case 'failed':
      return new BurnrateError(
        'burnrate_cloudwatch_failed',
        `CloudWatch ${action} failed in ${region}: ${e.name || 'Error'}${detail}`,
        undefined,
        1,
      );
  }
}
