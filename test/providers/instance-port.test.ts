import { EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { DemoInstancePort } from '../../src/providers/demo/demo-instance-port.js';
import { Ec2InstancePort } from '../../src/providers/aws/ec2/ec2-instance-port.js';
import type { InstanceActionPort, InstanceState, StopPermission } from '../../src/ports/instance-port.js';
import { BurnrateError } from '../../src/domain/errors.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { oneAwsFakePerTest, TEST_AWS_CREDENTIALS, useEc2Endpoint } from '../support/aws-test-env.js';

const REGION = 'eu-west-1';
const CREDENTIALS = TEST_AWS_CREDENTIALS;
const IDLE = 'i-0a1b2c3d4e5f60718';
const PROTECTED = 'i-0b1b2c3d4e5f60718';
const STOPPED = 'i-0c1b2c3d4e5f60718';
const UNKNOWN = 'i-0fffffffffffffff0';

const FLEET: InstanceState[] = [
  { id: IDLE, state: 'running', tags: { team: 'vision', Name: 'idle-h100' } },
  { id: PROTECTED, state: 'running', tags: { team: 'nlp', 'burnrate:protect': 'true' } },
  { id: STOPPED, state: 'stopped', tags: { team: 'nlp' } },
];

/** A port over FLEET, and what the cloud behind it saw. */
interface Harness {
  port: InstanceActionPort;
  /** Stops that really happened (not dry runs). */
  stopsSent(): number;
}

const aws = oneAwsFakePerTest<FakeEc2>();

async function startFake(instances: readonly InstanceState[] = FLEET, describePageSize?: number): Promise<FakeEc2> {
  aws.started = await FakeEc2.start({
    instances: instances.map((i) => ({ id: i.id, state: i.state === 'unknown' ? 'pending' : i.state, tags: i.tags })),
    describePageSize,
  });
  return aws.started;
}

function ec2Port(ec2: FakeEc2): Ec2InstancePort {
  return new Ec2InstancePort({
    region: REGION,
    client: new EC2Client({ region: REGION, endpoint: ec2.endpoint, credentials: CREDENTIALS, maxAttempts: 3 }),
  });
}

const PORTS: { name: string; make(denied?: StopPermission[]): Promise<Harness> }[] = [
  {
    name: 'Ec2InstancePort against the fake EC2',
    async make(denied = []) {
      const ec2 = await startFake();
      for (const permission of denied) ec2.deny(permission);
      return { port: ec2Port(ec2), stopsSent: () => ec2.callsOf('StopInstances', { dryRun: false, succeeded: true }).length };
    },
  },
  {
    name: 'DemoInstancePort',
    async make(denied = []) {
      const port = new DemoInstancePort(FLEET, { denied });
      return { port, stopsSent: () => port.stopped.length };
    },
  },
];

async function caught(promise: Promise<unknown>): Promise<BurnrateError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BurnrateError);
  return error as BurnrateError;
}

describe.each(PORTS)('$name', ({ make }) => {
  it('describes instances with their state and tags, in the order asked', async () => {
    const { port } = await make();
    const states = await port.describe([STOPPED, IDLE]);
    expect(states).toEqual([
      { id: STOPPED, state: 'stopped', tags: { team: 'nlp' } },
      { id: IDLE, state: 'running', tags: { team: 'vision', Name: 'idle-h100' } },
    ]);
    expect(await port.describe([])).toEqual([]);
  });

  it('stops a running instance exactly once: a second stop finds it stopping and does nothing', async () => {
    const { port, stopsSent } = await make();
    const first = await port.stop(IDLE, { dryRun: false });
    expect(first).toMatchObject({ id: IDLE, outcome: 'stopped', previousState: 'running' });
    const second = await port.stop(IDLE, { dryRun: false });
    expect(second).toMatchObject({ id: IDLE, outcome: 'already-stopped' });
    expect(['stopping', 'stopped']).toContain(second.previousState);
    expect(stopsSent()).toBe(1);
    const [after] = await port.describe([IDLE]);
    expect(['stopping', 'stopped']).toContain(after!.state);
  });

  it('sends one stop for two concurrent stops of the same instance', async () => {
    const { port, stopsSent } = await make();
    const results = await Promise.all([port.stop(IDLE, { dryRun: false }), port.stop(IDLE, { dryRun: false })]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['already-stopped', 'stopped']);
    expect(stopsSent()).toBe(1);
  });

  it('does nothing for an instance that is already stopped', async () => {
    const { port, stopsSent } = await make();
    expect(await port.stop(STOPPED, { dryRun: false })).toMatchObject({ outcome: 'already-stopped', previousState: 'stopped' });
    expect(stopsSent()).toBe(0);
  });

  it('refuses to stop an instance tagged burnrate:protect=true, and says why', async () => {
    const { port, stopsSent } = await make();
    const result = await port.stop(PROTECTED, { dryRun: false });
    expect(result).toMatchObject({ id: PROTECTED, outcome: 'refused', previousState: 'running' });
    expect(result.detail).toContain('burnrate:protect=true');
    expect(stopsSent()).toBe(0);
    expect((await port.describe([PROTECTED]))[0]!.state).toBe('running');
  });

  it('answers a dry run with would-stop and stops nothing', async () => {
    const { port, stopsSent } = await make();
    expect(await port.stop(IDLE, { dryRun: true })).toMatchObject({ id: IDLE, outcome: 'would-stop', previousState: 'running' });
    expect(stopsSent()).toBe(0);
    expect((await port.describe([IDLE]))[0]!.state).toBe('running');
  });

  it.each([
    ['ec2:StopInstances', false],
    ['ec2:StopInstances', true],
    ['ec2:DescribeInstances', false],
  ] as const)('names the missing permission %s (dry run: %s)', async (permission, dryRun) => {
    const { port, stopsSent } = await make([permission]);
    const error = await caught(port.stop(IDLE, { dryRun }));
    expect(error.code).toBe('burnrate_ec2_access_denied');
    expect(error.describe()).toContain(permission);
    expect(stopsSent()).toBe(0);
  });

  it('says clearly when an instance does not exist', async () => {
    const { port } = await make();
    const error = await caught(port.stop(UNKNOWN, { dryRun: false }));
    expect(error.code).toBe('burnrate_ec2_instance_not_found');
    expect(error.message).toContain(UNKNOWN);
    expect((await caught(port.describe([IDLE, UNKNOWN]))).code).toBe('burnrate_ec2_instance_not_found');
  });
});

describe('Ec2InstancePort on the wire', () => {
  it('reads, then stops with one signed StopInstances in the query protocol', async () => {
    const ec2 = await startFake();
    await ec2Port(ec2).stop(IDLE, { dryRun: false });
    expect(ec2.calls.map((c) => c.action)).toEqual(['DescribeInstances', 'StopInstances']);
    expect(ec2.calls.every((c) => c.service === 'ec2' && c.region === REGION && c.accessKeyId === CREDENTIALS.accessKeyId)).toBe(true);
    expect(ec2.callsOf('StopInstances')[0]!.params).toEqual({ Action: 'StopInstances', Version: '2016-11-15', 'InstanceId.1': IDLE });
    expect(ec2.stateOf(IDLE)).toBe('stopping');
    ec2.settle();
    expect(await ec2Port(ec2).stop(IDLE, { dryRun: false })).toMatchObject({ outcome: 'already-stopped', previousState: 'stopped' });
    expect(ec2.callsOf('StopInstances')).toHaveLength(1);
  });

  it('asks EC2 itself in a dry run (DryRun=true) and sends no real stop', async () => {
    const ec2 = await startFake();
    await ec2Port(ec2).stop(IDLE, { dryRun: true });
    expect(ec2.callsOf('StopInstances').map((c) => c.params.DryRun)).toEqual(['true']);
    expect(ec2.stateOf(IDLE)).toBe('running');
  });

  it('keeps the encoded authorization blob out of a permission error', async () => {
    const ec2 = await startFake();
    ec2.deny('ec2:StopInstances');
    const error = await caught(ec2Port(ec2).stop(IDLE, { dryRun: false }));
    expect(error.describe()).not.toContain('Encoded authorization failure message');
    expect(error.hint).toContain('ec2:DescribeInstances and ec2:StopInstances');
  });

  it('describes in batches of 100 ids and follows nextToken', async () => {
    const fleet: InstanceState[] = Array.from({ length: 250 }, (_, i) => ({
      id: `i-${i.toString(16).padStart(17, '0')}`,
      state: i % 3 === 0 ? 'stopped' : 'running',
      tags: { n: String(i) },
    }));
    const ec2 = await startFake(fleet, 40);
    const ids = fleet.map((i) => i.id).reverse();
    const states = await ec2Port(ec2).describe(ids);
    expect(states.map((s) => s.id)).toEqual(ids);
    expect(states[0]).toEqual({ id: fleet[249]!.id, state: 'stopped', tags: { n: '249' } });
    expect(states[1]).toEqual({ id: fleet[248]!.id, state: 'running', tags: { n: '248' } });
    const calls = ec2.callsOf('DescribeInstances');
    expect(calls.map((c) => c.instanceIds.length)).toEqual([100, 100, 100, 100, 100, 100, 50, 50]);
    expect(calls.map((c) => Boolean(c.params.NextToken))).toEqual([false, true, true, false, true, true, false, true]);
  });

  describe('with the default client (AWS_ENDPOINT_URL_EC2, credentials from the environment)', () => {
    async function defaultPort(): Promise<{ ec2: FakeEc2; port: Ec2InstancePort }> {
      const ec2 = await startFake();
      useEc2Endpoint(ec2.endpoint);
      return { ec2, port: new Ec2InstancePort({ region: REGION }) };
    }

    it('retries throttled calls (RequestLimitExceeded) and then stops', async () => {
      const { ec2, port } = await defaultPort();
      ec2.throttleNext(2);
      expect(await port.stop(IDLE, { dryRun: false })).toMatchObject({ outcome: 'stopped' });
      expect(ec2.calls.map((c) => c.action)).toEqual(['DescribeInstances', 'DescribeInstances', 'DescribeInstances', 'StopInstances']);
    });

    it('gives up after three attempts with an error that says so', async () => {
      const { ec2, port } = await defaultPort();
      ec2.throttleNext(5);
      const error = await caught(port.stop(IDLE, { dryRun: false }));
      expect(error.code).toBe('burnrate_ec2_throttled');
      expect(error.message).toContain('3 attempts');
      expect(ec2.calls).toHaveLength(3);
      expect(ec2.callsOf('StopInstances')).toHaveLength(0);
    });
  });
});
