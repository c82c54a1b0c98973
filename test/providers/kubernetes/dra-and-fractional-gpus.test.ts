import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capacityOf } from '../../../src/domain/kubernetes.js';
import { ClusterInventoryReader } from '../../../src/providers/kubernetes/cluster-inventory.js';
import { kubeConfigOf } from '../../../src/providers/kubernetes/kube-config.js';
import { FakeKubeApi } from '../../fakes/fake-kube-api.js';
import { DRA_NODE, draCluster, KAI_NODE, SLICED_NODE } from '../../fakes/kube-dra-cluster.js';
import { kubeconfigFor, namespace, node, pod } from '../../fakes/kube-objects.js';
import { workDir } from '../../support/run-cli.js';

let api: FakeKubeApi | undefined;
afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  await api?.close();
  api = undefined;
});

async function readCluster(options: Parameters<typeof FakeKubeApi.start>[0]) {
  api = await FakeKubeApi.start(options);
  const file = join(workDir(), 'kubeconfig');
  writeFileSync(file, kubeconfigFor(api.url, api.bearerToken, 'lab'));
  return new ClusterInventoryReader('lab', kubeConfigOf({ name: 'lab', kubeconfig: file, context: 'lab' }), 4).read();
}

describe('GPUs allocated by Dynamic Resource Allocation, and fractions of shared GPUs', () => {
  it('attributes each claimed device to the pods using its claim, a shared claim split between them, each GPU once', async () => {
    const inventory = await readCluster({ objects: draCluster() });

    const nodes = new Map(inventory.nodes.map((n) => [n.name, n]));
    // Eight H100s from the ResourceSlice (the MIG device is part of GPU 7; the compute-domain channel no GPU).
    expect(nodes.get(DRA_NODE)).toMatchObject({ gpus: 8, instanceType: 'p5.48xlarge' });
    expect(capacityOf(nodes.get(KAI_NODE)!)).toBe(4);
    // Time-slicing: 16 offered, 4 GPUs.
    expect(capacityOf(nodes.get(SLICED_NODE)!)).toBe(4);

    const held = new Map(inventory.pods.map((p) => [`${p.namespace}/${p.name}`, p.gpus]));
    expect(held).toEqual(
      new Map([
        ['ml-research/trainer-0', 2],
        ['vision/infer-6d5f-a1', 0.5],
        ['vision/infer-6d5f-b2', 0.5],
        ['vision/eval-a', 0.5],
        ['vision/eval-b', 0.5],
        ['inference/embed-7c9f-x2k4q', 3 / 7],
        ['vision/frac-half-5b7c-k2l3m', 0.5],
        ['ml-research/frac-mem-8d9e-p4q5r', 0.25],
        ['ml-research/train-2-z9y8x', 2],
        ['vision/notebook-ts-0', 0.5],
      ]),
    );
    // By hand, per node: claimed devices 2 + 1 + 1 + 3/7 of the 8 H100s; KAI 0.5 + 0.25 + 2 of 4 (the reservation pod none).
    const onNode = (name: string) => inventory.pods.filter((p) => p.node === name).reduce((sum, p) => sum + p.gpus, 0);
    expect(onNode(DRA_NODE)).toBeCloseTo(2 + 1 + 1 + 3 / 7, 12);
    expect(onNode(KAI_NODE)).toBeCloseTo(0.5 + 0.25 + 2, 12);
    expect(inventory.pods.some((p) => p.namespace === 'kai-resource-reservation')).toBe(false);

    // The claims a pod holds GPUs through, so DCGM's dra_claim_* labels find its workload.
    expect(inventory.pods.find((p) => p.name === 'trainer-0')!.claims).toEqual(['ml-research/trainer-0-gpus-x7k2p']);
    expect(inventory.pods.find((p) => p.name === 'infer-6d5f-a1')!.workload).toMatchObject({ kind: 'Deployment', name: 'infer' });
    expect(api!.requests.filter((r) => r.path.startsWith('/apis/resource.k8s.io/v1/')).map((r) => r.path.split('/').pop())).toEqual(
      expect.arrayContaining(['resourceslices', 'resourceclaims', 'deviceclasses']),
    );
  });

  it('reads a cluster without resource.k8s.io/v1 (before Kubernetes 1.34) as one without claims', async () => {
    const inventory = await readCluster({
      objects: [node('gpu-1', { gpus: 2 }), namespace('ml'), pod('ml', 'train', { node: 'gpu-1', gpus: 1 })],
      crdsMissing: ['resourceclaims', 'resourceslices', 'deviceclasses'],
    });
    expect(inventory.nodes.map((n) => [n.name, n.gpus])).toEqual([['gpu-1', 2]]);
    expect(inventory.pods.map((p) => [p.name, p.gpus])).toEqual([['train', 1]]);
  });

  it('says what RBAC to add when the claims may not be listed', async () => {
    api = await FakeKubeApi.start({ objects: draCluster() });
    api.failNext({ path: '/resourceclaims', status: 403 });
    const file = join(workDir(), 'kubeconfig');
    writeFileSync(file, kubeconfigFor(api.url, api.bearerToken, 'lab'));
    const read = new ClusterInventoryReader('lab', kubeConfigOf({ name: 'lab', kubeconfig: file, context: 'lab' })).read();
    await expect(read).rejects.toThrow(/resourceclaims/);
  });

  it("prices HAMi's shares of a GPU by memory or cores, from what HAMi allocated or else what the pod asks, and counts a HAMi node's GPUs once", async () => {
    // A g5.12xlarge under HAMi: 4 A10G of 23,028 MiB registered (HAMi 2.x JSON), each offered 10 times as nvidia.com/gpu.
    const a10g = (i: number) => ({ id: `GPU-a10g-${i}`, count: 10, devmem: 23028, devcore: 100, type: 'NVIDIA-NVIDIA A10G', health: true });
    const hamiNode = (name: string, register: string, gpus: number) => {
      const n = node(name, { gpus, labels: { 'node.kubernetes.io/instance-type': 'g5.12xlarge' } }) as {
        metadata: Record<string, unknown>;
      };
      n.metadata.annotations = { 'hami.io/node-nvidia-register': register };
      return n as ReturnType<typeof node>;
    };
    /** A running pod on `at` with each container's resources, and what HAMi allocated it (if it has yet). */
    const hamiPod = (name: string, at: string, containers: Record<string, string>[], allocated?: string) => {
      const p = pod('ml', name, { node: at, ...(allocated ? { annotations: { 'hami.io/vgpu-devices-allocated': allocated } } : {}) }) as {
        spec: { containers: object[] };
      };
      p.spec.containers = containers.map((limits, i) => ({ name: `c${i}`, image: 'serve:1', resources: { limits } }));
      return p as ReturnType<typeof pod>;
    };
    const inventory = await readCluster({
      objects: [
        namespace('ml'),
        hamiNode('hami-json', JSON.stringify([0, 1, 2, 3].map(a10g)), 40),
        // A node of an earlier HAMi release: `id,count,devmem,devcore,type,numa,health` per GPU.
        hamiNode('hami-old', 'GPU-t4-0,10,16384,100,NVIDIA-Tesla T4,0,true:GPU-t4-1,10,16384,100,NVIDIA-Tesla T4,0,true:', 20),
        // A quarter of GPU 0's memory, no cores asked.
        hamiPod('mem-quarter', 'hami-json', [{ 'nvidia.com/gpu': '1', 'nvidia.com/gpumem': '5757' }], 'GPU-a10g-0,NVIDIA,5757,0:;'),
        // Little memory but half the cores: the cores' share counts.
        hamiPod('cores-half', 'hami-json', [{ 'nvidia.com/gpu': '1', 'nvidia.com/gpucores': '50' }], 'GPU-a10g-0,NVIDIA,2000,50:;'),
        // Two containers: halves of GPUs 1 and 2, and the whole of GPU 3.
        hamiPod(
          'two-containers',
          'hami-json',
          [{ 'nvidia.com/gpu': '2', 'nvidia.com/gpumem': '11514' }, { 'nvidia.com/gpu': '1' }],
          'GPU-a10g-1,NVIDIA,11514,0:GPU-a10g-2,NVIDIA,11514,0:;GPU-a10g-3,NVIDIA,23028,100:;',
        ),
        // Not allocated yet: from its resources, two vGPUs of a quarter of the memory each.
        hamiPod('by-request', 'hami-old', [{ 'nvidia.com/gpu': '2', 'nvidia.com/gpumem-percentage': '25' }]),
        // No memory asked: HAMi gives all of it, a whole GPU.
        hamiPod('whole', 'hami-old', [{ 'nvidia.com/gpu': '1' }]),
      ],
    });
    const nodes = new Map(inventory.nodes.map((n) => [n.name, capacityOf(n)]));
    expect(nodes).toEqual(
      new Map([
        ['hami-json', 4],
        ['hami-old', 2],
      ]),
    );
    const held = new Map(inventory.pods.map((p) => [p.name, p.gpus]));
    expect(held.get('mem-quarter')).toBeCloseTo(5757 / 23028, 12);
    expect(held.get('cores-half')).toBeCloseTo(0.5, 12);
    expect(held.get('two-containers')).toBeCloseTo(11514 / 23028 + 11514 / 23028 + 1, 12);
    expect(held.get('by-request')).toBeCloseTo(2 * 0.25, 12);
    expect(held.get('whole')).toBe(1);
  });
});
