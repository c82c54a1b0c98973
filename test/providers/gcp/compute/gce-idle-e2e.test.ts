import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPriceCatalog } from '../../../../src/catalog/price-catalog.js';
import { runGpuCheck } from '../../../../src/jobs/gpu-check.js';
import { HOURS_HEADER, tempDir, writeFocusCsv, type FixtureRow } from '../../focus/helpers.js';
import { deliverOutbox } from '../../../../src/outbox/deliver-outbox.js';
import { buildGpuDeps } from '../../../../src/providers/gpu-registry.js';
import { monthOf } from '../../../../src/domain/period.js';
import { loadSavingsLedger } from '../../../../src/snapshots/savings-ledger.js';
import { renderPlainText } from '../../../../templates/render/plain-text.js';
import type { FakeOpsAgentGpu } from '../../../fakes/fake-cloud-monitoring.js';
import { FakeComputeEngine, type FakeGceVm } from '../../../fakes/fake-compute-engine.js';
import { FakePrometheus } from '../../../fakes/fake-prometheus.js';
import { STRANGER } from '../../../support/demo-org.js';
import { stopClick as stop } from '../../../support/gpu-demo.js';
import { dcgmIdleFleet, NLP_OWNER as BOB, VISION_OWNER as ALICE, vmIdleDeps } from '../../../support/vm-idle-e2e.js';
import { useGoogleWorkloadIdentity } from './gce-test-env.js';
import { cli, workDir } from '../../../support/run-cli.js';

// Wednesday 18 Nov 2026, 06:00 UTC; the idle GPUs went idle at 01:00.
const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const IDLE_FROM = T - 5 * 3600;
const TOKEN = 'prom-gce-token-9f2a';
const PROJECT = 'acme-ml-train';

const gce = (zone: string, id: string) => `//compute.googleapis.com/projects/${PROJECT}/zones/${zone}/instances/${id}`;
const VISION_IDLE = gce('us-central1-a', '4100000000000000001');
const NLP_PROTECTED = gce('us-central1-a', '4100000000000000002');
const NLP_BUSY = gce('us-central1-b', '4100000000000000003');

const VMS: FakeGceVm[] = [
  {
    project: PROJECT,
    zone: 'us-central1-a',
    name: 'cv-a100-notebook',
    id: '4100000000000000001',
    machineType: 'a2-highgpu-1g',
    status: 'RUNNING',
    networkIP: '10.128.0.17',
    labels: { team: 'vision', 'burnrate-workload': 'notebook' },
  },
  {
    project: PROJECT,
    zone: 'us-central1-a',
    name: 'nlp-serving',
    id: '4100000000000000002',
    machineType: 'g2-standard-8',
    status: 'RUNNING',
    labels: { team: 'nlp', 'burnrate-protect': 'true' },
  },
  {
    project: PROJECT,
    zone: 'us-central1-b',
    name: 'nlp-train',
    id: '4100000000000000003',
    machineType: 'a2-highgpu-1g',
    status: 'RUNNING',
    labels: { team: 'nlp' },
  },
  // No GPU: never listed, never stopped.
  {
    project: PROJECT,
    zone: 'us-central1-a',
    name: 'web-1',
    id: '4100000000000000004',
    machineType: 'e2-standard-4',
    status: 'RUNNING',
    labels: { team: 'vision' },
  },
];

/** DCGM's Hostname is the VM's name, as on Compute Engine (one idle VM's as its internal DNS name). */
const dcgmFleet = () => dcgmIdleFleet(IDLE_FROM, ['cv-a100-notebook', 'nlp-serving.us-central1-a.c.acme-ml-train.internal'], ['nlp-train']);

/** The same VMs as the Ops Agent reports them to Cloud Monitoring: by project, zone and numeric id, no host names. */
function opsAgentGpus(): FakeOpsAgentGpu[] {
  const idleSince = (t: number) => (t >= IDLE_FROM ? 0 : 96);
  const at = (zone: string, instanceId: string, util: (t: number) => number): FakeOpsAgentGpu => ({
    project: PROJECT,
    zone,
    instanceId,
    gpu: '0',
    util,
    memoryUsedBytes: (t) => (util(t) > 0 ? 30e9 : 0.4e9),
  });
  return [
    at('us-central1-a', '4100000000000000001', idleSince),
    at('us-central1-a', '4100000000000000002', idleSince),
    at('us-central1-b', '4100000000000000003', () => 97),
  ];
}

let compute: FakeComputeEngine | undefined;
let prom: FakePrometheus | undefined;

// The Compute Engine and Cloud Monitoring clients take seconds to load (their protos), longer on a
// busy machine: loaded once here, as burnrate loads them at the first GPU read, not inside a test's time.
beforeAll(() => import('../../../../src/providers/gcp/gcp-gpu.js'), 180_000);

beforeEach(async () => {
  compute = await FakeComputeEngine.start(VMS, opsAgentGpus());
  prom = await FakePrometheus.start({ gpus: dcgmFleet(), token: TOKEN });
  useGoogleWorkloadIdentity(compute.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  compute?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([compute?.close(), prom?.close()]);
  compute = prom = undefined;
});

const setup = (
  actionsEnabled = true,
  metrics: object[] = [{ type: 'prometheus', url: prom!.url, bearerTokenEnv: 'PROM_TOKEN' }],
  bill?: string,
) =>
  vmIdleDeps({
    now: NOW,
    gpu: { metrics, inventory: [{ type: 'gce', projects: [PROJECT] }] },
    gpuOf: (config) => buildGpuDeps(config, { PROM_TOKEN: TOKEN })!,
    actionsEnabled,
    ...(bill ? { bill } : {}),
  });

const stopsSent = () => compute!.callsOf('instances.stop').map((c) => c.path.split('/').slice(-2, -1)[0]);
const a2Price = () => loadPriceCatalog().priceOf('gcp', 'a2-highgpu-1g', 'us-central1')!.onDemandHourly;

describe('Compute Engine GPU VMs and DCGM metrics from burnrate.yml', () => {
  it('alerts each team for its idle VMs at the catalog price; Stop stops once, never a protected VM nor for a stranger', async () => {
    const { deps, chat } = await setup();
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.state} ${f.team} ${f.instanceId}`).sort()).toEqual(
      [`new nlp ${NLP_PROTECTED}`, `new vision ${VISION_IDLE}`].sort(),
    );
    // The busy VM is listed and not idle; the VM without GPUs is not listed.
    expect((await deps.gpu!.inventory()).instances.map((i) => i.instanceId).sort()).toEqual([VISION_IDLE, NLP_PROTECTED, NLP_BUSY].sort());
    const vision = result.findings.find((f) => f.instanceId === VISION_IDLE)!;
    expect(vision.hourlyPrice).toBe(a2Price());
    await deliverOutbox(deps);
    expect(renderPlainText(chat.posted.find((p) => p.address === '#vision')!.message)).toMatch(
      /cv-a100-notebook \(a2-highgpu-1g\): idle since .+ · \$[\d,.]+ burned/,
    );
    // Its page in the Google Cloud console, found by the project and zone of its id and its name.
    expect(renderPlainText(chat.posted.find((p) => p.address === '#vision')!.message)).toContain(
      `Open in Google Cloud console: https://console.cloud.google.com/compute/instancesDetail/zones/us-central1-a/instances/cv-a100-notebook?project=${PROJECT}`,
    );

    expect((await stop(deps, STRANGER, VISION_IDLE)).text()).toContain('Only owners and approvers of vision');
    const [first, second] = await Promise.all([stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE)]);
    expect([first, second].flatMap((r) => r.updates.map((u) => renderPlainText(u))).join('\n')).toContain(`Stopped by ${ALICE}`);
    expect(compute!.statusOf('cv-a100-notebook')).toBe('TERMINATED');
    expect((await stop(deps, ALICE, VISION_IDLE)).text()).toMatch(/^Already stopped by U0ALICE/);

    expect((await stop(deps, BOB, NLP_PROTECTED)).text()).toContain('nlp-serving is protected');
    expect(compute!.statusOf('nlp-serving')).toBe('RUNNING');

    // One stop, by id, and its zone operation read until DONE.
    expect(stopsSent()).toEqual(['4100000000000000001']);
    expect(compute!.callsOf('zoneOperations.get').length).toBeGreaterThan(0);
    expect(compute!.calls.filter((c) => c.api !== 'sts.token').every((c) => c.token !== null)).toBe(true);
    const audited = (await deps.store.audit.list()).sort((a, b) => a.id - b.id);
    expect(audited.filter((a) => a.result === 'ok').map((a) => a.userId)).toEqual([ALICE]);
    expect(audited.map((a) => a.result)).toContain('refused');

    // The savings ledger holds the one stop, expected at the VM's price for a day.
    const ledger = await loadSavingsLedger(deps, monthOf('2026-11-01'));
    expect(ledger.lines.map((l) => [l.resourceId, l.byUser])).toEqual([[VISION_IDLE, ALICE]]);
    expect(ledger.lines[0]!.expectedDaily).toBeCloseTo(a2Price() * 24, 2);
  });

  it('burnrate idle --json lists the idle VMs with their team, price and protection', async () => {
    const cwd = workDir();
    writeFileSync(
      join(cwd, 'burnrate.yml'),
      stringify({
        teams: [{ id: 'vision' }, { id: 'nlp' }],
        sources: [],
        gpu: {
          metrics: [{ type: 'prometheus', url: prom!.url, bearerTokenEnv: 'PROM_TOKEN' }],
          inventory: [{ type: 'gce', projects: [PROJECT] }],
        },
      }),
    );
    const result = await cli(['idle', '--json'], { cwd, now: NOW, env: { PROM_TOKEN: TOKEN } });
    expect(result.err).toBe('');
    const { idle } = JSON.parse(result.out) as { idle: { instanceId: string; team: string; hourlyPrice: number; protected: boolean }[] };
    expect(idle.map((f) => [f.instanceId, f.team, f.protected]).sort()).toEqual(
      [
        [NLP_PROTECTED, 'nlp', true],
        [VISION_IDLE, 'vision', false],
      ].sort(),
    );
    expect(idle.find((f) => f.instanceId === VISION_IDLE)!.hourlyPrice).toBe(a2Price());
    expect(compute!.callsOf('instances.stop')).toHaveLength(0);
  });

  it('in dry run (actions not enabled) stops nothing', async () => {
    const { deps } = await setup(false);
    await runGpuCheck(deps);
    const answer = await stop(deps, ALICE, VISION_IDLE);
    expect(answer.text() + answer.updates.map((u) => renderPlainText(u)).join('\n')).toMatch(/dry run|Dry run/);
    expect(compute!.callsOf('instances.stop')).toHaveLength(0);
    expect(compute!.statusOf('cv-a100-notebook')).toBe('RUNNING');
  });
});

describe('Compute Engine GPU VMs and the Ops Agent GPU metrics in Cloud Monitoring', () => {
  it('finds the idle VMs by their ids, re-checks only the clicked VM and stops it once under concurrent clicks', async () => {
    const { deps } = await setup(true, [{ type: 'cloud-monitoring', projects: [PROJECT] }]);
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.team} ${f.instanceId} ${f.hourlyPrice}`).sort()).toEqual(
      [
        `nlp ${NLP_PROTECTED} ${loadPriceCatalog().priceOf('gcp', 'g2-standard-8', 'us-central1')!.onDemandHourly}`,
        `vision ${VISION_IDLE} ${a2Price()}`,
      ].sort(),
    );
    const listed = compute!.callsOf('monitoring.timeSeries.list');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.token !== null && c.query.get('filter')!.includes('resource.type = "gce_instance"'))).toBe(true);

    const before = listed.length;
    await Promise.all([stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE)]);
    const recheck = compute!.callsOf('monitoring.timeSeries.list').slice(before);
    expect(recheck.length).toBeGreaterThan(0);
    expect(recheck.every((c) => c.query.get('filter')!.includes('instance_id = one_of("4100000000000000001")'))).toBe(true);
    expect(await stop(deps, BOB, NLP_PROTECTED).then((r) => r.text())).toContain('nlp-serving is protected');
    expect(stopsSent()).toEqual(['4100000000000000001']);
    expect(compute!.statusOf('nlp-serving')).toBe('RUNNING');
  });
});

describe('a Compute Engine VM on the bill', () => {
  const tmp = tempDir();

  it("is priced at the bill's effective rate where a FOCUS export names it by its resource id", async () => {
    // Eight whole days of cv-a100-notebook under a committed use discount, as Google's FOCUS export writes them.
    const rows: FixtureRow[] = [];
    for (let day = 10; day <= 17; day++)
      rows.push({
        ProviderName: 'Google Cloud',
        ServiceName: 'Compute Engine',
        BillingAccountId: '01F4D2-8C3A7B-9E61D0',
        SubAccountId: PROJECT,
        BillingPeriodStart: '2026-11-01T00:00:00Z',
        ChargePeriodStart: `2026-11-${day}T00:00:00Z`,
        ChargePeriodEnd: `2026-11-${day + 1}T00:00:00Z`,
        ResourceId: VISION_IDLE,
        BilledCost: (day === 17 ? 55.2 : 52.8).toFixed(2),
        EffectiveCost: (day === 17 ? 55.2 : 52.8).toFixed(2),
        PricingCategory: 'Committed',
        ConsumedQuantity: '24',
        ConsumedUnit: 'Hours',
        Tags: '{"team":"vision"}',
      });
    const bill = writeFocusCsv(tmp.path('gcp-focus.csv'), rows, HOURS_HEADER);
    const { deps } = await setup(true, undefined, bill);
    const result = await runGpuCheck(deps);
    const vision = result.findings.find((f) => f.instanceId === VISION_IDLE)!;
    // The independent figure: the rows' effective cost over their hours.
    const effective = rows.reduce((sum, r) => sum + Number(r.EffectiveCost), 0);
    const hours = rows.reduce((sum, r) => sum + Number(r.ConsumedQuantity), 0);
    expect(vision.hourlyPrice).toBeCloseTo(effective / hours, 6);
    expect(vision.hourlyPrice).toBeLessThan(a2Price());
    expect(vision.description).toContain('at its billed rate');
    tmp.cleanup();
  });
});
