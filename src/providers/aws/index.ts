import type { PermissionNeed } from '../../ports/permission-need.js';
import { STOP_PERMISSIONS } from '../../ports/instance-port.js';
import { SPOT_PERMISSIONS } from '../../ports/spot-port.js';
import type { Provider } from '../provider.js';
import { ATHENA_SOURCE_PERMISSIONS } from './athena/athena-permissions.js';
import { AWS_SOURCE_PERMISSIONS } from './aws-permissions.js';
import { athenaSources, awsSources } from './aws-sources.js';
import { COST_ANOMALY_PERMISSIONS } from './cost-anomaly-permissions.js';
import { CLOUDWATCH_GPU_PERMISSIONS } from './cloudwatch/nvidia-smi-metrics.js';
import { ec2ConsoleLink, isEc2Instance } from './ec2/ec2-console-link.js';
import { STUDIO_PERMISSIONS } from './sagemaker-studio/studio-permissions.js';
import { studioStopWording } from './sagemaker-studio/studio-stop-wording.js';

/**
 * AWS: Cost Explorer, Budgets and Athena exports; CloudWatch GPU metrics; the EC2 inventory, stops
 * and spot migrations; SageMaker Studio's GPU apps and their deletion.
 */
export const aws: Provider = {
  id: 'aws',
  configTypes: { sources: ['aws', 'athena'], metrics: ['cloudwatch'], inventory: ['ec2', 'sagemaker-studio'] },
  permissions: [
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
    ...COST_ANOMALY_PERMISSIONS.map(
      (permission): PermissionNeed => ({
        cloud: 'aws',
        permission,
        resource: '*',
        usedBy:
          permission === 'ce:GetAnomalies'
            ? 'anomaly check: AWS Cost Anomaly Detection anomalies'
            : 'chat buttons anomaly.expected, anomaly.not-expected: feedback to AWS Cost Anomaly Detection',
        when: 'with anomalies.monitors on an aws source',
      }),
    ),
    // What Ec2GpuInventory declares (an instance field: the test checks the two agree).
    { cloud: 'aws', permission: 'ec2:DescribeInstances', resource: '*', usedBy: 'GPU inventory (EC2)', when: 'with an ec2 GPU inventory' },
    {
      cloud: 'aws',
      permission: 'ec2:DescribeCapacityReservations',
      resource: '*',
      usedBy: 'GPU inventory (EC2): when a Capacity Block or reservation ends',
      when: 'with an ec2 GPU inventory',
    },
    ...STUDIO_PERMISSIONS,
  ],
  portPermissions: { instances: STOP_PERMISSIONS, spot: SPOT_PERMISSIONS },
  sources: (entry, { config }) => {
    if (entry.type === 'aws') return awsSources(entry, config);
    if (entry.type === 'athena') return athenaSources(entry);
    throw new Error(`not an AWS source: ${entry.type}`);
  },
  consoleLink: ec2ConsoleLink,
  ownsMachine: isEc2Instance,
  stopWording: studioStopWording,
  gpu: async (config) => (await import('./aws-gpu.js')).awsGpu(config),
};
