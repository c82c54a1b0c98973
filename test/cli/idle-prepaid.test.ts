import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { constant, FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { cli, workDir } from '../support/run-cli.js';

const NOW = '2026-11-18T06:00:00Z';
const BLOCK = 'i-0cb00000000000001';
const ON_DEMAND = 'i-0cd00000000000002';
const RESERVATION = 'cr-0b1c2d3e4f5a6b7c8';
const BLOCK_END = '2026-11-20T11:30:00.000Z';

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  const box = (id: string, ip: string, block?: string) => ({
    id,
    region: 'us-east-1',
    state: 'running' as const,
    instanceType: 'g5.xlarge',
    privateDnsName: `ip-${ip.replaceAll('.', '-')}.ec2.internal`,
    privateIp: ip,
    tags: { team: 'research' },
    ...(block ? { lifecycle: 'capacity-block' as const, capacityReservationId: block } : {}),
  });
  ec2 = await FakeEc2.start({
    instances: [box(BLOCK, '10.0.9.1', RESERVATION), box(ON_DEMAND, '10.0.9.2')],
    capacityReservations: [{ id: RESERVATION, region: 'us-east-1', instanceType: 'g5.xlarge', endDate: BLOCK_END, type: 'capacity-block' }],
  });
  useEc2Endpoint(ec2.endpoint);
  const idle = (ip: string) => ({
    labels: { hostname: `ip-${ip.replaceAll('.', '-')}.ec2.internal`, gpu: '0', modelName: 'NVIDIA A10G' },
    metrics: { DCGM_FI_DEV_GPU_UTIL: constant(0), DCGM_FI_DEV_FB_USED: constant(300) },
  });
  prom = await FakePrometheus.start({ gpus: [idle('10.0.9.1'), idle('10.0.9.2')] });
});

afterEach(async () => {
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

function writeConfig(): string {
  const cwd = workDir();
  writeFileSync(
    join(cwd, 'burnrate.yml'),
    stringify({
      teams: [{ id: 'research' }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom!.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    }),
  );
  return cwd;
}

async function prepaidOf(cwd: string): Promise<Map<string, unknown>> {
  const json = await cli(['idle', '--json'], { cwd, now: NOW });
  expect(json.err).toBe('');
  const { idle } = JSON.parse(json.out) as { idle: { instanceId: string; prepaid?: unknown }[] };
  return new Map(idle.map((f) => [f.instanceId, f.prepaid ?? null]));
}

describe('burnrate idle on a Capacity Block instance', () => {
  it('marks it prepaid until the block ends, and promises no saving in the text; an on-demand one keeps its saving', async () => {
    const cwd = writeConfig();
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
    expect((await prepaidOf(writeConfig())).get(BLOCK)).toEqual({ kind: 'capacity-block', until: null });
  });
});
