import type { InstanceActionPort } from '../ports/instance-port.js';
import { RoutedInstancePort } from './routed-instance-port.js';
import type { SpotMigrationPort, SpotPorts } from '../ports/spot-port.js';
import type { Config } from '../config/schema.js';
import type { GpuDeps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import { unreadInventoryError, type InventoryRead } from '../domain/inventory-read.js';
import { teamResolver } from '../domain/ownership.js';
import { metricsSourceId } from '../config/metrics-source-id.js';
import type { GpuMetricsSource } from '../ports/gpu-metrics-source.js';
import { readBearerTokens } from './bearer-tokens.js';
import type { ConfiguredGpu } from './configured-gpu.js';
import { WorkloadInstancePort } from './kubernetes/workload-instance-port.js';
import { loadPriceCatalog } from '../catalog/price-catalog.js';
import { namespaceTeamsOf, workloadRefOf } from '../domain/kubernetes.js';
import { clusterReadOf, workloadInstances } from './kubernetes/workload-instances.js';
import { PROVIDERS, sourceFleet } from './registry.js';
import type { FleetCluster } from './provider.js';

/**
 * GPU metrics, inventory and the instance action port from the configuration: the demo source's
 * fleet (its metrics, inventory, an in-memory port, every instance running, and in-memory launch
 * templates for spot migrations), and the sources
 * of `gpu.metrics` and `gpu.inventory`. With both, the inventories are joined and each stop and
 * each spot migration goes to the port of the instance's source and region: the demo's for a demo
 * instance, EC2 in the instance's region for one of `gpu.inventory`. Undefined when no GPU source
 * is configured.
 */
export function buildGpuDeps(config: Config, env: NodeJS.ProcessEnv = process.env): GpuDeps | undefined {
  const demo = buildDemoGpu(config);
  if (config.gpu.metrics.length === 0 && config.gpu.inventory.length === 0) return demo;
  const tokens = readBearerTokens(config.gpu.metrics, env);
  // The AWS SDK clients take seconds to load: only when a GPU source is first used, not at every start of the CLI.
  let loading: Promise<ConfiguredGpu> | undefined;
  const configured = () => (loading ??= import('./configured-gpu.js').then((m) => m.buildConfiguredGpu(config, tokens, PROVIDERS)));

  // Where each instance of the latest inventory is stopped; refreshed on every inventory read. While
  // a source does not answer, the ports of the machines read before are kept: they are unknown, not gone.
  let ports = new Map<string, InstanceActionPort>();
  const inventory = async (): Promise<InventoryRead> => {
    const gpu = await configured();
    const [demoRead, configuredRead] = await Promise.all([demo?.inventory(), gpu.inventory()]);
    const demoList = demoRead?.instances ?? [];
    const next = new Map<string, InstanceActionPort>(configuredRead.unavailable.length > 0 ? ports : []);
    for (const instance of demoList) next.set(instance.instanceId, demo!.instances);
    for (const instance of configuredRead.instances) {
      const port = gpu.portOf(instance);
      if (port) next.set(instance.instanceId, port);
    }
    ports = next;
    return { instances: [...demoList, ...configuredRead.instances], unavailable: configuredRead.unavailable };
  };
  const locate = async (id: string) => {
    if (ports.has(id)) return ports.get(id);
    // Not seen yet (a Stop right after a restart): read it again. Still missing while a source does
    // not answer, it may be that source's: refused as worth a retry, not as an unknown instance.
    const { unavailable } = await inventory();
    if (!ports.has(id) && unavailable.length > 0) throw unreadInventoryError(id, unavailable);
    return ports.get(id);
  };
  const metrics = config.gpu.metrics.map(
    (source, index): GpuMetricsSource => ({
      id: metricsSourceId(source),
      type: source.type,
      fetch: async (range) => (await configured()).metrics[index]!.fetch(range),
      fetchInstances: async (range, instances) => {
        const source = (await configured()).metrics[index]!;
        return source.fetchInstances ? source.fetchInstances(range, instances) : source.fetch(range);
      },
      hostPeaks: async (range, instanceIds) => (await configured()).metrics[index]!.hostPeaks?.(range, instanceIds) ?? [],
    }),
  );
  const demoSpot = demo ? { port: demo.spotPort, instanceIds: new Set(demo.list.map((i) => i.instanceId)) } : undefined;
  return {
    metrics: [...(demo?.metrics ?? []), ...metrics],
    inventory,
    instances: new RoutedInstancePort(locate),
    spot: routedSpotPorts(demoSpot, configured),
    ...(config.gpu.inventory.some((source) => PROVIDERS.some((p) => p.workloads && p.configTypes.inventory?.includes(source.type)))
      ? {
          workloads: {
            stop: async (ref, options) => (await configured()).workloads!.stop(ref, options),
            resume: async (ref, options) => (await configured()).workloads!.resume(ref, options),
            keep: async (ref, until, by) => (await configured()).workloads!.keep(ref, until, by),
          },
          clusters: async () => (await configured()).clusters(),
        }
      : {}),
  };
}

type FleetGpu = GpuDeps & { list: readonly GpuInstance[]; spotPort: SpotMigrationPort };

/** The fleet a `sources` entry brings (the demo organisation's), as GPU parts. */
function buildDemoGpu(config: Config): FleetGpu | undefined {
  const fleet = sourceFleet(config);
  if (!fleet) return undefined;
  const gpu: FleetGpu = {
    metrics: fleet.metrics,
    inventory: async () => ({ instances: fleet.list, unavailable: [] }),
    instances: fleet.instances,
    spot: routedSpotPorts({ port: fleet.spot, instanceIds: new Set(fleet.list.map((i) => i.instanceId)) }),
    list: fleet.list,
    spotPort: fleet.spot,
  };
  return fleet.cluster ? withDemoCluster(gpu, fleet.cluster, config, fleet.historyDays) : gpu;
}

/**
 * The demo fleet and the demo's Kubernetes cluster together: its workloads are GPU instances too
 * (priced at their share of their nodes), Stop on one scales it in the cluster, and its usage
 * history reaches back over the demo's days.
 */
function withDemoCluster(gpu: FleetGpu, cluster: FleetCluster, config: Config, days: number): FleetGpu {
  const context = {
    catalog: loadPriceCatalog(),
    resolveTeam: teamResolver(config.teams),
    namespaceTeams: namespaceTeamsOf(config.teams),
    teamLabel: 'team',
    ownerKey: 'owner',
  };
  const workloadPort = new WorkloadInstancePort(cluster.workloads);
  const machines = gpu.instances;
  const list = async () => ({ instances: [...gpu.list, ...workloadInstances(cluster.inventory(), context)], unavailable: [] });
  return {
    ...gpu,
    metrics: [...gpu.metrics, cluster.metrics],
    inventory: list,
    instances: new RoutedInstancePort(async (id) => (workloadRefOf(id) ? workloadPort : machines)),
    workloads: cluster.workloads,
    clusters: async () => [
      clusterReadOf(cluster.inventory(), { fresh: true, context, teamIds: config.teams.map((t) => t.id), historyDays: days }),
    ],
  };
}

/**
 * Spot ports by source: a demo instance's launch template is the demo's, any other instance's is
 * its cloud's (EC2 in its region), so an EC2 instance never hears of the demo's templates.
 */
function routedSpotPorts(
  demo: { port: SpotMigrationPort; instanceIds: ReadonlySet<string> } | undefined,
  configured?: () => Promise<ConfiguredGpu>,
): SpotPorts {
  return {
    forInstance: async (instance) => {
      if (demo?.instanceIds.has(instance.instanceId)) return demo.port;
      return configured ? (await configured()).spotPortOf(instance) : undefined;
    },
    at: async (place) => {
      if (demo && place === demo.port.place) return demo.port;
      return configured ? (await configured()).spotPortAt(place) : undefined;
    },
  };
}
