import { MetricsClient } from '@azure/monitor-query-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';
import { AzureMonitorGpuSource } from '../../../src/providers/azure/azure-monitor-gpu-source.js';
import { FakeAzureMonitorMetrics } from '../../fakes/fake-azure-monitor-metrics.js';
import { plainHttpTransport } from '../../support/plain-http-transport.js';
import { staticArmCredential } from './azure-test-clients.js';

const SUB = '0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17';
const armId = (name: string) => `/subscriptions/${SUB}/resourceGroups/ND-Train/providers/Microsoft.Compute/virtualMachines/${name}`;
const START = Date.parse('2026-11-18T00:00:00Z') / 1000;

/** An ND VM with 8 GPUs: GPU i busy (90 %) until i hours in, then idle, 2,000 MiB used busy and 300 idle. */
const ND_GPUS = Array.from({ length: 8 }, (_, i) => ({
  vmId: armId('nd-h100-0'),
  region: 'westeurope',
  index: String(i),
  util: (t: number) => (t < START + i * 3600 ? 90 : 0),
  memoryUsedMiB: (t: number) => (t < START + i * 3600 ? 2_000 : 300),
}));

const instance = (name: string, region: string, running = true): GpuInstance =>
  ({ instanceId: armId(name).toLowerCase(), provider: 'azure', region, name, ...(running ? {} : { running: false }) }) as GpuInstance;

let fake: FakeAzureMonitorMetrics | undefined;
afterEach(async () => {
  fake?.assertNoUnexpectedRequests();
  await fake?.close();
  fake = undefined;
});

function sourceOver(vms: GpuInstance[]) {
  return new AzureMonitorGpuSource({
    id: 'azure-monitor',
    namespace: 'Telegraf/nvidia_smi',
    vms: async () => vms,
    clientFor: (region) => new MetricsClient(fake!.endpointOf(region), staticArmCredential, { httpClient: plainHttpTransport }),
  });
}

describe('Azure Monitor GPU metrics source', () => {
  it("reads every GPU of a VM by its index, at Azure Monitor's largest grain within the step, each on its grid slot", async () => {
    fake = await FakeAzureMonitorMetrics.start(ND_GPUS);
    const series = await sourceOver([instance('nd-h100-0', 'westeurope')]).fetch({ start: START, end: START + 8 * 3600, stepSeconds: 600 });
    expect(fake.requests.map((r) => r.query.get('interval'))).toEqual(['PT5M']);
    expect(series.map((s) => s.ref)).toEqual(ND_GPUS.map((g) => ({ host: armId('nd-h100-0').toLowerCase(), gpu: g.index })));
    // GPU 3 was busy for 3 hours: 18 ten-minute slots, then idle; two five-minute averages a slot, the larger kept.
    const gpu3 = series[3]!;
    expect(gpu3.times.length).toBe(48);
    expect([...gpu3.util.slice(0, 18)].every((u) => u === 90)).toBe(true);
    expect([...gpu3.util.slice(18)].every((u) => u === 0)).toBe(true);
    expect(gpu3.memUsedMiB![20]).toBe(300);
  });

  it('asks per region, at most 50 VMs a request, and never about a deallocated VM', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ vmId: armId(`nc-${i}`), region: 'eastus', index: '0', util: () => 5 }));
    fake = await FakeAzureMonitorMetrics.start([...many, ...ND_GPUS]);
    const vms = [
      ...many.map((_, i) => instance(`nc-${i}`, 'eastus')),
      instance('nd-h100-0', 'westeurope'),
      instance('nd-off', 'westeurope', false),
    ];
    const series = await sourceOver(vms).fetch({ start: START, end: START + 3600, stepSeconds: 60 });
    expect(fake.requests.map((r) => [r.region, r.resourceIds.length, r.query.get('interval')])).toEqual([
      ['eastus', 50, 'PT1M'],
      ['eastus', 10, 'PT1M'],
      ['westeurope', 1, 'PT1M'],
    ]);
    expect(series).toHaveLength(68);
  });
});
