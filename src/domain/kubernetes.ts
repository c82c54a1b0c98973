/**
 * GPU workloads on Kubernetes as burnrate reads them: the nodes that have GPUs, the pods that hold
 * them, and the workload each pod belongs to (the root of its owner chain), the unit that is
 * scaled to zero, kept or resumed. A shared node is never the unit: stopping it stops other pods.
 */

import { migProfileShare } from './physical-gpus.js';

/** The kinds burnrate can act on; `Pod` is a bare pod with no controller (never acted on). */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'Job', 'Notebook', 'InferenceService', 'RayCluster', 'RayJob', 'Pod'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export interface WorkloadRef {
  cluster: string;
  kind: WorkloadKind;
  namespace: string;
  name: string;
}

/** "gpu-prod/ml-research/Deployment/llm-serve": a workload's identity in findings, payloads and audit. */
export function workloadKey(ref: WorkloadRef): string {
  return `${ref.cluster}/${ref.namespace}/${ref.kind}/${ref.name}`;
}

/** The prefix of a workload's id among GPU instances: `k8s:<cluster>/<namespace>/<kind>/<name>`. */
export const WORKLOAD_ID_PREFIX = 'k8s:';

/** The workload a GPU instance id names; null for a machine's id. */
export function workloadRefOf(instanceId: string): WorkloadRef | null {
  const match = /^k8s:([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(instanceId);
  if (!match || !(WORKLOAD_KINDS as readonly string[]).includes(match[3]!)) return null;
  return { cluster: match[1]!, namespace: match[2]!, kind: match[3] as WorkloadKind, name: match[4]! };
}

export interface GpuNode {
  cluster: string;
  name: string;
  /** `node.kubernetes.io/instance-type`; null when the node does not say (on-prem). */
  instanceType: string | null;
  /** From Karpenter's, EKS's, GKE's or AKS's labels; null when none says. */
  capacityType: 'spot' | 'on-demand' | null;
  /** Karpenter NodePool, EKS node group, GKE or AKS node pool; null for a node in none. */
  nodePool: string | null;
  /** The cloud's id of the machine from `spec.providerID` (an EC2 instance id, a GCE instance name); null on-prem. */
  instanceId: string | null;
  provider: 'aws' | 'gcp' | 'azure' | null;
  zone: string | null;
  /** Whole GPUs the node offers (`nvidia.com/gpu` capacity). */
  gpus: number;
  /** MIG slices the node offers, by resource name (`nvidia.com/mig-1g.10gb`: 3). */
  migSlices: Readonly<Record<string, number>>;
  labels: Readonly<Record<string, string>>;
  /** When the node joined the cluster. */
  createdAt: Date | null;
}

export interface GpuPod {
  cluster: string;
  namespace: string;
  name: string;
  /** The node it runs on; null while pending. */
  node: string | null;
  /**
   * GPUs held, in whole GPUs: `nvidia.com/gpu` requests plus MIG slices at their share of a GPU (a
   * 3g slice is 3/7), the devices of its ResourceClaims (a claim shared by n pods, 1/n each), and
   * a fractional share where the scheduler says so (KAI's `gpu-fraction`, time-slicing replicas).
   */
  gpus: number;
  /** "namespace/claim" of each ResourceClaim holding GPUs for it (Dynamic Resource Allocation). */
  claims?: readonly string[];
  /** Holds a KAI fraction of a shared GPU (`gpu-fraction`, `gpu-memory`): DCGM reports that GPU under the reservation pod. */
  kaiFraction?: boolean;
  workload: WorkloadRef;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  startedAt: Date | null;
}

export interface NamespaceInfo {
  name: string;
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
}

/** One read of a cluster: its GPU nodes, the running pods that hold GPUs, and its namespaces. */
export interface ClusterInventory {
  cluster: string;
  nodes: GpuNode[];
  pods: GpuPod[];
  namespaces: NamespaceInfo[];
  /** The workloads' own annotations (keep-until, protect, previous replicas), by workloadKey. */
  workloadAnnotations: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Kubeflow's notebook culler as its controller is set (notebook-platforms.ts); absent without a Kubeflow notebook controller. */
  kubeflowCulling?: KubeflowCulling;
}

/** The Kubeflow notebook controller's culling settings: null where a value comes from a ConfigMap burnrate does not read. */
export interface KubeflowCulling {
  enabled: boolean | null;
  /** CULL_IDLE_TIME: minutes without kernel activity before a notebook is stopped (the controller's default is 1,440). */
  idleMinutes: number | null;
}

/**
 * The KAI scheduler's (Run:ai's) reservation pods hold a shared GPU for the fractional pods placed
 * on it: they are the scheduler's, never a team's, and the GPU they hold beyond those fractions is
 * nobody's (the node's unrequested GPUs). DCGM reports such a GPU under its reservation pod.
 */
export const KAI_RESERVATION_NAMESPACE = 'kai-resource-reservation';

/** Annotations burnrate reads and writes on workloads and namespaces. */
export const ANNOTATIONS = {
  /** "true" on a namespace or workload: burnrate never acts on it. */
  protect: 'burnrate.io/protect',
  /** ISO time until which a workload is kept running (Keep), and who kept it. */
  keepUntil: 'burnrate.io/keep-until',
  keptBy: 'burnrate.io/kept-by',
  /** What Stop found, so Resume (from any replica) restores it: replicas, or KServe's minReplicas. */
  previousReplicas: 'burnrate.io/previous-replicas',
  /** Who stopped it and when (ISO): a stop whose answer was lost is still recognised as burnrate's, with both. */
  stoppedBy: 'burnrate.io/stopped-by',
  stoppedAt: 'burnrate.io/stopped-at',
} as const;

/** A workload or namespace annotated protected. */
export function isProtected(annotations: Readonly<Record<string, string>> | undefined): boolean {
  return annotations?.[ANNOTATIONS.protect]?.toLowerCase() === 'true';
}

/** The node's GPUs in whole GPUs: `nvidia.com/gpu` plus its MIG slices at their share. */
export function capacityOf(node: GpuNode): number {
  return node.gpus + Object.entries(node.migSlices).reduce((sum, [resource, count]) => sum + (migShare(resource) ?? 0) * count, 0);
}

/**
 * A MIG resource's share of a whole GPU: `nvidia.com/mig-3g.40gb` is 3 of an H100's 7 compute
 * slices, `nvidia.com/mig-2g.12gb` 2 of an A30's 4 (the profile says which, physical-gpus.ts).
 */
export function migShare(resource: string): number | null {
  return resource.startsWith(MIG_RESOURCE_PREFIX) ? migProfileShare(resource.slice(MIG_RESOURCE_PREFIX.length)) : null;
}

const MIG_RESOURCE_PREFIX = 'nvidia.com/mig-';

/** Workload kinds that are custom resources, with where the API serves them (absent CRD: none run). */
export const CUSTOM_WORKLOADS = [
  { kind: 'Notebook', group: 'kubeflow.org', version: 'v1', plural: 'notebooks' },
  { kind: 'InferenceService', group: 'serving.kserve.io', version: 'v1beta1', plural: 'inferenceservices' },
  { kind: 'RayCluster', group: 'ray.io', version: 'v1', plural: 'rayclusters' },
  { kind: 'RayJob', group: 'ray.io', version: 'v1', plural: 'rayjobs' },
] as const;

/** One RBAC rule burnrate needs, declared by the code that makes the calls (docs/permissions.md is generated from them). */
export interface KubeRule {
  apiGroup: string;
  resource: string;
  verbs: readonly string[];
  usedBy: string;
  /** Reading is always needed; acting only with actions enabled. */
  role: 'read' | 'act';
}

/** teams[].gpu.namespaces as namespace → team id. */
export function namespaceTeamsOf(teams: readonly { id: string; gpu: { namespaces: readonly string[] } }[]): Map<string, string> {
  return new Map(teams.flatMap((team) => team.gpu.namespaces.map((namespace) => [namespace, team.id] as const)));
}

/**
 * Tags (labels) that node provisioners put on the machines they start: EKS and its managed node
 * groups, Karpenter, kops and the cloud controller (`kubernetes.io/cluster/<name>`), GKE
 * (`goog-k8s-cluster-name`), AKS (`aks-managed-*`). A machine carrying one hosts pods.
 */
export function isKubernetesNode(tags: Readonly<Record<string, string>>): boolean {
  return Object.keys(tags).some(
    (key) =>
      key.startsWith('kubernetes.io/cluster/') ||
      key.startsWith('karpenter.sh/') ||
      key.startsWith('aks-managed-') ||
      ['eks:cluster-name', 'aws:eks:cluster-name', 'eks:nodegroup-name', 'goog-k8s-cluster-name'].includes(key),
  );
}
