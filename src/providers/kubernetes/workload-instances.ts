import { workloadOf as workloadFromTags, type GpuInstance, type GpuWorkload } from '../../domain/gpu-inventory.js';
import {
  ANNOTATIONS,
  capacityOf,
  isProtected,
  workloadKey,
  WORKLOAD_ID_PREFIX,
  type ClusterInventory,
  type GpuNode,
  type GpuPod,
  type WorkloadKind,
} from '../../domain/kubernetes.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import type { ClusterRead } from '../../ports/cluster-read.js';
import { notebookPlatformOf } from './notebook-platforms.js';
import { UNMAPPED, UNTAGGED } from '../../domain/spend.js';

export interface WorkloadContext {
  catalog: PriceCatalog;
  /** A team id, UNTAGGED or UNMAPPED for a label value (the teams' ids and `match` names). */
  resolveTeam: (value: string | null | undefined) => string;
  /** teams[].gpu.namespaces: namespace → team id. */
  namespaceTeams: ReadonlyMap<string, string>;
  teamLabel: string;
  ownerKey: string;
}

/**
 * The cluster's GPU workloads as GPU instances, so the idle check, its alerts and their buttons
 * treat a workload like a machine: its price is its share of each node it runs on (the GPUs its
 * pods hold over the node's GPUs, MIG slices at their share) times the node's list price (the bill's
 * rate replaces it where the node is on the bill, see billed-rates.ts); its team is the one
 * claiming its namespace (`teams[].gpu.namespaces`), else the namespace's team label; it is
 * protected when the workload or its namespace says so, or when it is a bare pod (never deleted).
 * Nodes are not instances: stopping a shared node would stop other teams' pods. The pods of a node
 * one team may stop whole (`wholeNodes`, by name: see stoppableNodes) are that node's, which is
 * listed as the instance instead.
 */
export function workloadInstances(
  inventory: ClusterInventory,
  context: WorkloadContext,
  wholeNodes: ReadonlySet<string> = new Set(),
): GpuInstance[] {
  const nodes = new Map(inventory.nodes.map((n) => [n.name, n]));
  const namespaces = new Map(inventory.namespaces.map((n) => [n.name, n]));
  const byWorkload = new Map<string, GpuPod[]>();
  for (const pod of inventory.pods) {
    if (!pod.node || !nodes.has(pod.node) || wholeNodes.has(pod.node)) continue;
    const key = workloadKey(pod.workload);
    byWorkload.set(key, [...(byWorkload.get(key) ?? []), pod]);
  }
  const out: GpuInstance[] = [];
  for (const [key, pods] of byWorkload) {
    const { workload: ref, namespace } = pods[0]!;
    const ns = namespaces.get(namespace);
    const annotations = inventory.workloadAnnotations.get(key) ?? {};
    const shares = new Map<string, number>();
    for (const pod of pods) shares.set(pod.node!, (shares.get(pod.node!) ?? 0) + pod.gpus);
    const placed = [...shares].map(([name, gpus]) => {
      const node = nodes.get(name)!;
      return { node, share: gpus / capacityOf(node), price: priceOf(node, context.catalog) };
    });
    const first = placed[0]!;
    const labels = pods[0]!.labels;
    const teamLabel = ns?.labels[context.teamLabel] ?? null;
    const team = namespaceTeam(context, namespace, ns?.labels ?? {});
    const gpus = pods.reduce((sum, p) => sum + p.gpus, 0);
    const keepUntil = annotations[ANNOTATIONS.keepUntil] ? new Date(annotations[ANNOTATIONS.keepUntil]!) : null;
    const notebook = notebookPlatformOf(ref, labels, inventory.kubeflowCulling);
    out.push({
      instanceId: `${WORKLOAD_ID_PREFIX}${key}`,
      name: `${namespace}/${ref.name}`,
      provider: first.node.provider ?? 'aws',
      region: first.price?.region ?? regionOf(first.node) ?? 'unknown',
      instanceType: first.node.instanceType ?? 'unknown',
      gpuModel: first.price?.gpuModel ?? 'unknown',
      // Six places, not three: a slice's price per GPU is the price over this (1/7 as 0.143 would be 0.1% off).
      gpuCount: round6(gpus),
      gpuMemoryGiB:
        first.price?.gpuMemoryGiB != null && first.price.gpuCount > 0
          ? round3((first.price.gpuMemoryGiB / first.price.gpuCount) * gpus)
          : null,
      hourlyPrice: round6(placed.reduce((sum, p) => sum + (p.price?.hourly ?? 0) * p.share, 0)),
      ...(placed.some((p) => !p.price) ? { priceNote: 'no list price for some of its nodes: add their type to the catalog' } : {}),
      lifecycle: first.node.capacityType === 'spot' ? 'spot' : 'on-demand',
      team,
      ownerTag: teamLabel,
      workload: workloadKindOf(ref.kind, labels),
      protected: ref.kind === 'Pod' || isProtected(annotations) || isProtected(ns?.annotations),
      owner: labels[context.ownerKey] ?? pods[0]!.annotations[context.ownerKey] ?? annotations[context.ownerKey] ?? null,
      tags: { ...labels, 'kubernetes:kind': ref.kind, 'kubernetes:namespace': namespace, 'kubernetes:cluster': ref.cluster },
      ...(notebook ? { notebook } : {}),
      kubernetes: {
        ref,
        pods: pods.map((p) => `${p.namespace}/${p.name}`),
        ...(pods.some((p) => p.claims?.length) ? { claims: [...new Set(pods.flatMap((p) => p.claims ?? []))] } : {}),
        ...(pods.some((p) => p.kaiFraction) ? { kaiFractions: true } : {}),
        nodes: placed.map((p) => ({
          name: p.node.name,
          instanceId: p.node.instanceId,
          hourly: p.price?.hourly ?? 0,
          share: p.share,
        })),
        keep:
          keepUntil && !Number.isNaN(keepUntil.getTime())
            ? { until: keepUntil, byUser: annotations[ANNOTATIONS.keptBy] ?? 'a burnrate.io/keep-until annotation' }
            : null,
      },
    });
  }
  return out.sort((a, b) => a.instanceId.localeCompare(b.instanceId));
}

/** The cloud instance ids of the clusters' GPU nodes: they are workloads' hosts, never instances to stop. */
export function nodeInstanceIds(inventory: ClusterInventory): string[] {
  return inventory.nodes.flatMap((n) => (n.instanceId ? [n.instanceId] : []));
}

/**
 * The GPU nodes burnrate may stop whole, by cloud instance id, with the team they are then
 * charged to: every GPU pod on the node is a bare pod (no controller recreates it, so stopping the
 * node loses nothing a scale-to-zero would keep) of one and the same team, none of them or their
 * namespaces protected. A node with no GPU pod is the autoscaler's to remove, not burnrate's.
 */
export function stoppableNodes(inventory: ClusterInventory, context: WorkloadContext): Map<string, { node: string; team: string }> {
  const namespaces = new Map(inventory.namespaces.map((n) => [n.name, n]));
  const podsOn = new Map<string, GpuPod[]>();
  for (const pod of inventory.pods) {
    if (!pod.node) continue;
    const on = podsOn.get(pod.node);
    if (on) on.push(pod);
    else podsOn.set(pod.node, [pod]);
  }
  const stoppable = new Map<string, { node: string; team: string }>();
  for (const node of inventory.nodes) {
    const pods = podsOn.get(node.name) ?? [];
    if (!node.instanceId || pods.length === 0) continue;
    const teams = new Set(pods.map((p) => namespaceTeam(context, p.namespace, namespaces.get(p.namespace)?.labels ?? {})));
    const [team] = teams;
    const bare = pods.every(
      (p) => p.workload.kind === 'Pod' && !isProtected(p.annotations) && !isProtected(namespaces.get(p.namespace)?.annotations),
    );
    if (bare && teams.size === 1 && team !== UNTAGGED && team !== UNMAPPED)
      stoppable.set(node.instanceId, { node: node.name, team: team! });
  }
  return stoppable;
}

/** The team claiming the namespace (teams[].gpu.namespaces), else its team label's; UNTAGGED without either. */
export function namespaceTeam(
  context: Pick<WorkloadContext, 'namespaceTeams' | 'teamLabel' | 'resolveTeam'>,
  namespace: string,
  labels: Readonly<Record<string, string>>,
): string {
  const label = labels[context.teamLabel];
  return context.namespaceTeams.get(namespace) ?? (label === undefined ? UNTAGGED : context.resolveTeam(label));
}

/** The node's catalog price (its region from its zone) with its hourly rate as it runs (spot or on demand); null when unpriced. */
export function priceOf(node: GpuNode, catalog: PriceCatalog) {
  const region = regionOf(node);
  if (!node.provider || !node.instanceType || !region) return null;
  const entry = catalog.priceOf(node.provider, node.instanceType, region);
  if (!entry) return null;
  const hourly = node.capacityType === 'spot' ? (entry.spotHourly ?? entry.onDemandHourly) : entry.onDemandHourly;
  return hourly === null ? null : { ...entry, hourly };
}

/** us-east-1a → us-east-1; us-central1-a → us-central1. */
function regionOf(node: GpuNode): string | null {
  const zone = node.zone ?? node.labels['topology.kubernetes.io/region'] ?? null;
  if (!zone) return null;
  if (node.provider === 'aws') return /[a-z]$/.test(zone) ? zone.slice(0, -1) : zone;
  if (node.provider === 'gcp') return zone.replace(/-[a-z]$/, '');
  return node.labels['topology.kubernetes.io/region'] ?? zone;
}

/** The pod's `burnrate:workload`/`workload` label, else what its kind usually runs. */
function workloadKindOf(kind: WorkloadKind, labels: Readonly<Record<string, string>>): GpuWorkload {
  const tagged = workloadFromTags(labels);
  if (tagged !== 'unknown') return tagged;
  return KIND_WORKLOADS[kind] ?? 'unknown';
}

const KIND_WORKLOADS: Partial<Record<WorkloadKind, GpuWorkload>> = {
  Notebook: 'notebook',
  InferenceService: 'inference',
  Job: 'training',
  RayJob: 'training',
  RayCluster: 'training',
};

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** A cluster's read as the usage samples take it: teams of namespaces (configured teams only) and node prices. */
export function clusterReadOf(
  inventory: ClusterInventory,
  options: {
    fresh: boolean;
    unanswered?: ClusterRead['unanswered'];
    context: WorkloadContext;
    teamIds: readonly string[];
    historyDays?: number;
  },
): ClusterRead {
  const labels = new Map(inventory.namespaces.map((n) => [n.name, n.labels]));
  return {
    inventory,
    fresh: options.fresh,
    ...(options.unanswered ? { unanswered: options.unanswered } : {}),
    teamOf: (namespace) => {
      const team = namespaceTeam(options.context, namespace, labels.get(namespace) ?? {});
      return options.teamIds.includes(team) ? team : null;
    },
    nodeHourly: (node) => priceOf(node, options.context.catalog)?.hourly ?? null,
    ...(options.historyDays ? { historyDays: options.historyDays } : {}),
  };
}
