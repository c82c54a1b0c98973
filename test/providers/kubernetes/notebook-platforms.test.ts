import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { idleFindings, type IdleInstance } from '../../../src/checks/idle/idle-findings.js';
import { idlePolicy } from '../../../src/checks/idle/idle-policy.js';
import type { NotebookPlatform } from '../../../src/domain/gpu-inventory.js';
import { teamResolver } from '../../../src/domain/ownership.js';
import { ClusterInventoryReader } from '../../../src/providers/kubernetes/cluster-inventory.js';
import { kubeConfigOf } from '../../../src/providers/kubernetes/kube-config.js';
import { workloadInstances, type WorkloadContext } from '../../../src/providers/kubernetes/workload-instances.js';
import { notebookCullingLine } from '../../../templates/notebook-culling.js';
import { FakeKubeApi, type KubeObject } from '../../fakes/fake-kube-api.js';
import { kubeconfigFor, namespace, node, pod, workload } from '../../fakes/kube-objects.js';
import { workDir } from '../../support/run-cli.js';
import { repeat, series } from '../../checks/idle/series.js';

// Notebook platforms cull idle notebook servers themselves. A cluster with Kubeflow's notebook
// controller (culling on after 120 minutes), a Kubeflow Notebook and a JupyterHub user server, read
// through the fake API server: each notebook says what its platform's culling is set to, and
// `idle.notebooks: defer` leaves them to it.

let api: FakeKubeApi | undefined;
afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  await api?.close();
  api = undefined;
});

const NODE = 'ip-10-0-9-10.ec2.internal';
const context: WorkloadContext = {
  catalog: loadPriceCatalog(),
  resolveTeam: teamResolver([{ id: 'research', match: [] } as never]),
  namespaceTeams: new Map([
    ['ml-research', 'research'],
    ['jhub', 'research'],
  ]),
  teamLabel: 'team',
  ownerKey: 'owner',
};

/** Kubeflow's notebook controller as its manifests deploy it, its culling set in its env (or from a ConfigMap). */
const controller = (env: object[]): KubeObject =>
  workload('Deployment', 'kubeflow', 'notebook-controller-deployment', {
    spec: { template: { spec: { containers: [{ name: 'manager', image: 'notebook-controller', env }] } } },
  });

function cluster(controllerEnv: object[] | null): KubeObject[] {
  return [
    node(NODE, { gpus: 4, providerID: 'aws:///us-east-1a/i-0nb', labels: { 'node.kubernetes.io/instance-type': 'g5.12xlarge' } }),
    namespace('ml-research'),
    namespace('jhub'),
    namespace('kubeflow'),
    ...(controllerEnv ? [controller(controllerEnv)] : []),
    workload('Notebook', 'ml-research', 'dana-nb', { spec: { template: { spec: {} } } }),
    workload('StatefulSet', 'ml-research', 'dana-nb', { owner: { kind: 'Notebook', name: 'dana-nb' }, spec: { replicas: 1 } }),
    pod('ml-research', 'dana-nb-0', {
      node: NODE,
      gpus: 1,
      owner: { kind: 'StatefulSet', name: 'dana-nb' },
      labels: { 'notebook-name': 'dana-nb' },
    }),
    // Zero to JupyterHub's user server: a bare pod the hub's spawner made.
    pod('jhub', 'jupyter-alice', { node: NODE, gpus: 1, labels: { component: 'singleuser-server', app: 'jupyterhub' } }),
    workload('Deployment', 'ml-research', 'trainer', { spec: { replicas: 1 } }),
    workload('ReplicaSet', 'ml-research', 'trainer-5d8f', { owner: { kind: 'Deployment', name: 'trainer' } }),
    pod('ml-research', 'trainer-5d8f-x1', { node: NODE, gpus: 2, owner: { kind: 'ReplicaSet', name: 'trainer-5d8f' } }),
  ];
}

async function notebooks(controllerEnv: object[] | null): Promise<Map<string, NotebookPlatform | undefined>> {
  api = await FakeKubeApi.start({ objects: cluster(controllerEnv) });
  const file = join(workDir(), 'kubeconfig');
  writeFileSync(file, kubeconfigFor(api.url, api.bearerToken, 'lab'));
  const inventory = await new ClusterInventoryReader('lab', kubeConfigOf({ name: 'lab', kubeconfig: file, context: 'lab' })).read();
  return new Map(workloadInstances(inventory, context).map((i) => [i.name!, i.notebook]));
}

describe('notebook platforms and their own idle culling', () => {
  it("reads Kubeflow's culler from its controller, and knows a JupyterHub user server by its label", async () => {
    const found = await notebooks([
      { name: 'ENABLE_CULLING', value: 'true' },
      { name: 'CULL_IDLE_TIME', value: '120' },
    ]);
    expect(found.get('ml-research/dana-nb')).toEqual({
      platform: 'kubeflow',
      culling: "Kubeflow's notebook culler stops it after 120 minutes without kernel activity (CULL_IDLE_TIME)",
      culls: true,
    });
    expect(found.get('jhub/jupyter-alice')).toMatchObject({ platform: 'jupyterhub', culls: null });
    expect(found.get('jhub/jupyter-alice')!.culling).toContain('cull.timeout');
    expect(found.get('ml-research/trainer')).toBeUndefined();
  });

  it('says the culler is off when the controller does not turn it on, and unknown when a ConfigMap sets it', async () => {
    expect((await notebooks([{ name: 'USE_ISTIO', value: 'true' }])).get('ml-research/dana-nb')).toMatchObject({ culls: false });
    await api!.close();
    api = undefined;
    const fromConfigMap = await notebooks([
      { name: 'ENABLE_CULLING', valueFrom: { configMapKeyRef: { name: 'config', key: 'ENABLE_CULLING' } } },
      { name: 'CULL_IDLE_TIME', valueFrom: { configMapKeyRef: { name: 'config', key: 'CULL_IDLE_TIME' } } },
    ]);
    expect(fromConfigMap.get('ml-research/dana-nb')).toMatchObject({ culls: null });
    expect(fromConfigMap.get('ml-research/dana-nb')!.culling).toContain('ConfigMap');
  });

  it('alerts on an idle notebook with what its platform culls, or leaves it to the platform under idle.notebooks: defer', () => {
    const start = Date.UTC(2026, 10, 19, 8) / 1000;
    const now = new Date((start + 180 * 60) * 1000);
    const idleGpu = (gpu: string) => series(repeat(0, 180), { start, gpu });
    const culling: NotebookPlatform = {
      platform: 'kubeflow',
      culling: "Kubeflow's notebook culler stops it after 120 minutes",
      culls: true,
    };
    const off: NotebookPlatform = { platform: 'kubeflow', culling: "Kubeflow's notebook culler is off", culls: false };
    const instance = (id: string, notebook?: NotebookPlatform): IdleInstance => ({
      id,
      team: 'research',
      hourlyPrice: 5.672,
      gpuCount: 1,
      protected: false,
      ...(notebook ? { notebook } : {}),
    });
    const gpus = [
      { series: idleGpu('0'), instance: instance('k8s:lab/ml-research/Notebook/dana-nb', culling) },
      { series: idleGpu('1'), instance: instance('k8s:lab/ml-research/Notebook/off-nb', off) },
      { series: idleGpu('2'), instance: instance('k8s:lab/ml-research/Deployment/trainer') },
    ];
    const run = (notebooks?: 'alert' | 'defer') =>
      idleFindings({ gpus, policy: idlePolicy(notebooks ? { notebooks } : {}), now, schedules: new Map() });

    const alerted = run();
    expect(alerted.map((f) => f.instanceId).sort()).toEqual(gpus.map((g) => g.instance.id).sort());
    const notebook = alerted.find((f) => f.instanceId.endsWith('dana-nb'))!;
    expect(notebookCullingLine(notebook)).toBe(
      "Notebook server: Kubeflow's notebook culler stops it after 120 minutes; `idle.notebooks: defer` in burnrate.yml leaves idle notebooks to it.",
    );
    expect(notebookCullingLine(alerted.find((f) => f.instanceId.endsWith('trainer'))!)).toBeNull();
    // Deferred: the culling notebook is the platform's; one whose culler is off is still burnrate's.
    expect(
      run('defer')
        .map((f) => f.instanceId)
        .sort(),
    ).toEqual(['k8s:lab/ml-research/Deployment/trainer', 'k8s:lab/ml-research/Notebook/off-nb']);
    expect(run('alert')).toHaveLength(3);
  });
});
