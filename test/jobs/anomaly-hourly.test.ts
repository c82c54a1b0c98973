import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import { runCheck } from '../../src/jobs/run-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { constant, FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { CAROL } from '../support/demo-org.js';
import { testDeps } from '../support/deps.js';
import { dispatchClick } from '../support/dispatch-click.js';

// A sweep started at 14:00 UTC on a machine of its own (a p5.48xlarge, $55.04 an hour at list price in
// us-east-1) is caught from the GPU metrics once its hours pass the $200 floor, on its fourth
// complete hour, hours before the day's bill has it: through the real EC2 client and Prometheus
// source against their fakes, the hourly anomaly check as the GPU check's job runs it.

const BASE = 'i-0base0000000000001';
const SWEEP = 'i-0sweep000000000017';
const STARTED = Date.parse('2026-11-20T14:00:00Z') / 1000;

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  const instance = (id: string, name: string, ip: string) => ({
    id,
    region: 'us-east-1',
    state: 'running' as const,
    instanceType: 'p5.48xlarge',
    privateDnsName: `ip-10-0-9-${ip}.ec2.internal`,
    privateIp: `10.0.9.${ip}`,
    tags: { team: 'ml', Name: name },
  });
  ec2 = await FakeEc2.start({ instances: [instance(BASE, 'trainer', '1'), instance(SWEEP, 'llm-sweep-17', '2')] });
  useEc2Endpoint(ec2.endpoint);
  const gpu = (ip: string, util: (t: number) => number | null) => ({
    labels: { hostname: `ip-10-0-9-${ip}.ec2.internal`, gpu: '0', modelName: 'NVIDIA H100 80GB HBM3' },
    metrics: { DCGM_FI_DEV_GPU_UTIL: util, DCGM_FI_DEV_FB_USED: constant(60_000) },
  });
  // The trainer runs all week; the sweep's machine reports nothing before 14:00 on the 20th.
  prom = await FakePrometheus.start({ gpus: [gpu('1', constant(90)), gpu('2', (t) => (t >= STARTED ? 95 : null))] });
});

afterEach(async () => {
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

function hourlyDeps(now: string) {
  const built = testDeps(
    {
      teams: [{ id: 'ml', name: 'ML', owners: [CAROL] }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom!.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    },
    now,
  );
  built.deps.gpu = buildGpuDeps(built.deps.config, {})!;
  return built;
}

describe('the hourly anomaly check on GPU metrics', () => {
  it('says nothing under the floor, alerts once past it with the machine, and Expected accepts its level', async () => {
    const { deps, setNow } = hourlyDeps('2026-11-20T15:30:00Z');
    // Only 14:00 is complete: one hour is a job starting.
    expect((await runCheck(deps, anomalyCheck(undefined, 'hourly'))).findings).toEqual([]);
    // Three hours: about $165 over, under the $200 floor.
    setNow('2026-11-20T17:30:00Z');
    expect((await runCheck(deps, anomalyCheck(undefined, 'hourly'))).findings).toEqual([]);

    setNow('2026-11-20T18:30:00Z');
    const run = await runCheck(deps, anomalyCheck(undefined, 'hourly'));
    expect(run.findings.map((f) => `${f.state} ${f.id}`)).toEqual(['new anomaly:ml:2026-11-20']);
    const finding = run.findings[0]!;
    expect(finding.hourly).toMatchObject({ startedAt: '2026-11-20T14:00:00.000Z', through: '2026-11-20T18:00:00.000Z', hours: 4 });
    // Independent: the sweep machine's hourly rate (as the inventory lists it) for the four hours; the trainer cost the same as every day.
    const price = (await deps.gpu!.inventory()).instances.find((i) => i.instanceId === SWEEP)!.hourlyPrice;
    expect(finding.excess).toBeCloseTo(4 * price, 2);
    expect(finding.drivers[0]).toMatchObject({ dimension: 'resource', key: `llm-sweep-17 (${SWEEP})`, usual: 0 });
    expect(finding.drivers[0]!.amount).toBeCloseTo(4 * price, 2);
    expect(run.queued).toHaveLength(1);
    const alert = renderPlainText(run.queued[0]!.message);
    expect(alert).toContain('GPU spend anomaly');
    expect(alert).toContain(`from resource llm-sweep-17 (${SWEEP})`);
    // How it was found, and what it costs a day at this rate, one Details click away.
    const details = renderPlainText((await dispatchClick(deps, CAROL, 'finding.details', { f: finding.id })).privates[0]!);
    expect(details).toContain("before the day's bill");
    expect(details).toContain('a day.');

    // The next run within the same hour says nothing more.
    expect((await runCheck(deps, anomalyCheck(undefined, 'hourly'))).queued).toEqual([]);

    // Expected: the machine's level a day (its two hours' rise, as a day) is accepted.
    await dispatchClick(deps, CAROL, 'anomaly.expected', { f: finding.id });
    expect((await deps.store.anomalyFindings.get(finding.id))!.answer!.accepted).toMatchObject({
      dimension: 'resource',
      key: `llm-sweep-17 (${SWEEP})`,
    });
    expect((await deps.store.anomalyFindings.get(finding.id))!.answer!.accepted!.delta).toBeCloseTo(24 * price, 1);
    setNow('2026-11-20T20:30:00Z');
    const next = await runCheck(deps, anomalyCheck(undefined, 'hourly'));
    expect(next.findings).toEqual([]);
    expect(next.resolved).toEqual([finding.id]);
    expect(renderPlainText(next.queued[0]!.message)).toContain('Accepted as expected.');
  });
});
