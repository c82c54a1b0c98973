import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client';
import { packageVersion } from '../config/package-version.js';

/**
 * What every Prometheus client exposes and operators' dashboards expect: the process's CPU, memory,
 * file descriptors and start time, Node.js's heap, event-loop lag and GC (prom-client's defaults,
 * `process_*` and `nodejs_*`), and `burnrate_build_info{version,node_version} 1`, so a dashboard
 * shows which release runs where and an alert can join on it.
 */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  const info = new Gauge({
    name: 'burnrate_build_info',
    help: 'Always 1; its labels say which burnrate release and which Node.js version this process runs',
    labelNames: ['version', 'node_version'],
    registers: [registry],
  });
  info.set({ version: packageVersion(), node_version: process.versions.node }, 1);
}
