import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { EC2Client } from '@aws-sdk/client-ec2';
import { Ec2InstancePort } from './aws/ec2/ec2-instance-port.js';
import type { InstanceActionPort } from '../ports/instance-port.js';
import { Ec2SpotPort, regionOfEc2SpotPlace } from './aws/ec2/ec2-spot-port.js';
import type { SpotMigrationPort } from '../ports/spot-port.js';
import { metricsSourceId, type GpuMetricsSourceConfig, type KubernetesInventoryConfig } from '../config/gpu-sources-schema.js';
import type { Config } from '../config/schema.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuMetricsSource } from '../ports/gpu-metrics-source.js';
import { teamResolver } from '../domain/ownership.js';
import { CloudWatchGpuSource } from './aws/cloudwatch/cloudwatch-source.js';
import { Ec2GpuInventory } from './aws/ec2/ec2-gpu-inventory.js';
import { PrometheusGpuSource } from './prometheus/prometheus-source.js';
import { RollingWindowMetrics } from './rolling-window-metrics.js';
import { KubeWorkloadPort } from './kubernetes/kube-workload-port.js';
import { WorkloadInstancePort } from './kubernetes/workload-instance-port.js';
import { loadPriceCatalog } from '../catalog/price-catalog.js';
import { namespaceTeamsOf } from '../domain/kubernetes.js';
import { ClusterInventoryReader } from './kubernetes/cluster-inventory.js';
import { kubeConfigOf } from './kubernetes/kube-config.js';
import { clusterReadOf, nodeInstanceIds, stoppableNodes, workloadInstances } from './kubernetes/workload-instances.js';
import { ClusterReads } from './kubernetes/cluster-reads.js';
import { isKubernetesNode } from '../domain/kubernetes.js';
import type { ClusterRead } from '../ports/cluster-read.js';
import type { WorkloadPort } from '../ports/workload-port.js';

/** Attempts per AWS call, throttling retries included. */
const AWS_MAX_ATTEMPTS = 3;

/** CloudWatch agent datapoints land a minute or two after their period: read the last 3 minutes again. */
const CLOUDWATCH_OVERLAP_SECONDS = 180;

/** The GPU parts `gpu.metrics` and `gpu.inventory` describe. */
export interface ConfiguredGpu {
  metrics: GpuMetricsSource[];
  inventory(): Promise<GpuInstance[]>;
  /** The port that stops this instance (its provider and region), from the latest inventory. */
  portOf(instance: GpuInstance): InstanceActionPort | undefined;
  /** The port that moves this instance's launch template to spot: EC2 in its region. */
  spotPortOf(instance: GpuInstance): SpotMigrationPort | undefined;
  /** The spot port a migration was recorded with (`aws:<region>`). */
  spotPortAt(place: string): SpotMigrationPort | undefined;
  /** Stop, Resume and Keep of the clusters' workloads. */
  workloads: WorkloadPort;
  /** Each cluster as read now (the last good read where it does not answer). */
  clusters(): Promise<ClusterRead[]>;
}

/** One AWS SDK client per region and service, shared by inventory, metrics, stops and spot migrations. */
function perRegion<T>(make: (region: string) => T): (region: string) => T {
  const made = new Map<string, T>();
  return (region) => {
    let client = made.get(region);
    if (!client) made.set(region, (client = make(region)));
    return client;
  };
}

/**
 * Metrics sources, inventory, stop and spot ports from burnrate.yml. AWS clients use the SDK's own
 * credential chain and endpoint settings (AWS_PROFILE, roles, AWS_ENDPOINT_URL_*); Prometheus
 * tokens come read from the environment already (bearer-tokens.ts), by source id. Every metrics
 * source keeps its window in memory and fetches only new samples (RollingWindowMetrics).
 * This module loads the AWS SDK clients, seconds of start-up time: gpu-registry.ts imports it
 * only when a GPU source is first used.
 */
export function buildConfiguredGpu(config: Config, tokens: ReadonlyMap<string, string>): ConfiguredGpu {
  const { metrics, inventory } = config.gpu;
  const ec2 = perRegion((region) => new EC2Client({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const cloudwatch = perRegion((region) => new CloudWatchClient({ region, maxAttempts: AWS_MAX_ATTEMPTS }));
  const stopPorts = perRegion((region) => new Ec2InstancePort({ region, client: ec2(region) }));
  const spotPorts = perRegion((region) => new Ec2SpotPort({ region, client: ec2(region) }));
  const resolveTeam = teamResolver(config.teams);
  const inventories = inventory.flatMap((source) =>
    source.type === 'ec2'
      ? [new Ec2GpuInventory({ regions: source.regions, tagKeys: config.ownership.tagKeys, resolveTeam, clientFor: ec2 })]
      : [],
  );
  const clusters = inventory.flatMap((source) =>
    source.type === 'kubernetes'
      ? [{ source, config: kubeConfigOf({ name: source.cluster, kubeconfig: source.kubeconfig, context: source.context }) }]
      : [],
  );
  const readers = clusters.map(({ source, config: kube }) => {
    const reader = new ClusterInventoryReader(source.cluster, kube);
    return { source, reads: new ClusterReads(source.cluster, () => reader.read()) };
  });
  const workloadPort = new KubeWorkloadPort(new Map(clusters.map((c) => [c.source.cluster, c.config])), () => new Date());
  const workloads = new WorkloadInstancePort(workloadPort);
  const catalog = loadPriceCatalog();
  const namespaceTeams = namespaceTeamsOf(config.teams);
  const contextOf = (source: KubernetesInventoryConfig) => ({
    catalog,
    resolveTeam,
    namespaceTeams,
    teamLabel: source.teamLabel,
    ownerKey: source.ownerKey,
  });
  const readCluster = async ({ source, reads }: (typeof readers)[number]) => ({ source, ...(await reads.state()) });

  return {
    metrics: metrics.map((source) => metricsSourceOf(source, tokens, cloudwatch)),
    inventory: async () => {
      const [machines, read] = await Promise.all([Promise.all(inventories.map((i) => i.list())), Promise.all(readers.map(readCluster))]);
      // A cluster's GPU nodes are its workloads' hosts: never listed as instances, so never stopped
      // whole, except a node one team may stop whole (stoppableNodes), listed as that team's
      // instance in place of its pods: only from a fresh read, and only where the inventory lists it.
      // While a cluster has never answered its nodes are unknown: every instance that says it is
      // a Kubernetes node is held out until it does.
      const listed = new Set(machines.flat().map((i) => i.instanceId));
      const clustersNow = read.map(({ source, read: r, fresh }) => {
        const context = contextOf(source);
        const whole = new Map([...(fresh ? stoppableNodes(r, context) : [])].filter(([id]) => listed.has(id)));
        const workloads = workloadInstances(r, context, new Set([...whole.values()].map((n) => n.node)));
        return { nodes: nodeInstanceIds(r).filter((id) => !whole.has(id)), whole, workloads };
      });
      const nodes = new Set(clustersNow.flatMap((c) => c.nodes));
      const whole = new Map(clustersNow.flatMap((c) => [...c.whole]));
      const unknownNodes = read.some((r) => r.unanswered && !r.unanswered.lastGoodAt);
      const kube = clustersNow.flatMap((c) => c.workloads);
      const instances = machines
        .flat()
        .filter((i) => !nodes.has(i.instanceId) && !(unknownNodes && isKubernetesNode(i.tags)))
        .map((i) => (whole.has(i.instanceId) ? { ...i, team: whole.get(i.instanceId)!.team } : i));
      return [...instances, ...kube];
    },
    portOf: (instance) => (instance.kubernetes ? workloads : instance.provider === 'aws' ? stopPorts(instance.region) : undefined),
    spotPortOf: (instance) => (instance.provider === 'aws' ? spotPorts(instance.region) : undefined),
    workloads: workloadPort,
    clusters: async () =>
      (await Promise.all(readers.map(readCluster))).map(({ source, read, fresh, unanswered }) =>
        clusterReadOf(read, { fresh, unanswered, context: contextOf(source), teamIds: config.teams.map((t) => t.id) }),
      ),
    spotPortAt: (place) => {
      const region = regionOfEc2SpotPlace(place);
      return region ? spotPorts(region) : undefined;
    },
  };
}

function metricsSourceOf(
  source: GpuMetricsSourceConfig,
  tokens: ReadonlyMap<string, string>,
  cloudwatch: (region: string) => CloudWatchClient,
): GpuMetricsSource {
  const id = metricsSourceId(source);
  if (source.type === 'cloudwatch')
    return new RollingWindowMetrics(
      new CloudWatchGpuSource({ id, region: source.region, namespace: source.namespace, client: cloudwatch(source.region) }),
      {
        overlapSeconds: CLOUDWATCH_OVERLAP_SECONDS,
      },
    );
  return new RollingWindowMetrics(
    new PrometheusGpuSource({ id, url: source.url, bearerToken: tokens.get(id), timeoutMs: source.timeoutSeconds * 1000 }),
  );
}
