import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import type { Deps } from '../../src/deps.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { sampleKubeUsage } from '../../src/jobs/kube-usage.js';
import { spendReport } from '../../commands/spend.js';
import { loadWasteDiagnosis } from '../../src/snapshots/waste-snapshot.js';
import { wasteReport } from '../../templates/waste-report.js';
import { spendRow } from '../support/deps.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { idleDetails } from '../../templates/idle-alert.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { FakeKubeApi } from '../fakes/fake-kube-api.js';
import { INSTANCE_A, INSTANCE_C, NODE_A, NODE_B, NODE_C, sharedCluster } from '../fakes/kube-cluster.js';
import { kubeconfigFor } from '../fakes/kube-objects.js';
import { constant, FakePrometheus, type FakeDcgmGpu, type SampleFn } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';
import { findingOfInstance, press as pressFinding } from '../support/gpu-demo.js';
import { command } from '../support/recording-reply.js';
import { workDir } from '../support/run-cli.js';
import { STRANGER } from '../support/demo-org.js';

// Wednesday 18 Nov 2026, 06:00 UTC. The idle GPUs went idle at 01:00.
const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const IDLE_FROM = T - 5 * 3600;
const DANA = 'U0DANA'; // owns research
const VICTOR = 'U0VICTOR'; // owns vision

const NOTEBOOK = 'k8s:gpu-prod/ml-research/Notebook/dana-nb';
const SERVE = 'k8s:gpu-prod/vision/Deployment/llm-serve';
const DEBUG = 'k8s:gpu-prod/vision/Pod/debug-shell';

const idleAfter =
  (from: number): SampleFn =>
  (t) =>
    t >= from ? 0 : 95;

/** DCGM as dcgm-exporter reports it on the cluster: each GPU (or MIG slice) with the pod holding it. */
function dcgm(): FakeDcgmGpu[] {
  const gpu = (Hostname: string, index: string, util: SampleFn, pod?: { namespace: string; pod: string }, mig?: string): FakeDcgmGpu => ({
    labels: { Hostname, gpu: index, modelName: 'NVIDIA A10G', ...(mig ? { GPU_I_ID: mig } : {}), ...(pod ?? {}) },
    metrics: { DCGM_FI_DEV_GPU_UTIL: util, DCGM_FI_DEV_FB_USED: constant(500) },
  });
  return [
    gpu(NODE_A, '0', idleAfter(IDLE_FROM), { namespace: 'ml-research', pod: 'dana-nb-0' }),
    gpu(NODE_A, '1', idleAfter(IDLE_FROM), { namespace: 'vision', pod: 'llm-serve-5d8f7c-abcde' }),
    gpu(NODE_A, '2', idleAfter(IDLE_FROM), { namespace: 'vision', pod: 'llm-serve-5d8f7c-abcde' }),
    gpu(NODE_A, '3', constant(80), { namespace: 'serving', pod: 'chat-predictor-00001-deployment-6b9c-xyz' }),
    gpu(NODE_B, '0', constant(90), { namespace: 'ml-research', pod: 'sweep-raycluster-x2k-worker-1' }, '1'),
    // Idle, but kept until tomorrow by its burnrate.io/keep-until annotation.
    gpu(NODE_B, '0', idleAfter(IDLE_FROM), { namespace: 'ml-research', pod: 'train-42-q8x7z' }, '9'),
    gpu(NODE_C, '0', idleAfter(IDLE_FROM), { namespace: 'vision', pod: 'debug-shell' }),
    gpu(NODE_C, '1', constant(70), { namespace: 'vision', pod: 'web-7d9f8-k2l3m' }),
    // Six GPUs of NODE_C nobody requested: idle capacity of the node, no workload's.
    ...['2', '3', '4', '5', '6', '7'].map((i) => gpu(NODE_C, i, constant(0))),
  ];
}

let api: FakeKubeApi | undefined;
let prom: FakePrometheus | undefined;
let ec2: FakeEc2 | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  api = await FakeKubeApi.start({ objects: sharedCluster() });
  prom = await FakePrometheus.start({ gpus: dcgm() });
  // The cluster's nodes are EC2 instances too: the EC2 inventory lists them, and burnrate must never stop one.
  ec2 = await FakeEc2.start({
    instances: [
      {
        id: INSTANCE_A,
        region: 'us-east-1',
        state: 'running',
        instanceType: 'g5.12xlarge',
        privateDnsName: NODE_A,
        tags: { team: 'vision', [`kubernetes.io/cluster/gpu-prod`]: 'owned' },
      },
      {
        id: INSTANCE_C,
        region: 'us-east-1',
        state: 'running',
        instanceType: 'p4d.24xlarge',
        privateDnsName: NODE_C,
        tags: { 'eks:cluster-name': 'gpu-prod' },
      },
    ],
  });
  useEc2Endpoint(ec2.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  api?.assertNoUnexpectedRequests();
  prom?.assertNoUnexpectedRequests();
  ec2?.assertNoUnexpectedCalls();
  await Promise.all([api?.close(), prom?.close(), ec2?.close()]);
  api = prom = ec2 = undefined;
});

function setup(actionsEnabled = true) {
  const kubeconfig = join(workDir(), 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigFor(api!.url, api!.bearerToken));
  const t = testDeps(
    {
      teams: [
        { id: 'research', owners: [DANA] },
        { id: 'vision', owners: [VICTOR] },
        { id: 'serving', owners: ['U0SERVING'] },
      ],
      sources: [],
      gpu: {
        metrics: [{ type: 'prometheus', url: prom!.url }],
        inventory: [
          { type: 'ec2', regions: ['us-east-1'] },
          { type: 'kubernetes', cluster: 'gpu-prod', kubeconfig },
        ],
      },
      actions: { enabled: actionsEnabled },
    },
    NOW,
  );
  t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
  return t;
}

async function press(deps: Deps, userId: string, action: string, instanceId: string, extra: object = {}) {
  return pressFinding(deps, userId, action, await findingOfInstance(deps, instanceId), extra);
}

const g5 = () => loadPriceCatalog().priceOf('aws', 'g5.12xlarge', 'us-east-1')!;

describe('Kubernetes workloads in the idle-GPU loop', () => {
  it('alerts idle workloads, not nodes, each at its share of its node, with its team from the namespace', async () => {
    const { deps, chat } = setup();
    const inventory = (await deps.gpu!.inventory()).instances;
    // The EC2 instances that are cluster nodes are not instances to stop.
    expect(inventory.map((i) => i.instanceId)).not.toContain(INSTANCE_A);
    expect(inventory.map((i) => i.instanceId)).not.toContain(INSTANCE_C);

    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.team} ${f.instanceId}`).sort()).toEqual(
      [`research ${NOTEBOOK}`, `vision ${SERVE}`, `vision ${DEBUG}`].sort(),
    );
    // The kept Job is left alone until its annotation's time.
    expect(result.kept.map((f) => f.instanceId)).toEqual(['k8s:gpu-prod/ml-research/Job/train-42']);

    // llm-serve holds 2 of the node's 4 GPUs: half the g5.12xlarge's spot price (the node is Karpenter spot).
    const serve = result.findings.find((f) => f.instanceId === SERVE)!;
    const nodeHourly = g5().spotHourly ?? g5().onDemandHourly!;
    expect(serve.hourlyPrice).toBeCloseTo(nodeHourly / 2, 6);
    expect(serve.burned).toBeCloseTo((nodeHourly / 2) * 5, 2);
    expect(serve.perDay).toBeCloseTo((nodeHourly / 2) * 24, 2);
    // A bare pod is never acted on: protected.
    expect(result.findings.find((f) => f.instanceId === DEBUG)!.protected).toBe(true);

    await deliverOutbox(deps);
    const vision = renderPlainText(chat.posted.find((p) => p.address === '#vision')!.message);
    expect(vision).toMatch(/vision\/llm-serve \(Deployment, 2 GPUs on g5\.12xlarge\): idle since/);
    // The line says it is never stopped; its Details say why.
    expect(vision).toMatch(/vision\/debug-shell \(Pod, 1 GPU on [\w.]+\): .* · protected: never stopped/);
    const debug = result.findings.find((f) => f.instanceId === DEBUG)!;
    expect(renderPlainText(idleDetails(debug))).toContain('Protected (a pod without a controller, never deleted)');
  });

  it('an authorised Stop scales the Deployment to zero once; Resume restores its replicas; the node is never stopped', async () => {
    const { deps } = setup();
    await runGpuCheck(deps);

    expect((await press(deps, STRANGER, 'instance.stop', SERVE)).text()).toContain('Only owners and approvers of vision');
    const [first, second] = await Promise.all([press(deps, VICTOR, 'instance.stop', SERVE), press(deps, VICTOR, 'instance.stop', SERVE)]);
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(0);
    // One scale to zero for two concurrent clicks.
    expect(api!.writes().filter((w) => w.path.endsWith('/deployments/llm-serve/scale'))).toHaveLength(1);
    const updated = [...first.updates, ...second.updates];
    expect(updated).toHaveLength(1);
    const message = updated[0]!;
    expect(renderPlainText(message)).toContain(`Stopped by ${VICTOR}`);
    const resumeButton = message.blocks.flatMap((b) => (b.type === 'actions' ? b.buttons : [])).find((b) => b.action === 'workload.resume');
    expect(resumeButton).toBeDefined();

    expect((await press(deps, STRANGER, 'workload.resume', SERVE)).text()).toContain('Only owners and approvers of vision');
    const resumed = await press(deps, VICTOR, 'workload.resume', SERVE);
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.spec.replicas).toBe(2);
    expect(renderPlainText(resumed.updates[0]!)).toContain(`resumed by ${VICTOR}`);
    expect((await press(deps, VICTOR, 'workload.resume', SERVE)).text()).toMatch(/^Already resumed by U0VICTOR/);

    // The notebook: its Kubeflow annotation; the bare pod: refused.
    await press(deps, DANA, 'instance.stop', NOTEBOOK);
    expect(api!.get('Notebook', 'ml-research', 'dana-nb')!.metadata.annotations).toMatchObject({
      'kubeflow-resource-stopped': expect.any(String),
    });
    expect((await press(deps, VICTOR, 'instance.stop', DEBUG)).text()).toContain('a pod without a controller');

    expect(ec2!.callsOf('StopInstances')).toHaveLength(0);
    const audited = (await deps.store.audit.list()).map((a) => `${a.action} ${a.userId} ${a.result}`);
    expect(audited).toEqual(
      expect.arrayContaining([
        `instance.stop ${VICTOR} ok`,
        `instance.stop ${VICTOR} duplicate`,
        `workload.resume ${VICTOR} ok`,
        `workload.resume ${VICTOR} duplicate`,
        `instance.stop ${DANA} ok`,
      ]),
    );
  });

  it('Keep writes the annotation, and a check that reads it (from any replica) holds off', async () => {
    const { deps } = setup();
    await runGpuCheck(deps);
    await press(deps, VICTOR, 'instance.keep', SERVE, { for: '4h' });
    expect(api!.get('Deployment', 'vision', 'llm-serve')!.metadata.annotations).toEqual({
      'burnrate.io/keep-until': '2026-11-18T10:00:00.000Z',
      'burnrate.io/kept-by': VICTOR,
    });

    // Another replica with its own database sees only the cluster: the annotation holds it off.
    const other = setup();
    const result = await runGpuCheck(other.deps);
    expect(result.kept.map((f) => f.instanceId)).toContain(SERVE);
    expect(result.findings.map((f) => f.instanceId)).not.toContain(SERVE);
  });

  it('reports workloads whose node sends no GPU metrics, once a day to their team, and as idle where missing data counts', async () => {
    // The exporter on NODE_A is down: nothing from the notebook, llm-serve or chat.
    prom!.setGpus(dcgm().filter((g) => g.labels.Hostname !== NODE_A));
    const { deps, chat, setNow } = setup();
    const result = await runGpuCheck(deps);
    expect(result.noMetrics.map((u) => `${u.team} ${u.instanceId}`).sort()).toEqual(
      [`research ${NOTEBOOK}`, `vision ${SERVE}`, 'serving k8s:gpu-prod/serving/InferenceService/chat'].sort(),
    );
    expect(result.findings.map((f) => f.instanceId)).not.toContain(SERVE);
    await deliverOutbox(deps);
    const notice = chat.posted.find((p) => p.address === '#vision' && p.message.summary.includes('no GPU metrics'))!;
    expect(renderPlainText(notice.message)).toContain('vision/llm-serve (g5.12xlarge, vision)');

    // An hour later, the same day: no second notice.
    setNow('2026-11-18T07:00:00Z');
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted.filter((p) => p.address === '#vision' && p.message.summary.includes('no GPU metrics'))).toHaveLength(1);

    // With gpu.idle.missing: idle, a workload that says nothing is idle all along.
    const strict = setup();
    strict.deps.config.gpu.idle.missing = 'idle';
    const idle = await runGpuCheck(strict.deps);
    expect(idle.findings.find((f) => f.instanceId === SERVE)!.description).toContain('no GPU metrics at all');
  });

  it('a cluster that does not answer: the check goes on without it, leaves its nodes alone, and tells its teams once a day', async () => {
    api!.failNext({ path: '/api/v1/nodes', status: 500 });
    const { deps, chat } = setup();
    const result = await runGpuCheck(deps);
    // Nothing of the cluster is known: no workload, and its nodes (tagged as such in EC2) are not instances either.
    const seen = [...result.findings, ...result.noMetrics].map((f) => f.instanceId);
    expect(seen.filter((id) => id.startsWith('k8s:') || id === INSTANCE_A || id === INSTANCE_C)).toEqual([]);
    await deliverOutbox(deps);
    const notices = chat.posted.filter((p) => p.message.summary.includes('Kubernetes cluster gpu-prod is not answering'));
    // Never read and no team claims its namespaces: every team hears it, once.
    expect(notices.map((p) => p.address).sort()).toEqual(['#research', '#serving', '#vision']);
    const text = renderPlainText(notices[0]!.message);
    expect(text).toContain('It has not answered since burnrate started');
    expect(text).toContain('Last read failed: Cluster gpu-prod');

    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted.filter((p) => p.message.summary.includes('is not answering'))).toHaveLength(3);
  });

  it("a restart while the cluster does not answer leaves its workloads' open findings as they were: unknown, not gone", async () => {
    const { deps } = setup();
    await runGpuCheck(deps);
    const before = await deps.store.gpuFindings.listOpen();
    expect(before.filter((f) => f.instanceId.startsWith('k8s:')).length).toBeGreaterThan(0);

    // burnrate starts again (no read of the cluster yet), and the cluster does not answer.
    api!.failNext({ path: '/api/v1/nodes', status: 500 });
    deps.gpu = buildGpuDeps(deps.config, {})!;
    const result = await runGpuCheck(deps);

    expect(result.unavailable.map((u) => u.source)).toEqual(['kubernetes (gpu-prod)']);
    expect(result.findings.filter((f) => f.state === 'resolved')).toEqual([]);
    expect(await deps.store.gpuFindings.listOpen()).toEqual(before);
  });

  it("offers Stop for a whole node only when its GPU pods are all one team's bare pods, and stops that machine once", async () => {
    // NODE_C without its Deployment's pod: only vision's bare debug-shell holds a GPU there, and it went idle.
    await api!.close();
    api = await FakeKubeApi.start({ objects: sharedCluster().filter((o) => o.metadata.name !== 'web-7d9f8-k2l3m') });
    // Its GPU 1 no longer serves the web pod: no pod labels, nothing running.
    prom!.setGpus(
      dcgm().map((g) =>
        g.labels.Hostname === NODE_C && g.labels.gpu === '1'
          ? {
              labels: { Hostname: NODE_C, gpu: '1', modelName: 'NVIDIA A10G' },
              metrics: { ...g.metrics, DCGM_FI_DEV_GPU_UTIL: constant(0) },
            }
          : g,
      ),
    );
    const { deps } = setup();
    const result = await runGpuCheck(deps);
    const ids = result.findings.map((f) => f.instanceId);
    // The node is vision's instance now (its EC2 tags name no team); the bare pod is no workload of its own.
    expect(result.findings.find((f) => f.instanceId === INSTANCE_C)).toMatchObject({ team: 'vision' });
    expect(ids).not.toContain(DEBUG);
    // NODE_A still hosts several teams' workloads and controllers: never an instance.
    expect(ids).not.toContain(INSTANCE_A);

    expect((await press(deps, DANA, 'instance.stop', INSTANCE_C)).text()).toContain('Only owners and approvers of vision');
    await Promise.all([press(deps, VICTOR, 'instance.stop', INSTANCE_C), press(deps, VICTOR, 'instance.stop', INSTANCE_C)]);
    expect(ec2!.callsOf('StopInstances', { dryRun: false }).map((c) => c.instanceIds)).toEqual([[INSTANCE_C]]);
  });

  it('changes nothing in the cluster while actions are a dry run', async () => {
    const { deps } = setup(false);
    await runGpuCheck(deps);
    expect((await press(deps, VICTOR, 'instance.stop', SERVE)).text()).toContain('Dry run');
    await press(deps, VICTOR, 'instance.keep', SERVE, { for: '4h' });
    expect(api!.writes()).toEqual([]);
    expect(api!.requests.filter((r) => r.method === 'PATCH').every((r) => r.query.dryRun === 'All')).toBe(true);
  });
});

describe('Kubernetes cost by namespace and workload', () => {
  it("splits each node's cost over the workloads that held its GPUs, adding up to the nodes' costs to the cent", async () => {
    const { deps, setNow } = setup();
    // The bill charged node C's instance $100.00 on the 18th, 24 hours of use.
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [{ ...spendRow('vision', '2026-11-18', 100), resourceId: INSTANCE_C, usageHours: 24 }],
        dataThrough: '2026-11-19T00:00:00Z',
      },
    ]);
    expect(await sampleKubeUsage(deps)).toBe(0); // the first sample only starts the clock
    setNow('2026-11-18T06:15:00Z');
    expect(await sampleKubeUsage(deps)).toBeGreaterThan(0);

    const report = await spendReport(deps, { period: { start: '2026-11-18', end: '2026-11-19' }, by: 'namespace' });
    const byKey = new Map(report.rows.map((r) => [r.key, r.effective]));

    // By hand. A quarter hour seen. Node A (g5.12xlarge, Karpenter spot, not on the bill): list price;
    // 4 GPUs: notebook 1, llm-serve 2, chat 1. Node B (a2-highgpu-1g, not on the bill): one A100 in
    // MIG slices, 2 × 3g + 1 × 1g = 7/7: the Ray sweep 3/7, train-42 1/7, unrequested 3/7.
    // Node C: $100 for 24 hours; 8 GPUs: debug 1, web 1, 6 unrequested; 23.75 h not observed.
    const catalog = loadPriceCatalog();
    const a = (g5().spotHourly ?? g5().onDemandHourly!) * 0.25;
    const a2 = catalog.priceOf('gcp', 'a2-highgpu-1g', 'us-central1');
    const b = (a2?.onDemandHourly ?? 0) * 0.25;
    const c = 100;
    const expected = new Map([
      ['ml-research', (a * 1) / 4 + (b * 4) / 7],
      ['vision', (a * 2) / 4 + (c * 0.25 * (2 / 8)) / 24],
      ['serving', (a * 1) / 4],
      ['(unrequested GPUs)', (b * 3) / 7 + (c * 0.25 * (6 / 8)) / 24],
      ['(not observed)', (c * 23.75) / 24],
    ]);
    for (const [key, amount] of expected) expect(Math.abs(byKey.get(key)! - amount)).toBeLessThanOrEqual(0.01 + 1e-9);
    // Each node's cost to the cent, split without a cent lost or made up.
    const nodeCosts = Math.round(a * 100) + Math.round(b * 100) + c * 100;
    expect(Math.round(report.total.effective * 100)).toBe(nodeCosts);
    expect(report.rows.reduce((sum, r) => sum + Math.round(r.effective * 100), 0)).toBe(nodeCosts);

    const workloads = await spendReport(deps, { period: { start: '2026-11-18', end: '2026-11-19' }, by: 'workload', team: 'vision' });
    expect(workloads.rows.map((r) => r.key).sort()).toEqual([
      'vision/Deployment/llm-serve',
      'vision/Deployment/web',
      'vision/Pod/debug-shell',
    ]);

    // The same in chat: a vision owner sees vision's namespace only.
    const asked = command(VICTOR, 'spend 2026-11-18..2026-11-18 by namespace');
    await dispatch(deps, asked);
    const answer = asked.reply.text();
    expect(answer).toContain('Namespace');
    expect(answer).toContain('vision');
    expect(answer).not.toContain('ml-research');
  });
});

describe('Static GPU capacity', () => {
  it("moves a billed node's cost to the teams whose workloads held its GPUs, so budgets see it; the bill's total stays whole", async () => {
    const { deps, setNow } = setup();
    deps.config.teams.find((t) => t.id === 'vision')!.budget = { monthly: 0.4, currency: 'USD', thresholds: [50], forecast: false };
    // The bill charged node C's instance $100.00 on the 18th, 24 hours, to research (its EC2 tag).
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [{ ...spendRow('research', '2026-11-18', 100), resourceId: INSTANCE_C, usageHours: 24 }],
        dataThrough: '2026-11-19T00:00:00Z',
      },
    ]);
    await sampleKubeUsage(deps);
    setNow('2026-11-18T06:15:00Z');
    await sampleKubeUsage(deps);

    // By hand: a quarter hour of node C seen, of the 24 billed; vision's debug-shell and web held 1 of its 8 GPUs each.
    const vision = (2 * (100 * (0.25 * (1 / 8)))) / 24;
    const day = { start: '2026-11-18', end: '2026-11-19' };
    const byTeam = new Map((await spendReport(deps, { period: day, by: 'team' })).rows.map((r) => [r.key, r.effective]));
    // Spend answers are exact to the micro-unit (a millionth of a dollar).
    expect(byTeam.get('vision')).toBeCloseTo(vision, 6);
    expect(byTeam.get('research')).toBeCloseTo(100 - vision, 6);
    expect([...byTeam.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    // As cost lines, the workloads beside the node's remainder (what reviews list).
    const lines = (await spendReport(deps, { period: day, by: 'resource', team: 'vision' })).rows.map((r) => r.key).sort();
    expect(lines).toEqual([
      'vision/Deployment/web (k8s:gpu-prod/vision/Deployment/web)',
      'vision/Pod/debug-shell (k8s:gpu-prod/vision/Pod/debug-shell)',
    ]);

    // The split by namespace still starts from the node's whole bill: 23.75 of its 24 hours unseen.
    const namespaces = new Map((await spendReport(deps, { period: day, by: 'namespace' })).rows.map((r) => [r.key, r.effective]));
    expect(namespaces.get('(not observed)')).toBeCloseTo((100 * 23.75) / 24, 2);

    // The waste diagnosis prices vision's workloads on node C at that share of the bill (below, it follows the bill).
    const visionWaste = async () => (await loadWasteDiagnosis(deps, day)).teams.find((t) => t.team === 'vision')!;
    const before = await visionWaste();
    expect(before.categories.find((c) => c.id === 'idle')!.monthly).toBeGreaterThan(0);

    // The budget check sees vision's share: $0.26 of a $0.40 budget is over its 50% threshold.
    const checked = await runBudgetCheck(deps);
    expect(checked.findings.find((f) => f.team === 'vision')).toMatchObject({ kind: 'budget.actual', threshold: 50 });

    // A bill re-imported for the day moves the same shares of the new amount.
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [{ ...spendRow('research', '2026-11-18', 48), resourceId: INSTANCE_C, usageHours: 24 }],
        dataThrough: '2026-11-19T00:00:00Z',
      },
    ]);
    const again = new Map((await spendReport(deps, { period: day, by: 'team' })).rows.map((r) => [r.key, r.effective]));
    expect(again.get('vision')).toBeCloseTo((vision * 48) / 100, 9);
    // The day's figures a month (× 365.25 / 12 days): vision's GPU spend falls by exactly its share of what the bill lost.
    const after = await visionWaste();
    expect(before.gpuSpend - after.gpuSpend).toBeCloseTo(((vision * (100 - 48)) / 100) * (365.25 / 12), 1);
    expect([...again.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(48, 9);
  });

  it('finds the node pools that never scale to zero while their GPUs wait, in the waste diagnosis with the setting to change', async () => {
    const { deps, setNow } = setup();
    // A sample every 15 minutes for 25 hours.
    for (let i = 0; i <= 100; i++) {
      setNow(new Date(Date.parse(NOW) + i * 15 * 60_000).toISOString());
      await sampleKubeUsage(deps);
    }
    const diagnosis = await loadWasteDiagnosis(deps, { start: '2026-11-18', end: '2026-11-20' });
    // gpu-shared (node A) is fully requested. p4d-static (node C): 6 of 8 GPUs unrequested; a100-pool
    // (node B): 3/7 of its A100 unrequested. Both held their node in every sample.
    expect(diagnosis.staticCapacity.map((p) => [p.pool, p.minNodes, p.idleGpuHours, p.gpuHours])).toEqual([
      ['p4d-static', 1, 150, 200],
      ['a100-pool', 1, Math.round(25 * (3 / 7) * 10) / 10, 25],
    ]);
    const p4d = loadPriceCatalog().priceOf('aws', 'p4d.24xlarge', 'us-east-1')!.onDemandHourly!;
    // Its unrequested share (6/8) of the node's list price, outside 09:00–19:00 UTC on weekdays, a month.
    const [p4dPool] = diagnosis.staticCapacity;
    expect(p4dPool!.setting).toContain('EKS node group p4d-static');
    let offHours = 0;
    for (let i = 1; i <= 100; i++) {
      const at = new Date(Date.parse(NOW) + i * 15 * 60_000);
      const minutes = at.getUTCHours() * 60 + at.getUTCMinutes();
      if (!(minutes >= 9 * 60 && minutes < 19 * 60)) offHours += 0.25; // Wed and Thu: working days
    }
    expect(p4dPool!.offHoursMonthly).toBeCloseTo((((6 / 8) * p4d * offHours) / 25) * (365.25 / 12) * 24, 2);

    const text = renderPlainText(wasteReport({ diagnosis, rows: [], dryRun: true }));
    expect(text).toContain('Static GPU capacity');
    expect(text).toContain('gpu-prod/p4d-static: EKS node group p4d-static: set its scaling config minSize to 0');
  });
});
