import { DemoInstancePort } from '../actions/instance/demo-instance-port.js';
import type { Config } from '../config/schema.js';
import type { GpuDeps } from '../deps.js';
import { teamResolver } from '../domain/ownership.js';
import { demoFleet } from './demo/demo-fleet.js';
import { DemoGpuMetrics } from './demo/demo-gpu-metrics.js';
import { demoInventory } from './demo/demo-inventory.js';

/**
 * GPU metrics, inventory and the instance action port from the configuration. Only the demo is
 * wired so far: a demo source brings its fleet's metrics, inventory and an in-memory instance port
 * (every instance running). Prometheus/CloudWatch metrics and EC2 stops exist as adapters
 * (src/sources/prometheus, src/sources/cloudwatch, src/actions/instance/ec2-instance-port.ts) but
 * have no configuration keys yet; without a demo source this returns undefined.
 */
export function buildGpuDeps(config: Config): GpuDeps | undefined {
  const demo = config.sources.find((s) => s.type === 'demo');
  if (!demo) return undefined;
  const fleet = demoFleet(demo.seed);
  const inventory = demoInventory(demo.seed, teamResolver(config.teams), { fleet, tagKeys: config.ownership.tagKeys });
  return {
    metrics: [new DemoGpuMetrics({ seed: demo.seed, fleet, ...(demo.id ? { id: demo.id } : {}) })],
    inventory: async () => inventory,
    instances: new DemoInstancePort(inventory.map((i) => ({ id: i.instanceId, state: 'running', tags: { ...i.tags } }))),
  };
}
