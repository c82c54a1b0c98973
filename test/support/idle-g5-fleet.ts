import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FakeEc2, type FakeCapacityReservation, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { constant, FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from './aws-test-env.js';
import { workDir } from './run-cli.js';

/** One g5.xlarge of team research in us-east-1: its id, private IP and anything else EC2 says of it. */
export interface IdleG5 {
  id: string;
  ip: string;
  extra?: Partial<FakeEc2Instance>;
}

/**
 * g5.xlarge machines of team research on a fake EC2, each with one A10G idle all along (0% busy,
 * 300 MiB in use) on a fake Prometheus that names it by its private DNS name, as DCGM does.
 */
export async function startIdleG5s(
  boxes: readonly IdleG5[],
  capacityReservations: readonly FakeCapacityReservation[] = [],
): Promise<{ ec2: FakeEc2; prom: FakePrometheus }> {
  isolateAwsEnv();
  const dns = (ip: string) => `ip-${ip.replaceAll('.', '-')}.ec2.internal`;
  const ec2 = await FakeEc2.start({
    instances: boxes.map(({ id, ip, extra }) => ({
      id,
      region: 'us-east-1',
      state: 'running' as const,
      instanceType: 'g5.xlarge',
      privateDnsName: dns(ip),
      privateIp: ip,
      tags: { team: 'research' },
      ...extra,
    })),
    capacityReservations,
  });
  useEc2Endpoint(ec2.endpoint);
  const prom = await FakePrometheus.start({
    gpus: boxes.map(({ ip }) => ({
      labels: { hostname: dns(ip), gpu: '0', modelName: 'NVIDIA A10G' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: constant(0), DCGM_FI_DEV_FB_USED: constant(300) },
    })),
  });
  return { ec2, prom };
}

/** A working directory whose burnrate.yml has team research and reads GPUs from these fakes. */
export function idleG5Project(prom: FakePrometheus): string {
  const cwd = workDir();
  writeFileSync(
    join(cwd, 'burnrate.yml'),
    stringify({
      teams: [{ id: 'research' }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    }),
  );
  return cwd;
}
