import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstSectionWords } from '../support/first-section.js';
import { capacityBlockEnds } from '../../src/checks/idle/capacity-block-ends.js';
import type { GpuInstance } from '../../src/domain/gpu-inventory.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { constant, FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';

// A Capacity Block's end is told to its team a day and an hour before (EC2 terminates the block's
// instances 30 minutes before it ends), once each, however often the check runs. Through the real
// EC2 client against the fake (DescribeCapacityReservations gives the end) and the real outbox.

const BLOCK = 'i-0cb00000000000001';
const RESERVATION = 'cr-0b1c2d3e4f5a6b7c8';
const BLOCK_END = '2026-11-20T11:30:00.000Z';

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({
    instances: [
      {
        id: BLOCK,
        region: 'us-east-1',
        state: 'running',
        instanceType: 'p5.48xlarge',
        privateDnsName: 'ip-10-0-9-1.ec2.internal',
        privateIp: '10.0.9.1',
        tags: { team: 'research', Name: 'pretrain-block' },
        lifecycle: 'capacity-block',
        capacityReservationId: RESERVATION,
      },
    ],
    capacityReservations: [
      { id: RESERVATION, region: 'us-east-1', instanceType: 'p5.48xlarge', endDate: BLOCK_END, type: 'capacity-block' },
    ],
  });
  useEc2Endpoint(ec2.endpoint);
  prom = await FakePrometheus.start({
    gpus: [
      {
        labels: { hostname: 'ip-10-0-9-1.ec2.internal', gpu: '0', modelName: 'NVIDIA H100 80GB HBM3' },
        metrics: { DCGM_FI_DEV_GPU_UTIL: constant(95), DCGM_FI_DEV_FB_USED: constant(60_000) },
      },
    ],
  });
});

afterEach(async () => {
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

function blockDeps(now: string) {
  const built = testDeps(
    {
      teams: [{ id: 'research', name: 'Research' }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom!.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    },
    now,
  );
  built.deps.gpu = buildGpuDeps(built.deps.config, {})!;
  return built;
}

describe("a Capacity Block's end", () => {
  it('is told to its team a day before and an hour before, each once', async () => {
    const { deps, chat, setNow } = blockDeps('2026-11-19T09:00:00Z');
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(0); // more than a day left

    setNow('2026-11-19T12:00:00Z');
    await runGpuCheck(deps);
    setNow('2026-11-19T12:15:00Z');
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted.map((p) => p.message.summary)).toEqual(['Research: the Capacity Block of pretrain-block ends within a day']);
    const text = JSON.stringify(chat.posted[0]!.message.blocks);
    // What to do by when, and that stopping early saves nothing, in at most 25 words.
    expect(text).toContain('when EC2 terminates it');
    expect(text).toContain('stopping early saves nothing');
    expect(firstSectionWords(chat.posted[0]!.message).lead).toBeLessThanOrEqual(25);

    setNow('2026-11-20T10:45:00Z');
    await runGpuCheck(deps);
    setNow('2026-11-20T11:00:00Z');
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted.map((p) => p.message.summary)).toEqual([
      'Research: the Capacity Block of pretrain-block ends within a day',
      'Research: the Capacity Block of pretrain-block ends within the hour',
    ]);

    setNow('2026-11-20T12:00:00Z'); // ended: nothing more
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(2);
    await deps.store.close();
  });
});

describe('capacityBlockEnds', () => {
  const instance = (prepaid: GpuInstance['prepaid']) =>
    ({ instanceId: 'i-1', name: 'x', instanceType: 'p5.48xlarge', team: 't', prepaid }) as GpuInstance;
  const at = (iso: string) => new Date(iso);

  it('announces a block within a day at the nearest lead it has reached, never a reservation, an unknown end or an ended block', () => {
    const block = instance({ kind: 'capacity-block', until: '2026-11-20T11:30:00.000Z' });
    expect(capacityBlockEnds([block], at('2026-11-19T11:29:59Z'))).toEqual([]);
    expect(capacityBlockEnds([block], at('2026-11-19T11:30:00Z')).map((e) => e.lead)).toEqual(['day']);
    expect(capacityBlockEnds([block], at('2026-11-20T10:30:00Z')).map((e) => e.lead)).toEqual(['hour']);
    expect(capacityBlockEnds([block], at('2026-11-20T11:30:00Z'))).toEqual([]);
    expect(capacityBlockEnds([instance({ kind: 'reservation', until: '2026-11-20T11:30:00.000Z' })], at('2026-11-20T11:00:00Z'))).toEqual(
      [],
    );
    expect(capacityBlockEnds([instance({ kind: 'capacity-block', until: null })], at('2026-11-20T11:00:00Z'))).toEqual([]);
  });
});
