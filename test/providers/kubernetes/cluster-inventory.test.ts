import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BurnrateError } from '../../../src/domain/errors.js';
import { ClusterInventoryReader } from '../../../src/providers/kubernetes/cluster-inventory.js';
import { kubeConfigOf } from '../../../src/providers/kubernetes/kube-config.js';
import { FakeKubeApi } from '../../fakes/fake-kube-api.js';
import { INSTANCE_A, INSTANCE_C, NODE_A, NODE_B, NODE_C, sharedCluster } from '../../fakes/kube-cluster.js';
import { kubeconfigFor } from '../../fakes/kube-objects.js';
import { workDir } from '../../support/run-cli.js';

let api: FakeKubeApi | undefined;

afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  await api?.close();
  api = undefined;
});

/** The real client, configured from a kubeconfig file as a user's would be. */
async function reader(options: { pageSize?: number; crdsMissing?: string[] } = {}) {
  api = await FakeKubeApi.start({ objects: sharedCluster(), crdsMissing: options.crdsMissing });
  const file = join(workDir(), 'kubeconfig');
  writeFileSync(file, kubeconfigFor(api.url, api.bearerToken, 'gpu-prod'));
  return new ClusterInventoryReader(
    'gpu-prod',
    kubeConfigOf({ name: 'gpu-prod', kubeconfig: file, context: 'gpu-prod' }),
    options.pageSize,
  );
}

describe('ClusterInventoryReader', () => {
  it('reads the GPU nodes with their type, capacity type, pool and cloud id', async () => {
    const inventory = await (await reader()).read();
    expect(inventory.nodes.map(({ labels: _labels, createdAt: _created, ...n }) => n)).toEqual([
      {
        cluster: 'gpu-prod',
        name: NODE_B,
        instanceType: 'a2-highgpu-1g',
        capacityType: 'on-demand',
        nodePool: 'a100-pool',
        provider: 'gcp',
        instanceId: 'gke-ml-a100-pool-7f3c',
        zone: 'us-central1-a',
        gpus: 0,
        migSlices: { 'nvidia.com/mig-3g.20gb': 2, 'nvidia.com/mig-1g.5gb': 1 },
      },
      {
        cluster: 'gpu-prod',
        name: NODE_A,
        instanceType: 'g5.12xlarge',
        capacityType: 'spot',
        nodePool: 'gpu-shared',
        provider: 'aws',
        instanceId: INSTANCE_A,
        zone: 'us-east-1a',
        gpus: 4,
        migSlices: {},
      },
      {
        cluster: 'gpu-prod',
        name: NODE_C,
        instanceType: 'p4d.24xlarge',
        capacityType: 'on-demand',
        nodePool: 'p4d-static',
        provider: 'aws',
        instanceId: INSTANCE_C,
        zone: 'us-east-1b',
        gpus: 8,
        migSlices: {},
      },
    ]);
  });

  it('ties each running GPU pod to the workload at the root of its owner chain', async () => {
    const inventory = await (await reader()).read();
    const pods = inventory.pods.map((p) => `${p.namespace}/${p.name} on ${p.node}: ${p.gpus} GPU → ${p.workload.kind} ${p.workload.name}`);
    expect(pods.sort()).toEqual(
      [
        `ml-research/dana-nb-0 on ${NODE_A}: 1 GPU → Notebook dana-nb`,
        `ml-research/sweep-raycluster-x2k-worker-1 on ${NODE_B}: ${3 / 7} GPU → RayJob sweep`,
        `ml-research/train-42-q8x7z on ${NODE_B}: ${1 / 7} GPU → Job train-42`,
        `serving/chat-predictor-00001-deployment-6b9c-xyz on ${NODE_A}: 1 GPU → InferenceService chat`,
        `vision/debug-shell on ${NODE_C}: 1 GPU → Pod debug-shell`,
        `vision/llm-serve-5d8f7c-abcde on ${NODE_A}: 2 GPU → Deployment llm-serve`,
        // Its ReplicaSet is not in the cluster's list: the Deployment's name comes from the pod-template-hash.
        `vision/web-7d9f8-k2l3m on ${NODE_C}: 1 GPU → Deployment web`,
      ].sort(),
    );
    expect(inventory.pods.find((p) => p.name === 'dana-nb-0')!.labels).toEqual({ owner: 'dana' });
    expect(inventory.namespaces.find((n) => n.name === 'serving')!.annotations).toEqual({ 'burnrate.io/protect': 'true' });
    expect(inventory.workloadAnnotations.get('gpu-prod/ml-research/Job/train-42')).toEqual({
      'burnrate.io/keep-until': '2026-11-19T00:00:00.000Z',
    });
  });

  it('follows continue tokens through every list, with the bearer token from the kubeconfig', async () => {
    const paged = await (await reader({ pageSize: 2 })).read();
    api!.assertNoUnexpectedRequests();
    const podLists = api!.requests.filter((r) => r.path === '/api/v1/pods');
    // 9 pods, 2 a page.
    expect(podLists.map((r) => r.query.limit)).toEqual(['2', '2', '2', '2', '2']);
    expect(podLists[0]!.query.continue).toBeUndefined();
    expect(podLists.slice(1).every((r) => r.query.continue)).toBe(true);
    await api!.close();
    const whole = await (await reader()).read();
    expect(paged.pods).toEqual(whole.pods);
    expect(paged.nodes).toEqual(whole.nodes);
  });

  it('reads a cluster without Kubeflow, KServe or KubeRay: those kinds are just absent', async () => {
    const inventory = await (await reader({ crdsMissing: ['notebooks', 'inferenceservices', 'rayclusters', 'rayjobs'] })).read();
    const ray = inventory.pods.find((p) => p.name.startsWith('sweep-raycluster'))!;
    // Without the RayCluster list its RayJob is unknown: the RayCluster is the workload.
    expect(ray.workload).toMatchObject({ kind: 'RayCluster', name: 'sweep-raycluster-x2k' });
  });

  it('says which permission is missing when the API server refuses a list', async () => {
    const r = await reader();
    api!.failNext({ path: '/api/v1/pods', status: 403 });
    const error = await r.read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).message).toContain('Cluster gpu-prod refused to let burnrate list pods');
    expect((error as BurnrateError).hint).toContain('docs/permissions.md');
  });
});
