import type { PermissionNeed } from '../../../ports/permission-need.js';

/** The IAM permissions the Compute Engine inventory, its stops and Cloud Monitoring's GPU metrics use, with the predefined roles that grant them. */
export const GCE_LIST = {
  cloud: 'gcp',
  permission: 'compute.instances.list',
  role: 'roles/compute.viewer',
  resource: 'each project in `projects`',
  scope: 'project',
  usedBy: 'GPU inventory (Compute Engine)',
  when: 'with a gce GPU inventory',
} as const satisfies PermissionNeed;

export const GCE_GET = {
  ...GCE_LIST,
  permission: 'compute.instances.get',
  usedBy: 'Stop of a Compute Engine VM: its state and labels re-read before it acts',
  when: 'to act from chat (actions.enabled: true)',
} as const satisfies PermissionNeed;

export const GCE_STOP = {
  ...GCE_GET,
  permission: 'compute.instances.stop',
  role: 'roles/compute.instanceAdmin.v1',
  usedBy: 'Stop of a Compute Engine VM',
} as const satisfies PermissionNeed;

export const GCE_OPERATION = {
  ...GCE_GET,
  permission: 'compute.zoneOperations.get',
  usedBy: 'Stop of a Compute Engine VM: its operation followed until done',
} as const satisfies PermissionNeed;

export const MONITORING_READ = {
  cloud: 'gcp',
  permission: 'monitoring.timeSeries.list',
  role: 'roles/monitoring.viewer',
  resource: 'each project in `projects`',
  scope: 'project',
  usedBy: 'GPU metrics (Cloud Monitoring, Ops Agent)',
  when: 'with cloud-monitoring GPU metrics',
} as const satisfies PermissionNeed;

/** A spot migration of a managed instance group (its template copied as SPOT and made the group's); the role grants every permission it calls. */
export const GCE_SPOT = {
  ...GCE_GET,
  permission: 'compute.instanceGroupManagers.update',
  role: 'roles/compute.instanceAdmin.v1',
  usedBy: 'Spot migration of a managed instance group (Compute Engine)',
} as const satisfies PermissionNeed;

/** Every permission a spot migration and its revert call with (the role above grants them all). */
export const GCE_SPOT_PERMISSIONS: readonly PermissionNeed[] = [
  'compute.instanceGroupManagers.get',
  'compute.instanceGroupManagers.update',
  'compute.instanceTemplates.get',
  'compute.instanceTemplates.create',
  'compute.instanceTemplates.useReadOnly',
  'compute.globalOperations.get',
].map((permission) => ({ ...GCE_SPOT, permission }));

/** What the GPU parts read with (a stop's and a spot migration's are declared beside them on the face). */
export const GCE_GPU_PERMISSIONS: readonly PermissionNeed[] = [GCE_LIST, MONITORING_READ];
