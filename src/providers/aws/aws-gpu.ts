import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { EC2Client } from '@aws-sdk/client-ec2';
import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import type { Config } from '../../config/schema.js';
import { teamResolver } from '../../domain/ownership.js';
import { metricsSourceId } from '../../config/metrics-source-id.js';
import type { ProviderGpu } from '../provider.js';
import { inventorySource, type InventorySource } from '../inventory-source.js';
import { RollingWindowMetrics } from '../rolling-window-metrics.js';
import { CloudWatchGpuSource } from './cloudwatch/cloudwatch-source.js';
import { Ec2GpuInventory } from './ec2/ec2-gpu-inventory.js';
import { Ec2InstancePort } from './ec2/ec2-instance-port.js';
import { Ec2SpotPort, regionOfEc2SpotPlace } from './ec2/ec2-spot-port.js';
import { StudioGpuInventory } from './sagemaker-studio/studio-gpu-inventory.js';
import { StudioAppPort } from './sagemaker-studio/studio-app-port.js';
import { studioAppRefOf } from './sagemaker-studio/studio-app-arn.js';

/** Attempts per AWS call, throttling retries included. */
const AWS_MAX_ATTEMPTS = 3;

/** CloudWatch agent datapoints land a minute or two after their period: read the last 3 minutes again. */
const CLOUDWATCH_OVERLAP_SECONDS = 180;

/** One AWS SDK client per region and service, shared by inventory, metrics, stops and spot migrations. */
function perRegion<T>(make: (region: string) => T): (region: string) => T {
  const made = new Map<string, T>();
  return (region) => {
    let client = made.get(region);
    if (!client) made.set(region, (client = make(region)));
    return client;
  };
}

/**
 * CloudWatch metrics, the EC2 and SageMaker Studio inventories, EC2 stops and spot migrations and
 * Studio app deletions in each instance's region. The clients use the SDK's own credential chain and endpoint settings (AWS_PROFILE,
 * roles, AWS_ENDPOINT_URL_*). This module loads the AWS SDK clients: the face imports it only
 * when a GPU source is first used.
 */
export function awsGpu(config: Config): ProviderGpu {
  const ec2 = perRegion((region) => new EC2Client({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const cloudwatch = perRegion((region) => new CloudWatchClient({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const stopPorts = perRegion((region) => new Ec2InstancePort({ region, client: ec2(region) }));
  const spotPorts = perRegion((region) => new Ec2SpotPort({ region, client: ec2(region) }));
  const sagemaker = perRegion((region) => new SageMakerClient({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const studioPorts = perRegion((region) => new StudioAppPort({ region, client: sagemaker(region) }));
  const resolveTeam = teamResolver(config.teams);
  const tagKeys = config.ownership.tagKeys;
  // EC2 and each Studio entry are read apart: a denied sagemaker:ListApps loses only the Studio apps.
  const inventories = config.gpu.inventory.flatMap((entry): InventorySource[] =>
    entry.type === 'ec2'
      ? [inventorySource(entry, new Ec2GpuInventory({ regions: entry.regions, tagKeys, resolveTeam, clientFor: ec2 }))]
      : entry.type === 'sagemaker-studio'
        ? [
            inventorySource(
              entry,
              new StudioGpuInventory({ regions: entry.regions, domains: entry.domains, tagKeys, resolveTeam, clientFor: sagemaker }),
            ),
          ]
        : [],
  );
  return {
    metrics: (source) => {
      if (source.type !== 'cloudwatch') throw new Error(`not a CloudWatch source: ${source.type}`);
      const id = metricsSourceId(source);
      return new RollingWindowMetrics(
        new CloudWatchGpuSource({ id, region: source.region, namespace: source.namespace, client: cloudwatch(source.region) }),
        { overlapSeconds: CLOUDWATCH_OVERLAP_SECONDS },
      );
    },
    inventories,
    portOf: (instance) => {
      if (instance.provider !== 'aws' || instance.kubernetes) return undefined;
      return studioAppRefOf(instance.instanceId) ? studioPorts(instance.region) : stopPorts(instance.region);
    },
    // A Studio app has no launch template to move to spot.
    spotPortOf: (instance) =>
      instance.provider === 'aws' && !studioAppRefOf(instance.instanceId) ? spotPorts(instance.region) : undefined,
    spotPortAt: (place) => {
      const region = regionOfEc2SpotPlace(place);
      return region ? spotPorts(region) : undefined;
    },
  };
}
