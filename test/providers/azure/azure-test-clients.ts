import { plainHttpTransport } from '../../support/plain-http-transport.js';
import { FAKE_ARM_TOKEN, type FakeAzureResourceManager } from '../../fakes/fake-azure-resource-manager.js';
import type { FakeAzureMonitorMetrics } from '../../fakes/fake-azure-monitor-metrics.js';
import type { Config } from '../../../src/config/schema.js';
import type { GpuDeps } from '../../../src/deps.js';
import { azureGpu, type AzureClientSettings } from '../../../src/providers/azure/azure-gpu.js';
import { azure } from '../../../src/providers/azure/index.js';
import { buildConfiguredGpu } from '../../../src/providers/configured-gpu.js';
import type { Provider } from '../../../src/providers/provider.js';
import { RoutedInstancePort } from '../../../src/providers/routed-instance-port.js';

/** A TokenCredential that hands out the fake's token, as Entra would hand out a real one. */
export const staticArmCredential = {
  getToken: async () => ({ token: FAKE_ARM_TOKEN, expiresOnTimestamp: Date.now() + 3_600_000 }),
};

/** The real Azure SDK clients' settings, pointed at a fake ARM (and a fake Azure Monitor) on 127.0.0.1. */
export function fakeArmSettings(arm: FakeAzureResourceManager, monitor?: FakeAzureMonitorMetrics): AzureClientSettings {
  return {
    credential: staticArmCredential,
    endpoint: arm.endpoint,
    httpClient: plainHttpTransport,
    pollIntervalMs: 1,
    ...(monitor ? { metricsEndpoint: (region: string) => monitor.endpointOf(region) } : {}),
  };
}

/**
 * burnrate.yml's GPU parts composed as serve composes them (buildConfiguredGpu over the providers'
 * faces), the Azure face's clients pointed at the fakes with a static token; `others` are the other
 * providers' faces, as they are.
 */
export async function gpuDepsAtFakeAzure(
  config: Config,
  fakes: { arm: FakeAzureResourceManager; monitor?: FakeAzureMonitorMetrics },
  others: readonly Provider[],
): Promise<GpuDeps> {
  const azureAtFake: Provider = { ...azure, gpu: async (c: Config) => azureGpu(c, fakeArmSettings(fakes.arm, fakes.monitor)) };
  const gpu = await buildConfiguredGpu(config, new Map(), [...others, azureAtFake]);
  return {
    metrics: gpu.metrics,
    inventory: gpu.inventory,
    instances: new RoutedInstancePort(async (id) => {
      const instance = (await gpu.inventory()).instances.find((i) => i.instanceId === id);
      return instance ? gpu.portOf(instance) : undefined;
    }),
    spot: { forInstance: async (instance) => gpu.spotPortOf(instance), at: async (place) => gpu.spotPortAt(place) },
  };
}
