import type { Config } from '../config/schema.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { InventoryRead, UnreadInventory } from '../domain/inventory-read.js';
import { isBurnrateError } from '../domain/errors.js';
import { inventorySourceName, type InventorySource } from './inventory-source.js';
import type { GpuMetricsSource } from '../ports/gpu-metrics-source.js';
import type { InstanceActionPort } from '../ports/instance-port.js';
import type { SpotMigrationPort } from '../ports/spot-port.js';
import type { ClusterRead } from '../ports/cluster-read.js';
import type { WorkloadPort } from '../ports/workload-port.js';
import type { Provider, ProviderGpu } from './provider.js';

/** The GPU parts `gpu.metrics` and `gpu.inventory` describe, every provider's together. */
export interface ConfiguredGpu {
  metrics: GpuMetricsSource[];
  /** Every source's machines, each read on its own: one that fails is named in `unavailable`, the others' machines are listed. */
  inventory(): Promise<InventoryRead>;
  /** The port that stops this instance (its provider and region), from the latest inventory. */
  portOf(instance: GpuInstance): InstanceActionPort | undefined;
  /** The port that moves this instance's launch template to spot: its provider's, in its region. */
  spotPortOf(instance: GpuInstance): SpotMigrationPort | undefined;
  /** The spot port a migration was recorded with (`aws:<region>`). */
  spotPortAt(place: string): SpotMigrationPort | undefined;
  /** Stop, Resume and Keep of the clusters' workloads; absent without a provider that has workloads. */
  workloads?: WorkloadPort;
  /** Each cluster as read now (the last good read where it does not answer). */
  clusters(): Promise<ClusterRead[]>;
}

/**
 * The GPU parts of the providers burnrate.yml names, composed: each `gpu.metrics` entry's source
 * (in the file's order), every provider's machines with the overlays (a cluster's workloads) laid
 * over them, and each instance's stop and spot port from the provider that claims it. Every
 * metrics source keeps its window in memory and fetches only new samples (RollingWindowMetrics).
 * Loading the parts loads cloud SDKs, seconds of start-up time: gpu-registry.ts calls this only
 * when a GPU source is first used.
 */
export async function buildConfiguredGpu(
  config: Config,
  tokens: ReadonlyMap<string, string>,
  providers: readonly Provider[],
): Promise<ConfiguredGpu> {
  const { metrics, inventory } = config.gpu;
  const used = providers.filter(
    (p) => metrics.some((m) => p.configTypes.metrics?.includes(m.type)) || inventory.some((i) => p.configTypes.inventory?.includes(i.type)),
  );
  const parts = new Map<Provider, ProviderGpu>(await Promise.all(used.map(async (p) => [p, await p.gpu!(config, tokens)] as const)));
  const all = [...parts.values()];
  const first = <T>(pick: (gpu: ProviderGpu) => T | undefined): T | undefined => {
    for (const gpu of all) {
      const found = pick(gpu);
      if (found) return found;
    }
    return undefined;
  };
  const metricsOf = (entry: (typeof metrics)[number]) => {
    const provider = used.find((p) => p.configTypes.metrics?.includes(entry.type))!;
    return parts.get(provider)!.metrics!(entry);
  };
  // Each source's machines as last read: who to tell while it does not answer.
  const lastReads = new Map<InventorySource, UnreadInventory['lastRead']>();
  return {
    metrics: metrics.map(metricsOf),
    inventory: async () => {
      const reads = Promise.all(all.flatMap((gpu) => gpu.inventories ?? []).map((source) => readSource(source, lastReads)));
      const machines = reads.then((settled) => settled.flatMap((r) => ('instances' in r ? r.instances : [])));
      const [instances, settled] = await Promise.all([all.reduce((listed, gpu) => gpu.overlay?.(listed) ?? listed, machines), reads]);
      return { instances, unavailable: settled.flatMap((r) => ('unread' in r ? [r.unread] : [])) };
    },
    portOf: (instance) => first((gpu) => gpu.portOf?.(instance)),
    spotPortOf: (instance) => first((gpu) => gpu.spotPortOf?.(instance)),
    spotPortAt: (place) => first((gpu) => gpu.spotPortAt?.(place)),
    workloads: first((gpu) => gpu.workloads),
    clusters: async () => (await Promise.all(all.map((gpu) => gpu.clusters?.() ?? []))).flat(),
  };
}

/**
 * One source's machines, or why it could not be read. Each inventory explains its cloud's errors
 * (the IAM action to allow, the credential to check; secrets already redacted by its provider's
 * translation); anything else is a failure to answer, named as such. Retries are the clients' own.
 */
async function readSource(
  source: InventorySource,
  lastReads: Map<InventorySource, UnreadInventory['lastRead']>,
): Promise<{ instances: GpuInstance[] } | { unread: UnreadInventory }> {
  try {
    const instances = await source.list();
    lastReads.set(
      source,
      instances.map((i) => ({ instanceId: i.instanceId, team: i.team })),
    );
    return { instances };
  } catch (error) {
    const text = isBurnrateError(error) ? error.message : `did not answer: ${(error as Error).message}`;
    const lastRead = lastReads.get(source);
    return { unread: { source: inventorySourceName(source.entry), error: text, ...(lastRead ? { lastRead } : {}) } };
  }
}
