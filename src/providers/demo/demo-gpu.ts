import type { Config, SourceConfig } from '../../config/schema.js';
import { teamResolver } from '../../domain/ownership.js';
import { launchTemplateOf } from '../../ports/spot-port.js';
import type { ProviderFleet } from '../provider.js';
import { DemoCluster } from './demo-cluster.js';
import { demoFleet } from './demo-fleet.js';
import { DemoGpuMetrics } from './demo-gpu-metrics.js';
import { DemoInstancePort } from './demo-instance-port.js';
import { demoInventory } from './demo-inventory.js';
import { DemoSpotPort } from './demo-spot-port.js';

/**
 * The demo organisation's GPU fleet: its metrics, inventory, an in-memory port with every instance
 * running, in-memory launch templates for spot migrations, and with `cluster` a Kubernetes cluster.
 */
export function demoGpu(demo: Extract<SourceConfig, { type: 'demo' }>, config: Config): ProviderFleet {
  const fleet = demoFleet(demo.seed);
  const inventory = demoInventory(demo.seed, teamResolver(config.teams), { fleet, tagKeys: config.ownership.tagKeys });
  const spot = new DemoSpotPort([...new Set(inventory.map((i) => launchTemplateOf(i.tags)).filter((t): t is string => t !== null))]);
  const instances = new DemoInstancePort(inventory.map((i) => ({ id: i.instanceId, state: 'running', tags: { ...i.tags } })));
  return {
    metrics: [new DemoGpuMetrics({ seed: demo.seed, fleet, ...(demo.id ? { id: demo.id } : {}) })],
    list: inventory,
    instances,
    spot,
    historyDays: demo.days,
    ...(demo.cluster ? { cluster: new DemoCluster(demo.seed) } : {}),
  };
}
