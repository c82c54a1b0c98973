import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeWorkloadPort } from '../../../src/providers/kubernetes/kube-workload-port.js';
import { BurnrateError } from '../../../src/domain/errors.js';
import type { WorkloadKind, WorkloadRef } from '../../../src/domain/kubernetes.js';
import { kubeConfigOf } from '../../../src/providers/kubernetes/kube-config.js';
import { FakeKubeApi, type KubeObject } from '../../fakes/fake-kube-api.js';
import { sharedCluster } from '../../fakes/kube-cluster.js';
import { kubeconfigFor, workload } from '../../fakes/kube-objects.js';
import { workDir } from '../../support/run-cli.js';

const NOW = new Date('2026-11-18T06:00:00Z');
let api: FakeKubeApi | undefined;

afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  await api?.close();
  api = undefined;
});

async function port(extra: KubeObject[] = []) {
  api = await FakeKubeApi.start({ objects: [...sharedCluster(), ...extra] });
  const file = join(workDir(), 'kubeconfig');
  writeFileSync(file, kubeconfigFor(api.url, api.bearerToken));
  return new KubeWorkloadPort(new Map([['gpu-prod', kubeConfigOf({ name: 'gpu-prod', kubeconfig: file })]]), () => NOW);
}

const ref = (kind: WorkloadKind, namespace: string, name: string): WorkloadRef => ({ cluster: 'gpu-prod', kind, namespace, name });
const live = { dryRun: false, by: 'U0ALICE' };
const annotations = (kind: string, ns: string, name: string) => api!.get(kind, ns, name)!.metadata.annotations ?? {};

describe('KubeWorkloadPort', () => {
  it('scales a Deployment to zero through /scale, once, and Resume restores its replicas', async () => {
    const workloads = await port();
    const serve = ref('Deployment', 'vision', 'llm-serve');

    expect(await workloads.stop(serve, live)).toEqual({
      outcome: 'stopped',
      detail: 'Deployment vision/llm-serve scaled from 2 to 0 replicas',
      previousReplicas: 2,
    });
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(0);
    expect(annotations('Deployment', 'vision', 'llm-serve')).toMatchObject({
      'burnrate.io/previous-replicas': '2',
      'burnrate.io/stopped-by': 'U0ALICE',
    });
    // Merge patches, the replicas through the scale subresource.
    expect(api!.writes().map((w) => `${w.method} ${w.path} ${w.contentType}`)).toEqual([
      'PATCH /apis/apps/v1/namespaces/vision/deployments/llm-serve application/merge-patch+json',
      'PATCH /apis/apps/v1/namespaces/vision/deployments/llm-serve/scale application/merge-patch+json',
    ]);

    // A second Stop changes nothing, and knows the stop as burnrate's from the annotations.
    expect(await workloads.stop(serve, live)).toMatchObject({
      outcome: 'stopped',
      previousReplicas: 2,
      earlier: { by: 'U0ALICE', at: NOW },
    });
    expect(api!.writes()).toHaveLength(2);

    expect(await workloads.resume(serve, live)).toEqual({
      outcome: 'resumed',
      detail: 'Deployment vision/llm-serve scaled back to 2 replicas',
      restoredReplicas: 2,
    });
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(2);
    expect(annotations('Deployment', 'vision', 'llm-serve')).toEqual({});
    expect((await workloads.resume(serve, live)).outcome).toBe('not-stopped');
  });

  it('stops a Kubeflow notebook with the annotation its controller obeys, and starts it again', async () => {
    const workloads = await port();
    const notebook = ref('Notebook', 'ml-research', 'dana-nb');
    expect((await workloads.stop(notebook, live)).outcome).toBe('stopped');
    expect(annotations('Notebook', 'ml-research', 'dana-nb')).toMatchObject({ 'kubeflow-resource-stopped': NOW.toISOString() });
    expect(await workloads.stop(notebook, live)).toMatchObject({ outcome: 'stopped', earlier: { by: 'U0ALICE', at: NOW } });
    expect((await workloads.resume(notebook, live)).outcome).toBe('resumed');
    expect(annotations('Notebook', 'ml-research', 'dana-nb')).toEqual({});
  });

  it('suspends Jobs and Ray jobs, and resumes them', async () => {
    const workloads = await port();
    for (const [kind, ns, name] of [
      ['Job', 'ml-research', 'train-42'],
      ['RayJob', 'ml-research', 'sweep'],
    ] as const) {
      expect((await workloads.stop(ref(kind, ns, name), live)).outcome).toBe('stopped');
      expect(api!.get(kind, ns, name)!.spec.suspend).toBe(true);
      expect((await workloads.resume(ref(kind, ns, name), live)).outcome).toBe('resumed');
      expect(api!.get(kind, ns, name)!.spec.suspend).toBe(false);
    }
  });

  it('lets a Serverless InferenceService scale to zero, and refuses a RawDeployment one with the reason', async () => {
    const workloads = await port([
      workload('InferenceService', 'vision', 'ranker', { spec: { predictor: { minReplicas: 3 } } }),
      workload('InferenceService', 'vision', 'raw', {
        annotations: { 'serving.kserve.io/deploymentMode': 'RawDeployment' },
        spec: { predictor: { minReplicas: 1 } },
      }),
    ]);
    expect(await workloads.stop(ref('InferenceService', 'vision', 'ranker'), live)).toMatchObject({
      outcome: 'stopped',
      previousReplicas: 3,
    });
    expect(api!.get('InferenceService', 'vision', 'ranker')!.spec.predictor.minReplicas).toBe(0);
    expect((await workloads.resume(ref('InferenceService', 'vision', 'ranker'), live)).restoredReplicas).toBe(3);
    expect(api!.get('InferenceService', 'vision', 'ranker')!.spec.predictor.minReplicas).toBe(3);

    const raw = await workloads.stop(ref('InferenceService', 'vision', 'raw'), live);
    expect(raw.outcome).toBe('refused');
    expect(raw.detail).toContain('KServe RawDeployment mode, which cannot scale to zero');
  });

  it('never touches a protected namespace or workload, nor deletes a bare pod', async () => {
    const workloads = await port([
      workload('Deployment', 'vision', 'keep-me', { annotations: { 'burnrate.io/protect': 'true' }, spec: { replicas: 1 } }),
    ]);
    const chat = await workloads.stop(ref('InferenceService', 'serving', 'chat'), live);
    expect(chat).toMatchObject({
      outcome: 'refused',
      detail: expect.stringContaining('protected (burnrate.io/protect: "true" on the namespace)'),
    });
    expect((await workloads.stop(ref('Deployment', 'vision', 'keep-me'), live)).detail).toContain('on the Deployment');
    expect((await workloads.stop(ref('Pod', 'vision', 'debug-shell'), live)).detail).toContain('burnrate never deletes a pod');
    expect(api!.writes()).toEqual([]);
  });

  it('a dry run sends the same patches with dryRun=All and changes nothing', async () => {
    const workloads = await port();
    const result = await workloads.stop(ref('Deployment', 'vision', 'llm-serve'), { dryRun: true, by: 'U0ALICE' });
    expect(result).toMatchObject({ outcome: 'would-stop', previousReplicas: 2 });
    expect(api!.requests.filter((r) => r.method === 'PATCH').map((r) => r.query.dryRun)).toEqual(['All', 'All']);
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(2);
    expect(api!.writes()).toEqual([]);
  });

  it('Keep writes the expiring annotation with who kept it', async () => {
    const workloads = await port();
    await workloads.keep(ref('Deployment', 'vision', 'llm-serve'), new Date('2026-11-18T10:00:00Z'), 'U0BOB');
    expect(annotations('Deployment', 'vision', 'llm-serve')).toEqual({
      'burnrate.io/keep-until': '2026-11-18T10:00:00.000Z',
      'burnrate.io/kept-by': 'U0BOB',
    });
  });

  it("a workload at zero that someone else scaled down is already stopped, not burnrate's to resume", async () => {
    const workloads = await port([workload('Deployment', 'vision', 'idle-by-hand', { spec: { replicas: 0 } })]);
    const handScaled = ref('Deployment', 'vision', 'idle-by-hand');
    expect(await workloads.stop(handScaled, live)).toEqual({
      outcome: 'already-stopped',
      detail: 'Deployment vision/idle-by-hand was at 0 replicas already',
      previousReplicas: null,
    });
    expect((await workloads.resume(handScaled, live)).outcome).toBe('not-stopped');
    expect(api!.writes()).toEqual([]);
  });

  it('a scale the API server applied but answered 500: read back, the stop is reported as in place', async () => {
    const workloads = await port();
    const serve = ref('Deployment', 'vision', 'llm-serve');
    api!.failNext({ method: 'PATCH', path: '/deployments/llm-serve/scale', status: 500, afterApply: true });
    expect(await workloads.stop(serve, live)).toEqual({
      outcome: 'stopped',
      detail: 'Deployment vision/llm-serve is at 0 replicas (the cluster answered an error, but the stop is in place)',
      previousReplicas: 2,
    });
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(0);
  });

  it('a 500 that did not apply is still an error, and the next Stop does the whole stop', async () => {
    const workloads = await port();
    const serve = ref('Deployment', 'vision', 'llm-serve');
    api!.failNext({ method: 'PATCH', path: '/deployments/llm-serve/scale', status: 500 });
    const failed = await workloads.stop(serve, live).catch((e: unknown) => e);
    expect((failed as BurnrateError).code).toBe('burnrate_kube_failed');
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(2);
    expect((await workloads.stop(serve, live)).detail).toBe('Deployment vision/llm-serve scaled from 2 to 0 replicas');
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(0);
  });

  it('a suspend whose answer was lost and could not be read back: the next Stop finds it stopped by burnrate, Resume undoes it', async () => {
    const workloads = await port();
    const job = ref('Job', 'ml-research', 'train-42');
    api!.failNext({ method: 'PATCH', path: '/jobs/train-42', status: 500, afterApply: true });
    api!.failNext({ method: 'GET', path: '/jobs/train-42', status: 500, skip: 1 });
    expect(((await workloads.stop(job, live).catch((e: unknown) => e)) as BurnrateError).code).toBe('burnrate_kube_failed');
    expect(api!.get('Job', 'ml-research', 'train-42')!.spec.suspend).toBe(true);
    expect(await workloads.stop(job, { dryRun: false, by: 'U0BOB' })).toEqual({
      outcome: 'stopped',
      detail: `Job ml-research/train-42 is suspended: burnrate stopped it for U0ALICE at ${NOW.toISOString()}`,
      previousReplicas: null,
      earlier: { by: 'U0ALICE', at: NOW },
    });
    expect((await workloads.resume(job, live)).outcome).toBe('resumed');
    expect(api!.get('Job', 'ml-research', 'train-42')!.spec.suspend).toBe(false);
  });

  it('explains a missing RBAC verb, and a change by someone else between read and write', async () => {
    const workloads = await port();
    api!.failNext({ method: 'PATCH', path: '/deployments/llm-serve/scale', status: 403 });
    const denied = await workloads.stop(ref('Deployment', 'vision', 'llm-serve'), live).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(BurnrateError);
    expect((denied as BurnrateError).message).toContain('Cluster gpu-prod refused to let burnrate stop Deployment vision/llm-serve');

    api!.failNext({ method: 'PATCH', path: '/rayjobs/sweep', status: 409 });
    const conflict = await workloads.stop(ref('RayJob', 'ml-research', 'sweep'), live).catch((e: unknown) => e);
    expect((conflict as BurnrateError).code).toBe('burnrate_kube_conflict');
    expect(api!.get('RayJob', 'ml-research', 'sweep')!.spec.suspend).toBe(false);
  });
});
