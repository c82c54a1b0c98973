import { BurnrateError } from '../../../domain/errors.js';
import { classifyAwsError } from '../aws-error-kind.js';
import { STOP_PERMISSIONS, type StopPermission } from '../../../ports/instance-port.js';
import { SPOT_PERMISSIONS, type SpotPermission } from '../../../ports/spot-port.js';

// Denials, throttling and credentials are classified as for every AWS service (aws-error-kind.ts:
// EC2's UnauthorizedOperation is a denial, its RequestLimitExceeded throttling, its AuthFailure bad
// credentials); what only EC2 answers (no such instance or template, a state it cannot stop from) is here.
const NOT_FOUND = new Set(['InvalidInstanceID.NotFound', 'InvalidInstanceID.Malformed']);
const TEMPLATE_NOT_FOUND = new Set([
  'InvalidLaunchTemplateId.NotFound',
  'InvalidLaunchTemplateId.Malformed',
  'InvalidLaunchTemplateName.NotFoundException',
  'InvalidLaunchTemplateId.VersionNotFound',
]);
const CANNOT_STOP = new Set(['IncorrectInstanceState', 'UnsupportedOperation', 'UnsupportedInstanceAttribute']);

/** An SDK error from `permission` → a BurnrateError that says which permission, instance or quota to look at. */
export function explainEc2Error(error: unknown, permission: StopPermission | SpotPermission, region: string): BurnrateError {
  if (error instanceof BurnrateError) return error;
  const { kind, name, attempts, message: quoted } = classifyAwsError(error);
  // EC2's UnauthorizedOperation message carries an encoded authorization blob: keep the first sentence only.
  const message = (quoted ?? '').split(' Encoded authorization failure message:')[0]!;
  if (kind === 'access_denied')
    return new BurnrateError(
      'burnrate_ec2_access_denied',
      `EC2 in ${region} denied ${permission} (${name}).`,
      `Allow ${permission} for the IAM role or user burnrate runs as. ${(SPOT_PERMISSIONS as readonly string[]).includes(permission) ? `Spot migrations need ${SPOT_PERMISSIONS.join(', ')}` : `Stopping instances needs ${STOP_PERMISSIONS.join(' and ')}`}.`,
      1,
    );
  if (NOT_FOUND.has(name))
    return new BurnrateError(
      'burnrate_ec2_instance_not_found',
      `EC2 in ${region} has no such instance: ${message || name}`,
      'Check the instance id and the region burnrate is configured for; a terminated instance disappears from EC2 after about an hour.',
      1,
    );
  if (TEMPLATE_NOT_FOUND.has(name))
    return new BurnrateError(
      'burnrate_ec2_launch_template_not_found',
      `EC2 in ${region} has no such launch template or version: ${message || name}`,
      'Check the burnrate:launch-template tag on the instance: it must name a launch template id (lt-...) in this region.',
      1,
    );
  if (kind === 'throttled')
    return new BurnrateError(
      'burnrate_ec2_throttled',
      `EC2 in ${region} kept throttling ${permission}${attempts ? ` (${attempts} attempts)` : ''}.`,
      'Try again in a minute. If it persists, something else in the account is using up the EC2 API request quota.',
      1,
    );
  if (CANNOT_STOP.has(name))
    return new BurnrateError('burnrate_ec2_cannot_stop', `EC2 in ${region} cannot stop this instance: ${message || name}`, undefined, 1);
  if (kind === 'no_credentials')
    return new BurnrateError(
      'burnrate_ec2_no_credentials',
      `No AWS credentials found for EC2 in ${region}.`,
      'Run burnrate with an IAM role (instance profile, IRSA, ECS task role) or set AWS_PROFILE / AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.',
      1,
    );
  if (kind === 'credentials_invalid')
    return new BurnrateError(
      'burnrate_ec2_credentials_invalid',
      `EC2 in ${region} rejected burnrate's AWS credentials (${name}).`,
      'Check that the access key is active, the session token current and the clock of this machine right.',
      1,
    );
  return new BurnrateError(
    'burnrate_ec2_failed',
    `EC2 ${permission} failed in ${region}: ${name || 'Error'}${message ? `: ${message}` : ''}`,
    undefined,
    1,
  );
}
