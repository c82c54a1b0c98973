import { ComputeManagementClient, type ComputeManagementClientOptionalParams } from '@azure/arm-compute';
import { DefaultAzureCredential } from '@azure/identity';
import { MetricsClient } from '@azure/monitor-query-metrics';
import { metricsSourceId } from '../../config/metrics-source-id.js';
import type { Config } from '../../config/schema.js';
import { teamResolver } from '../../domain/ownership.js';
import { inventorySource } from '../inventory-source.js';
import type { ProviderGpu } from '../provider.js';
import { RollingWindowMetrics } from '../rolling-window-metrics.js';
import { AzureMonitorGpuSource } from './azure-monitor-gpu-source.js';
import { AZURE_SPOT_PLACE, AzureSpotPort } from './azure-spot-port.js';
import { AzureVmInventory } from './azure-vm-inventory.js';
import { AzureVmPort } from './azure-vm-port.js';

/** Where and how the Azure clients connect: Azure's public cloud with DefaultAzureCredential unless told otherwise (tests, embedding). */
export interface AzureClientSettings {
  credential?: ConstructorParameters<typeof ComputeManagementClient>[0];
  /** Azure Resource Manager's endpoint; https://management.azure.com by default. */
  endpoint?: string;
  /** The transport under the SDK's pipeline (tests carry requests to a fake on 127.0.0.1). */
  httpClient?: ComputeManagementClientOptionalParams['httpClient'];
  /** How often a deallocation is polled when ARM gives no Retry-After. */
  pollIntervalMs?: number;
  /** Azure Monitor's metrics endpoint of a region; https://<region>.metrics.monitor.azure.com by default. */
  metricsEndpoint?: (region: string) => string;
}

/** Telegraf's azure_monitor output writes its custom metrics a minute or two late: read the last 3 minutes again. */
const MONITOR_OVERLAP_SECONDS = 180;

/** Attempts per ARM call: throttled (429, waiting its Retry-After) and failed calls are retried by the SDK. */
const MAX_RETRIES = 3;

/**
 * The Azure VM inventory, its stop and spot ports and the GPU metrics VMs publish to Azure Monitor, one
 * Compute client per subscription and one metrics client per region.
 * Credentials: DefaultAzureCredential (managed identity, workload identity, a service principal
 * from AZURE_TENANT_ID / AZURE_CLIENT_ID / AZURE_CLIENT_SECRET, the Azure CLI's sign-in). This
 * module loads the Azure SDK: the face imports it only when a GPU source is first used.
 */
export function azureGpu(config: Config, settings: AzureClientSettings = {}): ProviderGpu {
  const credential = settings.credential ?? new DefaultAzureCredential();
  const transport = {
    ...(settings.httpClient ? { httpClient: settings.httpClient } : {}),
    retryOptions: { maxRetries: MAX_RETRIES },
  };
  const clientFor = onePer(
    (subscriptionId) =>
      new ComputeManagementClient(credential, subscriptionId, {
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        ...transport,
      }),
  );
  const polling = settings.pollIntervalMs ? { pollIntervalMs: settings.pollIntervalMs } : {};
  const port = new AzureVmPort({ clientFor, ...polling });
  const spot = new AzureSpotPort({ clientFor, ...polling });
  const resolveTeam = teamResolver(config.teams);
  const inventories = config.gpu.inventory.flatMap((entry) =>
    entry.type === 'azure'
      ? [
          inventorySource(
            entry,
            new AzureVmInventory({ subscriptions: entry.subscriptions, tagKeys: config.ownership.tagKeys, resolveTeam, clientFor }),
          ),
        ]
      : [],
  );
  const metricsClientFor = onePer(
    (region) =>
      new MetricsClient(settings.metricsEndpoint?.(region) ?? `https://${region}.metrics.monitor.azure.com`, credential, transport),
  );
  return {
    metrics: (source) => {
      if (source.type !== 'azure-monitor') throw new Error(`not an Azure Monitor source: ${source.type}`);
      const vms = new AzureVmInventory({ subscriptions: source.subscriptions, tagKeys: config.ownership.tagKeys, resolveTeam, clientFor });
      const monitor = new AzureMonitorGpuSource({
        id: metricsSourceId(source),
        namespace: source.namespace,
        vms: () => vms.list(),
        clientFor: metricsClientFor,
      });
      return new RollingWindowMetrics(monitor, { overlapSeconds: MONITOR_OVERLAP_SECONDS });
    },
    inventories,
    portOf: (instance) => (instance.provider === 'azure' && !instance.kubernetes ? port : undefined),
    spotPortOf: (instance) => (instance.provider === 'azure' && !instance.kubernetes ? spot : undefined),
    spotPortAt: (place) => (place === AZURE_SPOT_PLACE ? spot : undefined),
  };
}

/** One client per key (a subscription, a region), made when first asked for and kept. */
function onePer<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}
