import type { GpuInventorySourceConfig } from '../config/gpu-sources-schema.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';

/** One `gpu.inventory` entry's machines: read on its own, so its failure loses only its own machines. */
export interface InventorySource {
  entry: GpuInventorySourceConfig;
  list(): Promise<GpuInstance[]>;
}

/** How a `gpu.inventory` entry is named where it cannot be read: its type and where it reads, as burnrate.yml says them. */
export function inventorySourceName(entry: GpuInventorySourceConfig): string {
  const where =
    entry.type === 'ec2' || entry.type === 'sagemaker-studio'
      ? entry.regions
      : entry.type === 'gce'
        ? entry.projects
        : entry.type === 'azure'
          ? entry.subscriptions
          : [entry.cluster];
  return `${entry.type} (${where.join(', ')})`;
}

/** An entry and the reader of its machines (an inventory class), as one source. */
export function inventorySource(entry: GpuInventorySourceConfig, reader: { list(): Promise<GpuInstance[]> }): InventorySource {
  return { entry, list: () => reader.list() };
}
