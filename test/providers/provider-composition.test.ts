import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/actions/index.js';
import { configSchema } from '../../src/config/schema.js';
import { BurnrateError } from '../../src/domain/errors.js';
import type { GpuInstance } from '../../src/domain/gpu-inventory.js';
import type { InstanceActionPort } from '../../src/ports/instance-port.js';
import { buildConfiguredGpu } from '../../src/providers/configured-gpu.js';
import type { Provider } from '../../src/providers/provider.js';
import { providerPermissions } from '../../src/providers/registry.js';

/** A GPU machine as an inventory lists it. */
function machine(instanceId: string, provider: GpuInstance['provider']): GpuInstance {
  return {
    instanceId,
    name: instanceId,
    provider,
    region: 'europe-west4',
    instanceType: 'a2-highgpu-1g',
    gpuModel: 'A100',
    gpuCount: 1,
    gpuMemoryGiB: 40,
    hourlyPrice: 3.67,
    lifecycle: 'on-demand',
    team: 'ml',
    ownerTag: 'ml',
    workload: 'training',
    protected: false,
    owner: null,
    tags: {},
  };
}

/** An instance port standing for a provider's own: the composition only has to hand it the right instances. */
function portOf(provider: string): InstanceActionPort {
  return {
    provider,
    describe: async (ids) => ids.map((id) => ({ id, state: 'running' as const, tags: {} })),
    stop: async (id) => ({ id, outcome: 'stopped', previousState: 'running', detail: '' }),
  };
}

describe('a provider added to the registry', () => {
  it("lists its instance port's permissions under its own name, for every button that stops through that port", () => {
    const azure: Provider = {
      id: 'azure',
      configTypes: {},
      portPermissions: { instances: ['Microsoft.Compute/virtualMachines/deallocate/action'] },
    };
    // Independently: the buttons that declare the instances port, in the registry's order.
    const stoppers = ACTIONS.filter((action) => action.ports?.includes('instances')).map((action) => action.id);
    expect(stoppers.length).toBeGreaterThan(0);

    const rows = providerPermissions(ACTIONS, [azure]);

    expect(rows).toEqual([
      {
        cloud: 'azure',
        permission: 'Microsoft.Compute/virtualMachines/deallocate/action',
        resource: '*',
        usedBy: `chat button${stoppers.length > 1 ? 's' : ''} ${stoppers.join(', ')}`,
        when: 'to act from chat (actions.enabled: true)',
      },
    ]);
  });

  it('lists its machines, and its port is the one that stops its own instances, and only those', async () => {
    const config = configSchema.parse({
      sources: [],
      teams: [{ id: 'ml', name: 'ML' }],
      gpu: { metrics: [{ type: 'prometheus', url: 'http://127.0.0.1:9' }], inventory: [{ type: 'ec2', regions: ['eu-west-1'] }] },
    });
    const gcpPort = portOf('gcp');
    const gcpLike: Provider = {
      id: 'gcp-test',
      configTypes: { metrics: ['prometheus'], inventory: ['ec2'] },
      gpu: async () => ({
        metrics: (entry) => ({ id: `test-${entry.type}`, type: entry.type, fetch: async () => [] }),
        inventories: [{ entry: config.gpu.inventory[0]!, list: async () => [machine('vm-1', 'gcp'), machine('vm-2', 'gcp')] }],
        portOf: (instance) => (instance.provider === 'gcp' ? gcpPort : undefined),
      }),
    };

    const gpu = await buildConfiguredGpu(config, new Map(), [gcpLike]);
    const listed = (await gpu.inventory()).instances;

    expect(gpu.metrics.map((m) => m.id)).toEqual(['test-prometheus']);
    expect(listed.map((i) => i.instanceId)).toEqual(['vm-1', 'vm-2']);
    expect(gpu.portOf(listed[0]!)).toBe(gcpPort);
    expect(gpu.portOf(machine('i-0aws', 'aws'))).toBeUndefined();
    expect(gpu.workloads).toBeUndefined();
  });

  it("reads each provider's inventory on its own: one that fails is named with its error, the other's machines are listed", async () => {
    const config = configSchema.parse({
      sources: [],
      teams: [{ id: 'ml', name: 'ML' }],
      gpu: {
        metrics: [{ type: 'prometheus', url: 'http://127.0.0.1:9' }],
        inventory: [
          { type: 'gce', projects: ['ml-prod'] },
          { type: 'azure', subscriptions: ['00000000-0000-4000-8000-000000000001'] },
        ],
      },
    });
    const [gce, azure] = config.gpu.inventory;
    // The first also reads the metrics: each `gpu.metrics` entry needs a provider.
    const providerOf = (id: string, list: () => Promise<GpuInstance[]>, entry: typeof gce): Provider => ({
      id,
      configTypes: { inventory: [entry!.type], ...(id === 'gcp-test' ? { metrics: ['prometheus' as const] } : {}) },
      gpu: async () => ({
        metrics: (source) => ({ id: `test-${source.type}`, type: source.type, fetch: async () => [] }),
        inventories: [{ entry: entry!, list }],
      }),
    });
    const outage = new BurnrateError('burnrate_azure_unreachable', 'Azure Resource Manager is unreachable (ECONNRESET).', undefined, 1);
    const gpu = await buildConfiguredGpu(config, new Map(), [
      providerOf('gcp-test', async () => [machine('vm-1', 'gcp')], gce),
      providerOf(
        'azure-test',
        async () => {
          throw outage;
        },
        azure,
      ),
    ]);

    expect(await gpu.inventory()).toEqual({
      instances: [machine('vm-1', 'gcp')],
      unavailable: [
        { source: 'azure (00000000-0000-4000-8000-000000000001)', error: 'Azure Resource Manager is unreachable (ECONNRESET).' },
      ],
    });
  });
});
