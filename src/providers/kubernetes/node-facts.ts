import { migShare, type GpuNode } from '../../domain/kubernetes.js';
import { hamiDevices, replicasOf, SHARED_GPU_RESOURCE } from './gpu-sharing.js';

/** A node as the API gives it, only the fields read here. */
export interface NodeObject {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string>; creationTimestamp?: Date | string };
  spec?: { providerID?: string };
  status?: { capacity?: Record<string, string> };
}

const GPU_RESOURCE = 'nvidia.com/gpu';
const MIG_PREFIX = 'nvidia.com/mig-';

/**
 * The MIG profile every `nvidia.com/gpu` of the node is, under the GPU operator's single strategy
 * (`nvidia.com/mig.strategy: single`, `nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB-MIG-1g.5gb`):
 * there a unit of `nvidia.com/gpu` is one slice, not one GPU. Null on any other node.
 */
export function singleStrategyProfile(labels: Readonly<Record<string, string>> | undefined): string | null {
  if (labels?.['nvidia.com/mig.strategy'] !== 'single') return null;
  const profile = /-MIG-(\S+)$/.exec(labels['nvidia.com/gpu.product'] ?? '')?.[1];
  return profile && migShare(`${MIG_PREFIX}${profile}`) !== null ? profile : null;
}

/**
 * The node's GPU facts; null for a node without GPUs (or MIG slices). `draGpus`: the physical GPUs
 * its ResourceSlices offer (Dynamic Resource Allocation: no `nvidia.com/gpu` capacity then).
 * Time-sliced GPUs offered `replicas` times each are counted once; on a HAMi node, the physical GPUs it
 * registered (its `nvidia.com/gpu` is each GPU × HAMi's split count).
 */
export function gpuNodeOf(cluster: string, node: NodeObject, draGpus = 0): GpuNode | null {
  const capacity = { ...node.status?.capacity };
  const replicas = replicasOf(node.metadata?.labels);
  const offered = Number(capacity[GPU_RESOURCE] ?? 0) + Number(capacity[SHARED_GPU_RESOURCE] ?? 0);
  const hami = hamiDevices(node.metadata?.annotations);
  if (hami) capacity[GPU_RESOURCE] = String(hami.length);
  else if (offered > 0) capacity[GPU_RESOURCE] = String(offered / replicas);
  // Single strategy: its `nvidia.com/gpu` are slices of one profile, counted as such (a 1g slice is 1/7 of a GPU).
  const single = singleStrategyProfile(node.metadata?.labels);
  if (single && capacity[GPU_RESOURCE]) {
    capacity[`${MIG_PREFIX}${single}`] = capacity[GPU_RESOURCE];
    delete capacity[GPU_RESOURCE];
  }
  const gpus = Math.max(Number(capacity[GPU_RESOURCE] ?? 0), draGpus);
  const migSlices = Object.fromEntries(
    Object.entries(capacity)
      .filter(([resource, count]) => migShare(resource) !== null && Number(count) > 0)
      .map(([resource, count]) => [resource, Number(count)]),
  );
  if (!(gpus > 0) && Object.keys(migSlices).length === 0) return null;
  const labels = node.metadata?.labels ?? {};
  const provider = providerOf(node.spec?.providerID);
  return {
    cluster,
    name: node.metadata?.name ?? '',
    instanceType: labels['node.kubernetes.io/instance-type'] ?? labels['beta.kubernetes.io/instance-type'] ?? null,
    capacityType: capacityTypeOf(labels),
    nodePool: NODE_POOL_LABELS.map((key) => labels[key]).find(Boolean) ?? null,
    ...provider,
    zone: labels['topology.kubernetes.io/zone'] ?? provider.zone,
    gpus: gpus > 0 ? gpus : 0,
    migSlices,
    labels,
    createdAt: node.metadata?.creationTimestamp ? new Date(node.metadata.creationTimestamp) : null,
  };
}

/** Karpenter first (it names the pool it launched from), then the managed node groups. */
const NODE_POOL_LABELS = [
  'karpenter.sh/nodepool',
  'karpenter.sh/provisioner-name',
  'eks.amazonaws.com/nodegroup',
  'cloud.google.com/gke-nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
];

function capacityTypeOf(labels: Record<string, string>): GpuNode['capacityType'] {
  const karpenter = labels['karpenter.sh/capacity-type'];
  if (karpenter === 'spot' || karpenter === 'on-demand') return karpenter;
  const eks = labels['eks.amazonaws.com/capacityType'];
  if (eks) return eks === 'SPOT' ? 'spot' : 'on-demand';
  if (labels['cloud.google.com/gke-spot'] === 'true' || labels['cloud.google.com/gke-preemptible'] === 'true') return 'spot';
  if (labels['cloud.google.com/gke-nodepool']) return 'on-demand';
  const azure = labels['kubernetes.azure.com/scalesetpriority'];
  if (azure) return azure === 'spot' ? 'spot' : 'on-demand';
  return null;
}

/**
 * `aws:///us-east-1a/i-0abc…` → the EC2 instance id and zone; `gce://project/zone/name` → the
 * instance name and zone; `azure:///subscriptions/…/virtualMachines/vm` → the VM's resource id.
 */
function providerOf(providerId: string | undefined): Pick<GpuNode, 'instanceId' | 'provider' | 'zone'> {
  const aws = /^aws:\/\/\/([^/]*)\/(i-[0-9a-f]+)$/.exec(providerId ?? '');
  if (aws) return { provider: 'aws', zone: aws[1] || null, instanceId: aws[2]! };
  const gce = /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(providerId ?? '');
  if (gce) return { provider: 'gcp', zone: gce[2]!, instanceId: gce[3]! };
  if (providerId?.startsWith('azure://')) return { provider: 'azure', zone: null, instanceId: providerId.slice('azure://'.length) };
  return { provider: null, zone: null, instanceId: null };
}
