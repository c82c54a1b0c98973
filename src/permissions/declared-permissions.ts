import { ACTIONS } from '../actions/index.js';
import { AWS_SOURCE_PERMISSIONS } from '../sources/aws/aws-permissions.js';
import { CLOUDWATCH_GPU_PERMISSIONS } from '../sources/cloudwatch/nvidia-smi-metrics.js';
import { GCP_SOURCE_PERMISSIONS } from '../sources/gcp/gcp-permissions.js';
import type { PermissionNeed } from './permission-need.js';

/**
 * Every cloud permission burnrate can use, from the sources and actions that declare them: the one
 * place docs/permissions.md is generated from, so the docs cannot drift from the code.
 */
export function declaredPermissions(): PermissionNeed[] {
  const needs: PermissionNeed[] = [
    ...AWS_SOURCE_PERMISSIONS,
    ...CLOUDWATCH_GPU_PERMISSIONS.map((permission): PermissionNeed => ({ cloud: 'aws', permission, resource: '*', usedBy: 'GPU metrics (CloudWatch agent)', when: 'with CloudWatch GPU metrics' })),
    // Chat buttons that act on the cloud (stop an instance) declare what they call; all are EC2 so far.
    ...ACTIONS.flatMap((action) => action.permissions.map((permission): PermissionNeed => ({ cloud: 'aws', permission, resource: '*', usedBy: `chat button ${action.id}`, when: 'to act from chat (actions.enabled: true)' }))),
    ...GCP_SOURCE_PERMISSIONS,
  ];
  // One line per permission and use (several buttons may declare the same permission).
  const seen = new Set<string>();
  return needs.filter((n) => {
    const key = `${n.cloud}|${n.permission}|${n.usedBy}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
