/**
 * node_exporter's host figures, one series per scrape target (`instance`, `10.0.1.23:9100`):
 * vCPUs busy (every mode but idle, summed over CPUs) and memory in use (total less available, as
 * `free` counts it: page cache the kernel can drop is not in use).
 */
export function nodeCpuBusyQuery(stepSeconds: number): string {
  // rate() needs at least two samples in its window: node_exporter is scraped every 15–60 s.
  return `sum by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[${Math.max(300, stepSeconds)}s]))`;
}

export const NODE_MEMORY_USED_QUERY = 'max by (instance) (node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes)';
