import { namespace, node, pod, workload } from './kube-objects.js';
import type { KubeObject } from './fake-kube-api.js';

/**
 * A cluster of three teams on shared GPU nodes, as the Kubernetes tests use it:
 *
 * - `gpu-a` (g5.12xlarge, 4 GPUs, Karpenter spot, pool `gpu-shared`): a research notebook (1 GPU,
 *   Kubeflow Notebook → StatefulSet → pod), vision's `llm-serve` Deployment (2 GPUs), the serving
 *   team's KServe `chat` predictor (1 GPU): full.
 * - `gpu-b` (a2-highgpu-1g on GKE, one A100 split into MIG slices): research's RayJob `sweep`
 *   (a 3g slice, through its RayCluster) and a training Job `train-42` (a 1g slice).
 * - `gpu-c` (p4d.24xlarge, 8 GPUs, EKS managed node group, on demand): vision's bare debug pod
 *   (1 GPU, no controller) and `web` (a Deployment whose ReplicaSet the reader cannot see, 1 GPU).
 * - `cpu-1`: no GPU. A pending GPU pod and a CPU-only pod are not counted.
 */
export const NODE_A = 'ip-10-0-1-17.ec2.internal';
export const NODE_B = 'gke-ml-a100-pool-7f3c';
export const NODE_C = 'ip-10-0-2-9.ec2.internal';
export const INSTANCE_A = 'i-0a00000000000000a';
export const INSTANCE_C = 'i-0c00000000000000c';

export function sharedCluster(): KubeObject[] {
  return [
    node(NODE_A, {
      gpus: 4,
      providerID: `aws:///us-east-1a/${INSTANCE_A}`,
      labels: {
        'node.kubernetes.io/instance-type': 'g5.12xlarge',
        'karpenter.sh/capacity-type': 'spot',
        'karpenter.sh/nodepool': 'gpu-shared',
        'topology.kubernetes.io/zone': 'us-east-1a',
      },
    }),
    node(NODE_B, {
      mig: { 'nvidia.com/mig-3g.20gb': 2, 'nvidia.com/mig-1g.5gb': 1 },
      providerID: 'gce://ml-prod/us-central1-a/gke-ml-a100-pool-7f3c',
      labels: { 'node.kubernetes.io/instance-type': 'a2-highgpu-1g', 'cloud.google.com/gke-nodepool': 'a100-pool' },
    }),
    node(NODE_C, {
      gpus: 8,
      providerID: `aws:///us-east-1b/${INSTANCE_C}`,
      labels: {
        'node.kubernetes.io/instance-type': 'p4d.24xlarge',
        'eks.amazonaws.com/capacityType': 'ON_DEMAND',
        'eks.amazonaws.com/nodegroup': 'p4d-static',
      },
    }),
    node('cpu-1', { labels: { 'node.kubernetes.io/instance-type': 'm6i.large' } }),

    namespace('ml-research', { team: 'research' }),
    namespace('vision', { team: 'vision' }),
    namespace('serving', { team: 'serving' }, { 'burnrate.io/protect': 'true' }),

    workload('Notebook', 'ml-research', 'dana-nb', { spec: { template: { spec: {} } } }),
    workload('StatefulSet', 'ml-research', 'dana-nb', { owner: { kind: 'Notebook', name: 'dana-nb' }, spec: { replicas: 1 } }),
    pod('ml-research', 'dana-nb-0', { node: NODE_A, gpus: 1, owner: { kind: 'StatefulSet', name: 'dana-nb' }, labels: { owner: 'dana' } }),

    workload('Deployment', 'vision', 'llm-serve', { spec: { replicas: 2 } }),
    workload('ReplicaSet', 'vision', 'llm-serve-5d8f7c', { owner: { kind: 'Deployment', name: 'llm-serve' } }),
    pod('vision', 'llm-serve-5d8f7c-abcde', {
      node: NODE_A,
      gpus: 2,
      owner: { kind: 'ReplicaSet', name: 'llm-serve-5d8f7c' },
      labels: { 'pod-template-hash': '5d8f7c' },
    }),

    workload('InferenceService', 'serving', 'chat', { spec: { predictor: { minReplicas: 1 } } }),
    pod('serving', 'chat-predictor-00001-deployment-6b9c-xyz', {
      node: NODE_A,
      gpus: 1,
      owner: { kind: 'ReplicaSet', name: 'chat-predictor-00001-deployment-6b9c' },
      labels: { 'serving.kserve.io/inferenceservice': 'chat', 'pod-template-hash': '6b9c' },
    }),

    workload('RayJob', 'ml-research', 'sweep', { spec: { suspend: false } }),
    workload('RayCluster', 'ml-research', 'sweep-raycluster-x2k', { owner: { kind: 'RayJob', name: 'sweep' } }),
    pod('ml-research', 'sweep-raycluster-x2k-worker-1', {
      node: NODE_B,
      mig: { 'nvidia.com/mig-3g.20gb': 1 },
      owner: { kind: 'RayCluster', name: 'sweep-raycluster-x2k' },
    }),
    workload('Job', 'ml-research', 'train-42', {
      spec: { suspend: false },
      annotations: { 'burnrate.io/keep-until': '2026-11-19T00:00:00.000Z' },
    }),
    pod('ml-research', 'train-42-q8x7z', { node: NODE_B, mig: { 'nvidia.com/mig-1g.5gb': 1 }, owner: { kind: 'Job', name: 'train-42' } }),

    pod('vision', 'debug-shell', { node: NODE_C, gpus: 1 }),
    pod('vision', 'web-7d9f8-k2l3m', {
      node: NODE_C,
      gpus: 1,
      owner: { kind: 'ReplicaSet', name: 'web-7d9f8' },
      labels: { 'pod-template-hash': '7d9f8' },
    }),
    pod('vision', 'waiting-gpu', { gpus: 1, phase: 'Pending' }),
    pod('vision', 'cpu-only', { node: 'cpu-1' }),
  ];
}
