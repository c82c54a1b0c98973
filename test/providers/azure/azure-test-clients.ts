import { plainHttpTransport } from '../../support/plain-http-transport.js';
import { FAKE_ARM_TOKEN, type FakeAzureResourceManager } from '../../fakes/fake-azure-resource-manager.js';
import type { FakeAzureMonitorMetrics } from '../../fakes/fake-azure-monitor-metrics.js';
import type { AzureClientSettings } from '../../../src/providers/azure/azure-gpu.js';

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
