/**
 * A Stop the Kubernetes API server carried out but answered with 500: the Deployment is at 0 and
 * the person was told to try again. The next click must say it is stopped (by whom, when), and
 * Resume must bring back the replicas burnrate's annotation recorded, here and on a replica whose
 * own database never heard of the stop. Each click is audited once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeKubeApi } from '../fakes/fake-kube-api.js';
import { NODE_A, sharedCluster } from '../fakes/kube-cluster.js';
import { kubeconfigFor } from '../fakes/kube-objects.js';
import { constant, FakePrometheus, type FakeDcgmGpu } from '../fakes/fake-prometheus.js';
import { testDeps } from '../support/deps.js';
import { findingOfInstance, press as pressFinding } from '../support/gpu-demo.js';
import { workDir } from '../support/run-cli.js';

const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const VICTOR = 'U0VICTOR';
const VERA = 'U0VERA'; // owns vision too
const SERVE = 'k8s:gpu-prod/vision/Deployment/llm-serve';
const ANNOTATIONS = ['burnrate.io/stopped-by', 'burnrate.io/stopped-at', 'burnrate.io/previous-replicas'];

let api: FakeKubeApi | undefined;
let prom: FakePrometheus | undefined;

/** llm-serve's two GPUs idle since 01:00; the other GPUs of the node busy. */
function dcgm(): FakeDcgmGpu[] {
  const gpu = (index: string, busy: boolean, pod: { namespace: string; pod: string }): FakeDcgmGpu => ({
    labels: { Hostname: NODE_A, gpu: index, modelName: 'NVIDIA A10G', ...pod },
    metrics: { DCGM_FI_DEV_GPU_UTIL: busy ? constant(90) : (t) => (t >= T - 5 * 3600 ? 0 : 95), DCGM_FI_DEV_FB_USED: constant(500) },
  });
  return [
    gpu('0', true, { namespace: 'ml-research', pod: 'dana-nb-0' }),
    gpu('1', false, { namespace: 'vision', pod: 'llm-serve-5d8f7c-abcde' }),
    gpu('2', false, { namespace: 'vision', pod: 'llm-serve-5d8f7c-abcde' }),
    gpu('3', true, { namespace: 'serving', pod: 'chat-predictor-00001-deployment-6b9c-xyz' }),
  ];
}

beforeEach(async () => {
  api = await FakeKubeApi.start({ objects: sharedCluster() });
  prom = await FakePrometheus.start({ gpus: dcgm() });
});

afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([api?.close(), prom?.close()]);
  api = prom = undefined;
});

/** A burnrate replica with its own database, on the same cluster. */
function replica(): Deps {
  const kubeconfig = join(workDir(), 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigFor(api!.url, api!.bearerToken));
  const { deps } = testDeps(
    {
      teams: [
        { id: 'research', owners: ['U0DANA'] },
        { id: 'vision', owners: [VICTOR, VERA] },
        { id: 'serving', owners: ['U0SERVING'] },
      ],
      sources: [],
      gpu: {
        metrics: [{ type: 'prometheus', url: prom!.url }],
        inventory: [{ type: 'kubernetes', cluster: 'gpu-prod', kubeconfig }],
      },
      actions: { enabled: true },
    },
    NOW,
  );
  deps.gpu = buildGpuDeps(deps.config, {})!;
  return deps;
}

async function press(deps: Deps, userId: string, action: string) {
  return pressFinding(deps, userId, action, await findingOfInstance(deps, SERVE));
}

const deployment = () => api!.get('Deployment', 'vision', 'llm-serve')!;
const scaleWrites = () => api!.writes().filter((w) => w.path.endsWith('/deployments/llm-serve/scale'));
const audited = async (deps: Deps) => (await deps.store.audit.list()).map((a) => `${a.action} ${a.userId} ${a.result}`);

describe('a Stop the cluster applied but answered 500', () => {
  it('the next click says it is stopped, by whom and when; Resume restores the replicas from the annotation; one audit row each', async () => {
    const deps = replica();
    await runGpuCheck(deps);
    // The scale is stored, then answered 500; reading it back fails too, so the first click cannot know.
    api!.failNext({ method: 'PATCH', path: '/deployments/llm-serve/scale', status: 500, afterApply: true });
    api!.failNext({ method: 'GET', path: '/deployments/llm-serve/scale', status: 500, skip: 1 });

    const first = await press(deps, VICTOR, 'instance.stop');
    expect(first.text()).toContain('Cluster gpu-prod answered 500');
    expect(deployment().spec.replicas).toBe(0);
    expect(Object.keys(deployment().metadata.annotations ?? {}).sort()).toEqual([...ANNOTATIONS].sort());

    // The stop's moment as the cluster object records it (the API call's wall-clock time), on the UTC clock.
    const stoppedAt = new Date(deployment().metadata.annotations!['burnrate.io/stopped-at']!);
    const shown = `${stoppedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const second = await press(deps, VERA, 'instance.stop');
    expect(second.text()).toContain(`Already stopped by ${VICTOR} at ${shown}: vision/llm-serve`);
    expect(second.text()).toContain('is still stopped');
    expect(second.updates).toHaveLength(1);
    const alert = second.updates[0]!;
    expect(alert.blocks.flatMap((b) => (b.type === 'actions' ? b.buttons : [])).map((b) => b.action)).toContain('workload.resume');
    // Nothing was sent again: one scale to zero in all.
    expect(scaleWrites()).toHaveLength(1);
    // One saving, from when the stop was made and credited to who made it.
    const savings = await deps.store.savings.since('2000-01-01T00:00:00Z');
    expect(savings.map((e) => [e.byUser, e.at.toISOString()])).toEqual([[VICTOR, stoppedAt.toISOString()]]);

    const resumed = await press(deps, VERA, 'workload.resume');
    expect(deployment().spec.replicas).toBe(2); // the replicas before the stop, as written in the annotation
    expect(deployment().metadata.annotations ?? {}).toEqual({});
    expect(renderPlainText(resumed.updates[0]!)).toContain(`resumed by ${VERA}`);

    expect((await audited(deps)).sort()).toEqual(
      [`instance.stop ${VICTOR} failed`, `instance.stop ${VERA} ok`, `workload.resume ${VERA} ok`].sort(),
    );
  });

  it('a replica whose database never recorded the stop resumes it from the annotation', async () => {
    const deps = replica();
    await runGpuCheck(deps);
    api!.failNext({ method: 'PATCH', path: '/deployments/llm-serve/scale', status: 500, afterApply: true });
    expect((await press(deps, VICTOR, 'instance.stop')).privates).toHaveLength(0); // read back: in place
    expect(deployment().spec.replicas).toBe(0);

    const other = replica();
    await runGpuCheck(other);
    const resumed = await press(other, VERA, 'workload.resume');
    expect(resumed.privates).toEqual([]);
    expect(deployment().spec.replicas).toBe(2);
    expect(await audited(other)).toEqual([`workload.resume ${VERA} ok`]);
    // A Resume of a workload burnrate did not stop is refused, and changes nothing.
    const again = replica();
    await runGpuCheck(again);
    expect((await press(again, VERA, 'workload.resume')).text()).toContain('was not stopped by burnrate: nothing to resume');
    expect(deployment().spec.replicas).toBe(2);
  });
});
