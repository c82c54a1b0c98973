import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeCloudWatch, nvidiaSmiMetrics, readNvidiaSmiCapture } from '../fakes/fake-cloudwatch.js';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import {
  constant,
  dcgmGpuLabelSets,
  FakePrometheus,
  readDcgmExposition,
  type FakeDcgmGpu,
  type SampleFn,
} from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';
import { stopClick as stop } from '../support/gpu-demo.js';
import { cli, workDir } from '../support/run-cli.js';
import { STRANGER } from '../support/demo-org.js';

// Wednesday 18 Nov 2026, 06:00 UTC. Idle GPUs went idle at 01:00; a "waking" one starts working at 06:05.
const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const IDLE_FROM = T - 5 * 3600;
const WAKES_AT = T + 5 * 60;
const ALICE = 'U0ALICE'; // owns vision
const BOB = 'U0BOB'; // owns nlp
const CAROL = 'U0CAROL'; // owns llm, whose pods run in namespace ray-llm
const TOKEN = 'prom-e2e-token-5d1c';

const VISION_IDLE = 'i-0a00000000000000a';
const NLP_PROTECTED = 'i-0b00000000000000b';
const NLP_BUSY = 'i-0c00000000000000c';
const LLM_UNTAGGED = 'i-0d00000000000000d';
const VISION_WAKING = 'i-0e00000000000000e';

/** The fleet in EC2: GPU types the catalog prices, host names as the metrics give them. */
const INSTANCES: FakeEc2Instance[] = [
  {
    id: VISION_IDLE,
    region: 'us-east-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    privateDnsName: 'ip-10-0-1-17.ec2.internal',
    privateIp: '10.0.1.17',
    tags: { Name: 'cv-notebook', team: 'vision', 'burnrate:workload': 'notebook' },
  },
  {
    id: NLP_PROTECTED,
    region: 'us-east-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    privateDnsName: 'ip-10-0-1-18.ec2.internal',
    privateIp: '10.0.1.18',
    tags: { Name: 'nlp-serving', team: 'nlp', 'burnrate:protect': 'true' },
  },
  {
    id: NLP_BUSY,
    region: 'us-east-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    privateDnsName: 'ip-10-0-1-19.ec2.internal',
    privateIp: '10.0.1.19',
    tags: { Name: 'nlp-train', team: 'nlp' },
  },
  {
    id: LLM_UNTAGGED,
    region: 'eu-west-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    lifecycle: 'spot',
    privateDnsName: 'ip-10-8-0-5.eu-west-1.compute.internal',
    privateIp: '10.8.0.5',
    tags: { Name: 'ray-worker' },
  },
  {
    id: VISION_WAKING,
    region: 'us-east-1',
    state: 'running',
    instanceType: 'g5.xlarge',
    privateDnsName: 'ip-10-0-1-20.ec2.internal',
    privateIp: '10.0.1.20',
    tags: { Name: 'cv-sweep', team: 'vision' },
  },
  // Not a GPU type: never listed, never stopped.
  { id: 'i-0f00000000000000f', region: 'us-east-1', state: 'running', instanceType: 'm5.large', tags: { team: 'vision' } },
];

const TEAMS = [
  { id: 'vision', owners: [ALICE] },
  { id: 'nlp', owners: [BOB] },
  { id: 'llm', owners: [CAROL], gpu: { namespaces: ['ray-llm'] } },
];

/** Idle values from the shared DCGM exposition's idle T4, busy ones from a working GPU. */
function dcgmFleet(): FakeDcgmGpu[] {
  const samples = readDcgmExposition();
  const idleHost = '424773df46e0';
  const value = (name: string) => samples.find((s) => s.name === name && s.labels.Hostname === idleHost)!.value;
  const [template] = dcgmGpuLabelSets(samples);
  const idleAfter =
    (from: number, until = Number.POSITIVE_INFINITY) =>
    (busy: number, idle: number): SampleFn =>
    (t) =>
      t >= from && t < until ? idle : busy;
  const gpu = (labels: Record<string, string>, when: ReturnType<typeof idleAfter>): FakeDcgmGpu => ({
    labels: { ...template, ...labels },
    metrics: {
      DCGM_FI_DEV_GPU_UTIL: when(97, value('DCGM_FI_DEV_GPU_UTIL')),
      DCGM_FI_DEV_POWER_USAGE: when(190, value('DCGM_FI_DEV_POWER_USAGE')),
      DCGM_FI_DEV_FB_USED: when(20_000, value('DCGM_FI_DEV_FB_USED')),
    },
  });
  return [
    gpu({ Hostname: 'ip-10-0-1-17', gpu: '0' }, idleAfter(IDLE_FROM)),
    gpu({ Hostname: 'ip-10-0-1-18.ec2.internal', gpu: '0' }, idleAfter(IDLE_FROM)),
    {
      labels: { ...template, Hostname: 'ip-10-0-1-19', gpu: '0' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: constant(97), DCGM_FI_DEV_FB_USED: constant(20_000) },
    },
    gpu({ Hostname: 'ip-10-8-0-5', gpu: '0', namespace: 'ray-llm', pod: 'ray-worker-0', container: 'ray' }, idleAfter(IDLE_FROM)),
    gpu({ Hostname: 'ip-10-0-1-20', gpu: '0' }, idleAfter(IDLE_FROM, WAKES_AT)),
  ];
}

function configOf(metrics: object[]): object {
  return {
    teams: TEAMS,
    sources: [],
    gpu: { metrics, inventory: [{ type: 'ec2', regions: ['us-east-1', 'eu-west-1'] }] },
    actions: { enabled: true },
  };
}

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;
let cw: FakeCloudWatch | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({ instances: INSTANCES });
  useEc2Endpoint(ec2.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  cw?.assertNoUnexpectedCalls();
  await Promise.all([ec2?.close(), prom?.close(), cw?.close()]);
  ec2 = prom = cw = undefined;
});

function setup(metrics: object[]) {
  const t = testDeps(configOf(metrics), NOW);
  t.deps.gpu = buildGpuDeps(t.deps.config, { PROM_TOKEN: TOKEN })!;
  return t;
}

const stopsSent = () => ec2!.callsOf('StopInstances', { dryRun: false }).map((c) => `${c.region} ${c.instanceIds.join(',')}`);
const price = (region: string) => loadPriceCatalog().priceOf('aws', 'g5.xlarge', region)!;

describe('Prometheus (DCGM) metrics and the EC2 inventory from burnrate.yml', () => {
  it('burnrate idle --json lists the idle instances with prices and teams', async () => {
    prom = await FakePrometheus.start({ gpus: dcgmFleet(), token: TOKEN });
    const cwd = workDir();
    writeFileSync(join(cwd, 'burnrate.yml'), stringify(configOf([{ type: 'prometheus', url: prom.url, bearerTokenEnv: 'PROM_TOKEN' }])));

    const result = await cli(['idle', '--json'], { cwd, now: NOW, env: { PROM_TOKEN: TOKEN } });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const { idle } = JSON.parse(result.out) as {
      idle: { instanceId: string; team: string; hourlyPrice: number; perDay: number; burned: number; protected: boolean; since: string }[];
    };
    const byId = new Map(idle.map((f) => [f.instanceId, f]));
    expect([...byId.keys()].sort()).toEqual([VISION_IDLE, NLP_PROTECTED, LLM_UNTAGGED, VISION_WAKING].sort());
    expect(byId.get(VISION_IDLE)).toMatchObject({
      team: 'vision',
      hourlyPrice: price('us-east-1').onDemandHourly,
      since: new Date(IDLE_FROM * 1000).toISOString(),
      protected: false,
    });
    expect(byId.get(VISION_IDLE)!.burned).toBeCloseTo(price('us-east-1').onDemandHourly * 5, 2);
    expect(byId.get(NLP_PROTECTED)).toMatchObject({ team: 'nlp', protected: true });
    // No ownership tag, but its GPU runs pods of ray-llm, which llm claims; a spot instance in eu-west-1.
    expect(byId.get(LLM_UNTAGGED)).toMatchObject({
      team: 'llm',
      hourlyPrice: price('eu-west-1').spotHourly ?? price('eu-west-1').onDemandHourly,
    });
    expect(prom.requests.length).toBeGreaterThan(0);
    expect(prom.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(ec2!.callsOf('StopInstances')).toHaveLength(0);
  });

  it('refuses to run without the token variable the config names, saying which, without a stack trace', async () => {
    const cwd = workDir();
    writeFileSync(
      join(cwd, 'burnrate.yml'),
      stringify(configOf([{ type: 'prometheus', url: 'http://127.0.0.1:9', bearerTokenEnv: 'PROM_TOKEN' }])),
    );
    const result = await cli(['idle'], { cwd, now: NOW });
    expect(result.code).toBe(2);
    expect(result.err).toContain('reads its bearer token from PROM_TOKEN, which is not set');
    expect(result.err).not.toMatch(/\n\s+at /);
    expect(ec2!.calls).toHaveLength(0);
  });

  it('the GPU check alerts each team; Stop stops once in the right region, and is refused for protected, busy-again and strangers', async () => {
    prom = await FakePrometheus.start({ gpus: dcgmFleet(), token: TOKEN });
    const { deps, chat, setNow } = setup([{ type: 'prometheus', url: prom.url, bearerTokenEnv: 'PROM_TOKEN' }]);

    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.state} ${f.team} ${f.instanceId}`).sort()).toEqual(
      [`new llm ${LLM_UNTAGGED}`, `new nlp ${NLP_PROTECTED}`, `new vision ${VISION_IDLE}`, `new vision ${VISION_WAKING}`].sort(),
    );
    await deliverOutbox(deps);
    expect(chat.posted.map((p) => p.address).sort()).toEqual(['#llm', '#nlp', '#vision']);
    expect(renderPlainText(chat.posted.find((p) => p.address === '#vision')!.message)).toMatch(
      /cv-notebook \(g5\.xlarge\): idle since .+ · \$[\d,.]+ burned · \$[\d,.]+ per day/,
    );

    expect((await stop(deps, STRANGER, VISION_IDLE)).text()).toContain('Only owners and approvers of vision');
    const first = await stop(deps, ALICE, VISION_IDLE);
    expect(first.updates).toHaveLength(1);
    expect(renderPlainText(first.updates[0]!)).toContain(`Stopped by ${ALICE}`);
    expect((await stop(deps, ALICE, VISION_IDLE)).text()).toMatch(/^Already stopped by U0ALICE/);
    expect(ec2!.stateOf(VISION_IDLE)).toBe('stopping');

    expect((await stop(deps, BOB, NLP_PROTECTED)).text()).toContain('burnrate:protect=true');
    expect(ec2!.stateOf(NLP_PROTECTED)).toBe('running');

    // Routed by the inventory's region: the eu-west-1 client stops the eu-west-1 instance.
    await stop(deps, CAROL, LLM_UNTAGGED);

    // Ten minutes later the sweep works again: the click-time re-check reads the new samples and refuses.
    setNow(new Date((T + 10 * 60) * 1000).toISOString());
    const before = prom.requests.length;
    expect((await stop(deps, ALICE, VISION_WAKING)).text()).toContain('is busy again');
    // The re-check asked Prometheus only for the ten new minutes.
    expect(new Set(prom.requests.slice(before).map((r) => r.start))).toEqual(new Set([T]));
    expect(ec2!.stateOf(VISION_WAKING)).toBe('running');

    expect(stopsSent()).toEqual([`us-east-1 ${VISION_IDLE}`, `eu-west-1 ${LLM_UNTAGGED}`]);
    const audited = (await deps.store.audit.list()).sort((a, b) => a.id - b.id);
    expect(audited.map((a) => `${a.userId} ${a.result} ${a.detail?.split(' ')[0] ?? ''}`)).toEqual([
      `${STRANGER} refused ${VISION_IDLE}`,
      `${ALICE} ok Stopped`,
      `${ALICE} duplicate ${VISION_IDLE}`,
      `${BOB} refused ${NLP_PROTECTED}`,
      `${CAROL} ok Stopped`,
      `${ALICE} refused ${VISION_WAKING}`,
    ]);
  });
});

describe('CloudWatch agent metrics and the EC2 inventory from burnrate.yml', () => {
  it('finds the idle instances by instance id or host name and stops one once', async () => {
    const load = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'load');
    const idle = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'idle');
    const idleSince = (from: number) => nvidiaSmiMetrics((t) => (t >= from ? idle : load));
    cw = await FakeCloudWatch.start({
      gpus: [
        { dimensions: { host: 'ip-10-0-1-17', index: '0', name: idle.name, InstanceId: VISION_IDLE }, metrics: idleSince(IDLE_FROM) },
        { dimensions: { host: 'ip-10-0-1-18.ec2.internal', index: '0', name: idle.name }, metrics: idleSince(IDLE_FROM) },
        { dimensions: { host: 'ip-10-0-1-19', index: '0', name: load.name }, metrics: nvidiaSmiMetrics(() => load) },
      ],
    });
    vi.stubEnv('AWS_ENDPOINT_URL_CLOUDWATCH', cw.endpoint);
    const { deps } = setup([{ type: 'cloudwatch', region: 'us-east-1' }]);

    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.team} ${f.instanceId} ${f.hourlyPrice}`).sort()).toEqual(
      [`nlp ${NLP_PROTECTED} ${price('us-east-1').onDemandHourly}`, `vision ${VISION_IDLE} ${price('us-east-1').onDemandHourly}`].sort(),
    );
    expect(cw.calls.every((c) => c.region === 'us-east-1')).toBe(true);

    await Promise.all([stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE)]);
    expect((await stop(deps, BOB, NLP_PROTECTED)).text()).toContain('burnrate:protect=true');
    expect(stopsSent()).toEqual([`us-east-1 ${VISION_IDLE}`]);
  });
});
