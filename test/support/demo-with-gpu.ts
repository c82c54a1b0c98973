import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { testDeps } from './deps.js';

/**
 * The demo organisation with burnrate.yml's `gpu.metrics` and `gpu.inventory` beside the demo
 * fleet, actions on, and any other top-level keys `extra` gives (a `spot` policy, say); the
 * caller builds its GPU parts.
 */
export function demoWithGpu(gpu: { metrics: object[]; inventory: object[] }, now: string, extra: Record<string, unknown> = {}) {
  const config = demoConfig() as unknown as Record<string, unknown>;
  return testDeps({ ...config, gpu: { ...(config.gpu as object), ...gpu }, actions: { enabled: true }, ...extra }, now);
}
