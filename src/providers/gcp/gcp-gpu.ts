import {
  GlobalOperationsClient,
  InstanceGroupManagersClient,
  InstancesClient,
  InstanceTemplatesClient,
  ZoneOperationsClient,
} from '@google-cloud/compute';
import { MetricServiceClient } from '@google-cloud/monitoring';
import type { Config } from '../../config/schema.js';
import { teamResolver } from '../../domain/ownership.js';
import { metricsSourceId } from '../../config/metrics-source-id.js';
import { inventorySource } from '../inventory-source.js';
import type { ProviderGpu } from '../provider.js';
import { RollingWindowMetrics } from '../rolling-window-metrics.js';
import { GceGpuInventory } from './compute/gce-gpu-inventory.js';
import { isGceInstanceId } from './compute/gce-instance-id.js';
import { GceInstancePort } from './compute/gce-instance-port.js';
import { GCE_SPOT_PLACE, GceSpotPort } from './compute/gce-spot-port.js';
import { gaxClientOptions, googleEndpoint } from './google-endpoint.js';
import { CloudMonitoringGpuSource } from './monitoring/cloud-monitoring-gpu-source.js';

/** The Ops Agent writes a minute's GPU point a minute or two after it: read the last 3 minutes again. */
const MONITORING_OVERLAP_SECONDS = 180;

/**
 * The Compute Engine inventory, stops and spot migrations of managed instance groups, and the Ops Agent's GPU metrics from Cloud Monitoring. The clients sign in with Application Default
 * Credentials (workload identity, GOOGLE_APPLICATION_CREDENTIALS, gcloud's application-default
 * login) and go to BURNRATE_GCP_ENDPOINT when it is set. This module loads the Compute Engine
 * and Cloud Monitoring clients: the face imports it only when a GPU source is first used.
 */
export function gcpGpu(config: Config, env: NodeJS.ProcessEnv = process.env): ProviderGpu {
  const gce = config.gpu.inventory.flatMap((source) => (source.type === 'gce' ? [source] : []));
  const monitored = config.gpu.metrics.flatMap((source) => (source.type === 'cloud-monitoring' ? [source] : []));
  // Every call names its project; a project id given spares the credentials a lookup of their own
  // (Cloud Resource Manager, for a workload identity federation credential).
  const options = { ...gaxClientOptions(googleEndpoint(env)), projectId: gce[0]?.projects[0] ?? monitored[0]?.projects[0] };
  const instances = new InstancesClient(options);
  const operations = new ZoneOperationsClient(options);
  const resolveTeam = teamResolver(config.teams);
  const inventories = gce.map((entry) =>
    inventorySource(
      entry,
      new GceGpuInventory({ projects: entry.projects, tagKeys: config.ownership.tagKeys, resolveTeam, client: instances }),
    ),
  );
  const discardLocalSsdIn = new Set(gce.flatMap((source) => (source.discardLocalSsd ? source.projects : [])));
  const port = new GceInstancePort({ instances, operations, discardLocalSsdIn });
  const spot = new GceSpotPort({
    groups: new InstanceGroupManagersClient(options),
    templates: new InstanceTemplatesClient(options),
    zoneOperations: operations,
    globalOperations: new GlobalOperationsClient(options),
  });
  let monitoring: MetricServiceClient | undefined;
  return {
    metrics: (source) => {
      if (source.type !== 'cloud-monitoring') throw new Error(`not a Cloud Monitoring source: ${source.type}`);
      const client = (monitoring ??= new MetricServiceClient(options));
      return new RollingWindowMetrics(new CloudMonitoringGpuSource({ id: metricsSourceId(source), projects: source.projects, client }), {
        overlapSeconds: MONITORING_OVERLAP_SECONDS,
      });
    },
    inventories,
    portOf: (instance) => (instance.provider === 'gcp' && isGceInstanceId(instance.instanceId) ? port : undefined),
    spotPortOf: (instance) => (instance.provider === 'gcp' && isGceInstanceId(instance.instanceId) ? spot : undefined),
    spotPortAt: (place) => (place === GCE_SPOT_PLACE ? spot : undefined),
  };
}
