import { ComputeManagementClient, type ComputeManagementClientOptionalParams } from '@azure/arm-compute';
import { DefaultAzureCredential } from '@azure/identity';
import type { Config } from '../../config/schema.js';
import { teamResolver } from '../../domain/ownership.js';
import type { ProviderGpu } from '../provider.js';
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
}

/** Attempts per ARM call: throttled (429, waiting its Retry-After) and failed calls are retried by the SDK. */
const MAX_RETRIES = 3;

/**
 * The Azure VM inventory and its stop port, one Compute client per subscription shared by both.
 * Credentials: DefaultAzureCredential (managed identity, workload identity, a service principal
 * from AZURE_TENANT_ID / AZURE_CLIENT_ID / AZURE_CLIENT_SECRET, the Azure CLI's sign-in). This
 * module loads the Azure SDK: the face imports it only when a GPU source is first used.
 */
export function azureGpu(config: Config, settings: AzureClientSettings = {}): ProviderGpu {
  const credential = settings.credential ?? new DefaultAzureCredential();
  const clients = new Map<string, ComputeManagementClient>();
  const clientFor = (subscriptionId: string) => {
    let client = clients.get(subscriptionId);
    if (!client)
      clients.set(
        subscriptionId,
        (client = new ComputeManagementClient(credential, subscriptionId, {
          ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
          ...(settings.httpClient ? { httpClient: settings.httpClient } : {}),
          retryOptions: { maxRetries: MAX_RETRIES },
        })),
      );
    return client;
  };
  const port = new AzureVmPort({ clientFor, ...(settings.pollIntervalMs ? { pollIntervalMs: settings.pollIntervalMs } : {}) });
  const resolveTeam = teamResolver(config.teams);
  const inventories = config.gpu.inventory.flatMap((source) =>
    source.type === 'azure'
      ? [new AzureVmInventory({ subscriptions: source.subscriptions, tagKeys: config.ownership.tagKeys, resolveTeam, clientFor })]
      : [],
  );
  return {
    machines: async () => (await Promise.all(inventories.map((i) => i.list()))).flat(),
    portOf: (instance) => (instance.provider === 'azure' && !instance.kubernetes ? port : undefined),
  };
}
