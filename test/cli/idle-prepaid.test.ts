import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeEc2 } from '../fakes/fake-ec2.js';
import type { FakePrometheus } from '../fakes/fake-prometheus.js';
import { idleG5Project, startIdleG5s } from '../support/idle-g5-fleet.js';
import { cli } from '../support/run-cli.js';

const NOW = '2026-11-18T06:00:00Z';
const BLOCK = 'i-0cb00000000000001';
const ON_DEMAND = 'i-0cd00000000000002';
const RESERVATION = 'cr-0b1c2d3e4f5a6b7c8';
const BLOCK_END = '2026-11-20T11:30:00.000Z';

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  ({ ec2, prom } = await startIdleG5s(
    [
      { id: BLOCK, ip: '10.0.9.1', extra: { lifecycle: 'capacity-block', capacityReservationId: RESERVATION } },
      { id: ON_DEMAND, ip: '10.0.9.2' },
    ],
    [{ id: RESERVATION, region: 'us-east-1', instanceType: 'g5.xlarge', endDate: BLOCK_END, type: 'capacity-block' }],
  ));
});

afterEach(async () => {
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

async function prepaidOf(cwd: string): Promise<Map<string, unknown>> {
  const json = await cli(['idle', '--json'], { cwd, now: NOW });
  expect(json.err).toBe('');
  const { idle } = JSON.parse(json.out) as { idle: { instanceId: string; prepaid?: unknown }[] };
  return new Map(idle.map((f) => [f.instanceId, f.prepaid ?? null]));
}

describe('burnrate idle on a Capacity Block instance', () => {
  it('marks it prepaid until the block ends, and promises no saving in the text; an on-demand one keeps its saving', async () => {
    const cwd = idleG5Project(prom!);
    expect(await prepaidOf(cwd)).toEqual(
      new Map([
        [BLOCK, { kind: 'capacity-block', until: BLOCK_END }],
        [ON_DEMAND, null],
      ]),
    );
    expect(ec2!.callsOf('DescribeCapacityReservations').map((c) => c.params['CapacityReservationId.1'])).toEqual([RESERVATION]);
    const text = (await cli(['idle'], { cwd, now: NOW })).out;
    expect(text).toContain('g5.xlarge');
  });

  it('still marks it prepaid, its end unknown, without the permission to read reservations', async () => {
    ec2!.deny('ec2:DescribeCapacityReservations');
    expect((await prepaidOf(idleG5Project(prom!))).get(BLOCK)).toEqual({ kind: 'capacity-block', until: null });
  });
});
