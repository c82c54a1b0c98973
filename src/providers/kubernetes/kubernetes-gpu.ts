import { loadPriceCatalog } from '../../catalog/price-catalog.js';
import type { KubernetesInventoryConfig } from '../../config/gpu-sources-schema.js';
import type { Config } from '../../config/schema.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { isKubernetesNode, namespaceTeamsOf } from '../../domain/kubernetes.js';
import { teamResolver } from '../../domain/ownership.js';
import type { ProviderGpu } from '../provider.js';
import { ClusterInventoryReader } from './cluster-inventory.js';
import { ClusterReads } from './cluster-reads.js';
import { kubeConfigOf } from './kube-config.js';
import { KubeWorkloadPort } from './kube-workload-port.js';
import { WorkloadInstancePort } from './workload-instance-port.js';
import { clusterReadOf, nodeInstanceIds, stoppableNodes, workloadInstances } from './workload-instances.js';

/**
 * The clusters of `gpu.inventory`: their GPU workloads as instances laid over the machines the
 * other inventories list, Stop, Resume and Keep of those workloads, and each cluster's read.
 */
export function kubernetesGpu(config: Config): ProviderGpu {
  const resolveTeam = teamResolver(config.teams);
  const clusters = config.gpu.inventory.flatMap((source) =>
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
    overlay: async (machinesRead) => {
      const [machines, read] = await Promise.all([machinesRead, Promise.all(readers.map(readCluster))]);
      // A cluster's GPU nodes are its workloads' hosts: never listed as instances, so never stopped
      // whole, except a node one team may stop whole (stoppableNodes), listed as that team's
      // instance in place of its pods: only from a fresh read, and only where the inventory lists it.
      // While a cluster has never answered its nodes are unknown: every instance that says it is
      // a Kubernetes node is held out until it does.
      const listed = new Set(machines.map((i) => i.instanceId));
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
      const instances: GpuInstance[] = machines
        .filter((i) => !nodes.has(i.instanceId) && !(unknownNodes && isKubernetesNode(i.tags)))
        .map((i) => (whole.has(i.instanceId) ? { ...i, team: whole.get(i.instanceId)!.team } : i));
      return [...instances, ...kube];
    },
    portOf: (instance) => (instance.kubernetes ? workloads : undefined),
    workloads: workloadPort,
    clusters: async () =>
      (await Promise.all(readers.map(readCluster))).map(({ source, read, fresh, unanswered }) =>
        clusterReadOf(read, { fresh, unanswered, context: contextOf(source), teamIds: config.teams.map((t) => t.id) }),
      ),
  };
}
