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
});
