import { ACTIONS } from '../actions/index.js';
import { ATHENA_SOURCE_PERMISSIONS } from '../providers/aws/athena/athena-permissions.js';
import { AWS_SOURCE_PERMISSIONS } from '../providers/aws/aws-permissions.js';
import { CLOUDWATCH_GPU_PERMISSIONS } from '../providers/aws/cloudwatch/nvidia-smi-metrics.js';
import { GCP_SOURCE_PERMISSIONS } from '../providers/gcp/gcp-permissions.js';
import type { PermissionNeed } from '../ports/permission-need.js';

/**
 * Every cloud permission burnrate can use, from the sources and actions that declare them: the one
 * place docs/permissions.md is generated from, so the docs cannot drift from the code.
 */
export function declaredPermissions(): PermissionNeed[] {
  // Chat buttons that act on the cloud (stop, move to spot) declare what they call; all are EC2 so far.
  // One line per permission, naming every button that uses it.
  const buttons = new Map<string, string[]>();
  for (const action of ACTIONS)
    for (const permission of action.permissions) buttons.set(permission, [...(buttons.get(permission) ?? []), action.id]);
  return [
    ...AWS_SOURCE_PERMISSIONS,
    ...ATHENA_SOURCE_PERMISSIONS,
    ...CLOUDWATCH_GPU_PERMISSIONS.map(
      (permission): PermissionNeed => ({
        cloud: 'aws',
        permission,
        resource: '*',
        usedBy: 'GPU metrics (CloudWatch agent)',
        when: 'with CloudWatch GPU metrics',
      }),
    ),
    // What Ec2GpuInventory declares (an instance field: the test checks the two agree).
    { cloud: 'aws', permission: 'ec2:DescribeInstances', resource: '*', usedBy: 'GPU inventory (EC2)', when: 'with an ec2 GPU inventory' },
    ...[...buttons].map(
      ([permission, ids]): PermissionNeed => ({
        cloud: 'aws',
        permission,
        resource: '*',
        usedBy: `chat button${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`,
        when: 'to act from chat (actions.enabled: true)',
      }),
    ),
    ...GCP_SOURCE_PERMISSIONS,
  ];
}
