import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capacityOf } from '../../../src/domain/kubernetes.js';
import { ClusterInventoryReader } from '../../../src/providers/kubernetes/cluster-inventory.js';
import { kubeConfigOf } from '../../../src/providers/kubernetes/kube-config.js';
import { FakeKubeApi } from '../../fakes/fake-kube-api.js';
import { kubeconfigFor, namespace, node, pod } from '../../fakes/kube-objects.js';
import { workDir } from '../../support/run-cli.js';

let api: FakeKubeApi | undefined;
afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  await api?.close();
  api = undefined;
});

describe('MIG single strategy', () => {
  it("counts a node's nvidia.com/gpu as slices of its profile, so the node has its physical GPUs and a pod its slice", async () => {
    // The GPU operator's single strategy: one A100 40GB in seven 1g.5gb slices, each offered as an `nvidia.com/gpu`.
    const labels = {
      'nvidia.com/mig.strategy': 'single',
      'nvidia.com/gpu.product': 'NVIDIA-A100-SXM4-40GB-MIG-1g.5gb',
      'nvidia.com/gpu.count': '1',
    };
    api = await FakeKubeApi.start({
      objects: [
        node('mig-node', { gpus: 7, labels }),
        node('plain-node', { gpus: 4 }),
        namespace('ml'),
        pod('ml', 'trial-1', { node: 'mig-node', gpus: 1 }),
        pod('ml', 'trial-2', { node: 'mig-node', gpus: 2 }),
        pod('ml', 'train', { node: 'plain-node', gpus: 2 }),
      ],
    });
    const file = join(workDir(), 'kubeconfig');
    writeFileSync(file, kubeconfigFor(api.url, api.bearerToken, 'lab'));
    const inventory = await new ClusterInventoryReader('lab', kubeConfigOf({ name: 'lab', kubeconfig: file, context: 'lab' })).read();

    const nodes = new Map(inventory.nodes.map((n) => [n.name, n]));
    expect(nodes.get('mig-node')).toMatchObject({ gpus: 0, migSlices: { 'nvidia.com/mig-1g.5gb': 7 } });
    expect(capacityOf(nodes.get('mig-node')!)).toBeCloseTo(1, 12);
    expect(capacityOf(nodes.get('plain-node')!)).toBe(4);
    expect(new Map(inventory.pods.map((p) => [p.name, p.gpus]))).toEqual(
      new Map([
        ['trial-1', 1 / 7],
        ['trial-2', 2 / 7],
        ['train', 2],
      ]),
    );
  });
});
