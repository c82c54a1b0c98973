import type { KubeObject } from './fake-kube-api.js';
import { deviceClass, namespace, node, pod, resourceClaim, resourceSlice, workload, type DraDevice } from './kube-objects.js';

/**
 * A cluster as GPUs are shared on it in 2026, for the tests of Dynamic Resource Allocation and
 * fractional GPUs:
 *
 * - `ip-10-0-5-20.ec2.internal` (p5.48xlarge, 8 H100, on demand): no `nvidia.com/gpu` capacity,
 *   its GPUs are offered by NVIDIA's DRA driver in a ResourceSlice, GPU 7 also as a MIG device
 *   (3g.40gb). Claims: research's Job `trainer` holds GPUs 0 and 1 through a claim generated from
 *   a template; vision's Deployment `infer` runs two pods sharing one claim on GPU 2; vision's
 *   `eval-a` and research's `eval-b` share GPU 3 through one claim; inference's Deployment `embed`
 *   holds the MIG device on GPU 7. GPUs 4, 5 and 6 are nobody's.
 * - `ip-10-0-6-30.ec2.internal` (g5.12xlarge, 4 A10G of 23,028 MiB, on demand) under the KAI
 *   scheduler: its reservation pod holds GPU 0 for two fractional pods (`gpu-fraction: 0.5`,
 *   `gpu-memory: 5757`, a quarter), and research's `train-2` requests 2 whole GPUs.
 * - `ip-10-0-7-40.ec2.internal` (g5.12xlarge, 4 A10G) with time-slicing: each GPU offered 4
 *   times, so 16 `nvidia.com/gpu`; vision's `notebook-ts` requests 2 of them, half a GPU.
 */
export const DRA_NODE = 'ip-10-0-5-20.ec2.internal';
export const KAI_NODE = 'ip-10-0-6-30.ec2.internal';
export const SLICED_NODE = 'ip-10-0-7-40.ec2.internal';
export const DRA_INSTANCE = 'i-0d00000000000005d';
export const KAI_INSTANCE = 'i-0e00000000000006e';
export const SLICED_INSTANCE = 'i-0f00000000000007f';
export const H100 = 'NVIDIA H100 80GB HBM3';

const h100 = (i: number): DraDevice => ({ name: `gpu-${i}`, uuid: `GPU-5b7d2c1e-0000-4000-8000-00000000000${i}`, product: H100 });

export function draCluster(): KubeObject[] {
  const awsNode = (name: string, instanceId: string, type: string, extra: { gpus?: number; labels?: Record<string, string> } = {}) =>
    node(name, {
      ...(extra.gpus ? { gpus: extra.gpus } : {}),
      providerID: `aws:///us-east-1a/${instanceId}`,
      labels: { 'node.kubernetes.io/instance-type': type, 'topology.kubernetes.io/zone': 'us-east-1a', ...extra.labels },
    });
  return [
    awsNode(DRA_NODE, DRA_INSTANCE, 'p5.48xlarge'),
    resourceSlice(DRA_NODE, [
      ...[0, 1, 2, 3, 4, 5, 6, 7].map(h100),
      { name: 'gpu-7-mig-3g40gb-0', uuid: 'MIG-7a1c', product: H100, mig: { profile: '3g.40gb', parentUUID: h100(7).uuid } },
    ]),
    // NVIDIA's ComputeDomain driver publishes channels, not GPUs: never counted.
    resourceSlice(DRA_NODE, [{ name: 'channel-0', uuid: 'channel-0', product: 'IMEX channel' }], 'compute-domain.nvidia.com'),
    deviceClass('gpu.nvidia.com', 'gpu.nvidia.com'),
    deviceClass('compute-domain-default-channel.nvidia.com', 'compute-domain.nvidia.com'),

    namespace('ml-research', { team: 'research' }),
    namespace('vision', { team: 'vision' }),
    namespace('inference', { team: 'vision' }),
    namespace('kai-resource-reservation'),

    workload('Job', 'ml-research', 'trainer', { spec: { suspend: false } }),
    resourceClaim('ml-research', 'trainer-0-gpus-x7k2p', { node: DRA_NODE, devices: ['gpu-0', 'gpu-1'] }, ['trainer-0']),
    pod('ml-research', 'trainer-0', {
      node: DRA_NODE,
      owner: { kind: 'Job', name: 'trainer' },
      claims: [{ name: 'gpus', claim: 'trainer-0-gpus-x7k2p', template: true }],
    }),

    workload('Deployment', 'vision', 'infer', { spec: { replicas: 2 } }),
    workload('ReplicaSet', 'vision', 'infer-6d5f', { owner: { kind: 'Deployment', name: 'infer' } }),
    resourceClaim('vision', 'infer-shared-gpu', { node: DRA_NODE, devices: ['gpu-2'] }, ['infer-6d5f-a1', 'infer-6d5f-b2']),
    ...['infer-6d5f-a1', 'infer-6d5f-b2'].map((name) =>
      pod('vision', name, {
        node: DRA_NODE,
        owner: { kind: 'ReplicaSet', name: 'infer-6d5f' },
        claims: [{ name: 'gpu', claim: 'infer-shared-gpu' }],
      }),
    ),

    resourceClaim('vision', 'eval-shared-gpu', { node: DRA_NODE, devices: ['gpu-3'] }, ['eval-a', 'eval-b']),
    pod('vision', 'eval-a', { node: DRA_NODE, claims: [{ name: 'gpu', claim: 'eval-shared-gpu' }] }),
    pod('vision', 'eval-b', { node: DRA_NODE, claims: [{ name: 'gpu', claim: 'eval-shared-gpu' }] }),

    workload('Deployment', 'inference', 'embed', { spec: { replicas: 1 } }),
    workload('ReplicaSet', 'inference', 'embed-7c9f', { owner: { kind: 'Deployment', name: 'embed' } }),
    resourceClaim('inference', 'embed-mig', { node: DRA_NODE, devices: ['gpu-7-mig-3g40gb-0'] }, ['embed-7c9f-x2k4q']),
    pod('inference', 'embed-7c9f-x2k4q', {
      node: DRA_NODE,
      owner: { kind: 'ReplicaSet', name: 'embed-7c9f' },
      claims: [{ name: 'mig', claim: 'embed-mig' }],
    }),
    // A claim allocated to a pod that has finished: no GPU of anyone's.
    resourceClaim('ml-research', 'done-gpu', { node: DRA_NODE, devices: ['gpu-4'] }, []),
    pod('ml-research', 'done', { node: DRA_NODE, phase: 'Succeeded', claims: [{ name: 'gpu', claim: 'done-gpu' }] }),

    awsNode(KAI_NODE, KAI_INSTANCE, 'g5.12xlarge', { gpus: 4, labels: { 'nvidia.com/gpu.memory': '23028' } }),
    pod('kai-resource-reservation', 'gpu-reservation-ip-10-0-6-30-q7x2m', { node: KAI_NODE, gpus: 1 }),
    workload('Deployment', 'vision', 'frac-half', { spec: { replicas: 1 } }),
    workload('ReplicaSet', 'vision', 'frac-half-5b7c', { owner: { kind: 'Deployment', name: 'frac-half' } }),
    pod('vision', 'frac-half-5b7c-k2l3m', {
      node: KAI_NODE,
      owner: { kind: 'ReplicaSet', name: 'frac-half-5b7c' },
      annotations: { 'gpu-fraction': '0.5' },
    }),
    workload('Deployment', 'ml-research', 'frac-mem', { spec: { replicas: 1 } }),
    workload('ReplicaSet', 'ml-research', 'frac-mem-8d9e', { owner: { kind: 'Deployment', name: 'frac-mem' } }),
    pod('ml-research', 'frac-mem-8d9e-p4q5r', {
      node: KAI_NODE,
      owner: { kind: 'ReplicaSet', name: 'frac-mem-8d9e' },
      annotations: { 'gpu-memory': '5757' },
    }),
    workload('Job', 'ml-research', 'train-2', { spec: { suspend: false } }),
    pod('ml-research', 'train-2-z9y8x', { node: KAI_NODE, gpus: 2, owner: { kind: 'Job', name: 'train-2' } }),
    // Not a fraction: a value out of (0, 1] is no share of a GPU.
    pod('vision', 'bad-fraction', { node: KAI_NODE, annotations: { 'gpu-fraction': '1.5' } }),

    awsNode(SLICED_NODE, SLICED_INSTANCE, 'g5.12xlarge', {
      gpus: 16,
      labels: { 'nvidia.com/gpu.replicas': '4', 'nvidia.com/gpu.sharing-strategy': 'time-slicing' },
    }),
    workload('StatefulSet', 'vision', 'notebook-ts', { spec: { replicas: 1 } }),
    pod('vision', 'notebook-ts-0', { node: SLICED_NODE, gpus: 2, owner: { kind: 'StatefulSet', name: 'notebook-ts' } }),
  ];
}
