import { BurnrateError } from '../../domain/errors.js';
import { classifyAwsError } from './aws-error-kind.js';

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
  const e = classifyAwsError(error);
  const who = call.account === 'default credentials' ? "burnrate's AWS credentials" : `role ${call.account}`;
  switch (e.kind) {
    case 'access_denied':
      // The message of an assume-role failure comes from STS: the role, not the service, is the problem.
      if (/sts:AssumeRole|AssumeRole/.test(e.message ?? ''))
        return new BurnrateError(
          'burnrate_aws_assume_role_denied',
          `AWS denied sts:AssumeRole on ${call.account}: ${e.message}`,
          `Let burnrate's own identity assume the role (sts:AssumeRole in its policy, and the role's trust policy naming it).`,
          1,
        );
      return new BurnrateError(
        'burnrate_aws_access_denied',
        `${call.service} denied ${call.permission} to ${who}${e.message ? `: ${e.message}` : ''}`,
        `Allow ${call.permission} for the IAM role or user burnrate runs as (docs/permissions.md lists every permission burnrate needs).`,
        1,
      );
    case 'throttled':
      return new BurnrateError(
        'burnrate_aws_throttled',
        `${call.service} kept throttling ${call.permission}${e.attempts ? ` (${e.attempts} attempts)` : ''}.`,
        "burnrate retries with backoff; it will try again at the next refresh. If it persists, another tool is using up the account's request quota.",
        1,
      );
    case 'no_credentials':
      return new BurnrateError('burnrate_aws_no_credentials', `No AWS credentials found for ${call.service}.`, NO_CREDENTIALS_HINT, 1);
    case 'credentials_invalid':
      return new BurnrateError('burnrate_aws_credentials_invalid', `${call.service} rejected ${who} (${e.name}).`, BAD_CREDENTIALS_HINT, 1);
    case 'unreachable':
      return new BurnrateError(
        'burnrate_aws_unreachable',
        `${call.service} is unreachable (${e.code || e.name}).`,
        'Check network access to AWS (or AWS_ENDPOINT_URL if set).',
        1,
      );
    case 'failed':
      return new BurnrateError(
        'burnrate_aws_failed',
        `${call.service} ${call.permission} failed: ${e.name || 'Error'}${e.httpStatus ? ` (HTTP ${e.httpStatus})` : ''}${e.message ? `: ${e.message}` : ''}`,
        undefined,
        1,
      );
  }
}

/** What to do when no credentials were found, for any AWS service. */
export const NO_CREDENTIALS_HINT =
  'Run burnrate with an IAM role (instance profile, IRSA, ECS task role) or set AWS_PROFILE / AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.';
/** What to check when AWS rejected the credentials, for any AWS service. */
export const BAD_CREDENTIALS_HINT = 'Check that the access key is active, the session token current and the clock of this machine right.';
