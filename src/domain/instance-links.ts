import type { GpuInstance } from './gpu-inventory.js';

/** A page about an instance: its cloud console, its GPU dashboard. */
export interface InstanceLink {
  label: string;
  url: string;
}

/**
 * A resource a cloud console link is asked for: its id as the bill or the inventory gives it, and
 * what the data says beside it (the region, the name): some consoles need them to find it.
 */
export interface ConsoleTarget {
  id: string;
  region?: string | null;
  name?: string | null;
}

/**
 * The DCGM dashboard of `links.grafana` (a URL template with {instance}, {host} and {gpu}; an alert
 * is about a whole instance, so {gpu} is "All", Grafana's word for every value). The cloud's console
 * page of the instance comes from its provider (`consoleLinkOf` in providers/registry.ts).
 */
export function dashboardLink(
  instance: Pick<GpuInstance, 'instanceId' | 'hostNames'>,
  grafana: string | undefined,
): InstanceLink | undefined {
  if (!grafana) return undefined;
  const values: Record<string, string> = {
    instance: instance.instanceId,
    host: instance.hostNames?.[0] ?? instance.instanceId,
    gpu: 'All',
  };
  return {
    label: 'GPU dashboard',
    url: grafana.replace(/\{(instance|host|gpu)\}/g, (_, key: string) => encodeURIComponent(values[key]!)),
  };
}
