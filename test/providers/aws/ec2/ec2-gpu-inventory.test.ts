import { EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../../src/catalog/price-catalog.js';
import { configSchema } from '../../../../src/config/schema.js';
import { teamResolver } from '../../../../src/domain/ownership.js';
import { UNTAGGED } from '../../../../src/domain/spend.js';
import { BurnrateError } from '../../../../src/domain/errors.js';
import { Ec2GpuInventory } from '../../../../src/providers/aws/ec2/ec2-gpu-inventory.js';
import { FakeEc2, type FakeEc2Instance } from '../../../fakes/fake-ec2.js';
import { oneAwsFakePerTest, TEST_AWS_CREDENTIALS } from '../../../support/aws-test-env.js';

const CREDENTIALS = TEST_AWS_CREDENTIALS;
const TEAMS = configSchema.parse({ teams: [{ id: 'vision', match: ['cv'] }, { id: 'nlp' }] }).teams;

const FLEET: FakeEc2Instance[] = [
  {
    id: 'i-0a00000000000000a',
    region: 'us-east-1',
    state: 'running',
    instanceType: 'p4d.24xlarge',
    lifecycle: 'spot',
    privateDnsName: 'ip-10-0-1-17.ec2.internal',
    privateIp: '10.0.1.17',
    tags: { Name: 'cv-train', Team: 'CV', 'burnrate:workload': 'train', 'burnrate:owner': 'U0ALICE' },
  },
  {
    id: 'i-0b00000000000000b',
    region: 'us-east-1',
    state: 'stopped',
    instanceType: 'g5.xlarge',
    tags: { team: 'nlp', 'burnrate:protect': 'true' },
  },
  { id: 'i-0c00000000000000c', region: 'us-east-1', state: 'running', instanceType: 'm5.large', tags: { team: 'nlp' } },
  { id: 'i-0d00000000000000d', region: 'us-east-1', state: 'terminated', instanceType: 'g5.xlarge', tags: { team: 'nlp' } },
  { id: 'i-0e00000000000000e', region: 'eu-west-1', state: 'running', instanceType: 'g5.xlarge', privateIp: '10.8.0.5', tags: {} },
];

const aws = oneAwsFakePerTest<FakeEc2>();

async function inventoryOf(
  regions: string[],
  options: { pageSize?: number; instances?: FakeEc2Instance[] } = {},
): Promise<Ec2GpuInventory> {
  aws.started = await FakeEc2.start({
    instances: options.instances ?? FLEET,
    ...(options.pageSize ? { describePageSize: options.pageSize } : {}),
  });
  const endpoint = aws.started.endpoint;
  return new Ec2GpuInventory({
    regions,
    tagKeys: ['team'],
    resolveTeam: teamResolver(TEAMS),
    clientFor: (region) => new EC2Client({ region, endpoint, credentials: CREDENTIALS, maxAttempts: 1 }),
  });
}

describe('the EC2 GPU inventory', () => {
  it('lists the GPU instances of each region with price, team, workload, protection, owner and host names', async () => {
    const inventory = await inventoryOf(['us-east-1', 'eu-west-1']);
    const list = await inventory.list();
    const catalog = loadPriceCatalog();
    const p4d = catalog.priceOf('aws', 'p4d.24xlarge', 'us-east-1')!;
    const g5eu = catalog.priceOf('aws', 'g5.xlarge', 'eu-west-1')!;

    expect(list.map((i) => i.instanceId).sort()).toEqual(['i-0a00000000000000a', 'i-0b00000000000000b', 'i-0e00000000000000e']);
    const train = list.find((i) => i.instanceId === 'i-0a00000000000000a')!;
    expect(train).toMatchObject({
      name: 'cv-train',
      provider: 'aws',
      region: 'us-east-1',
      instanceType: 'p4d.24xlarge',
      gpuModel: p4d.gpuModel,
      gpuCount: 8,
      gpuMemoryGiB: p4d.gpuMemoryGiB,
      lifecycle: 'spot',
      hourlyPrice: p4d.spotHourly,
      team: 'vision',
      ownerTag: 'CV',
      workload: 'training',
      protected: false,
      owner: 'U0ALICE',
      hostNames: ['ip-10-0-1-17.ec2.internal', '10.0.1.17'],
    });
    expect(p4d.spotHourly).not.toBeNull();
    expect(p4d.spotHourly).toBeLessThan(p4d.onDemandHourly);
    expect(list.find((i) => i.instanceId === 'i-0b00000000000000b')).toMatchObject({
      team: 'nlp',
      protected: true,
      lifecycle: 'on-demand',
      workload: 'unknown',
      owner: null,
    });
    expect(list.find((i) => i.instanceId === 'i-0e00000000000000e')).toMatchObject({
      region: 'eu-west-1',
      team: UNTAGGED,
      hourlyPrice: g5eu.onDemandHourly,
      hostNames: ['10.8.0.5'],
    });

    // One DescribeInstances per region, signed for that region, filtered server side to EC2's GPU families.
    const calls = aws.started!.callsOf('DescribeInstances');
    expect(calls.map((c) => c.region).sort()).toEqual(['eu-west-1', 'us-east-1']);
    for (const call of calls) {
      expect(call.filters['instance-type']).toEqual(['p*', 'g*']);
      expect(call.filters['instance-state-name']).toEqual(['pending', 'running', 'stopping', 'stopped']);
    }
  });

  it('keeps a GPU instance of a region the catalog does not cover, priced as in its cheapest region, and says so', async () => {
    // The public tables price no p5.48xlarge in Paris.
    const paris: FakeEc2Instance = {
      id: 'i-0f00000000000000f',
      region: 'eu-west-3',
      state: 'running',
      instanceType: 'p5.48xlarge',
      tags: { team: 'nlp' },
    };
    const catalog = loadPriceCatalog();
    expect(catalog.priceOf('aws', 'p5.48xlarge', 'eu-west-3')).toBeUndefined();
    const cheapest = catalog.entries
      .filter((e) => e.provider === 'aws' && e.instanceType === 'p5.48xlarge')
      .sort((a, b) => a.onDemandHourly - b.onDemandHourly)[0]!;
    const list = await (await inventoryOf(['eu-west-3'], { instances: [...FLEET, paris] })).list();
    expect(list).toEqual([
      expect.objectContaining({
        instanceId: 'i-0f00000000000000f',
        region: 'eu-west-3',
        team: 'nlp',
        gpuModel: 'H100',
        gpuCount: 8,
        hourlyPrice: cheapest.onDemandHourly,
        priceNote: `priced as in ${cheapest.region}: the price catalog has no p5.48xlarge price for eu-west-3`,
      }),
    ]);
  });

  it('reports a GPU type newer than the catalog with no price, instead of dropping it', async () => {
    const newer: FakeEc2Instance = {
      id: 'i-0d0000000000000dd',
      region: 'us-east-1',
      state: 'running',
      instanceType: 'p7.48xlarge',
      tags: { team: 'nlp' },
    };
    expect(loadPriceCatalog().priceOf('aws', 'p7.48xlarge', 'us-east-1')).toBeUndefined();
    const list = await (await inventoryOf(['us-east-1'], { instances: [...FLEET, newer] })).list();
    expect(list.find((i) => i.instanceId === newer.id)).toMatchObject({
      team: 'nlp',
      gpuModel: '(unknown)',
      gpuCount: 0,
      hourlyPrice: 0,
      priceNote:
        'no price: the price catalog has no p7.48xlarge; priced by the bill once it shows the instance (or add the type to the catalog)',
    });
  });

  it('follows DescribeInstances pages', async () => {
    const inventory = await inventoryOf(['us-east-1'], { pageSize: 1 });
    expect((await inventory.list()).map((i) => i.instanceId).sort()).toEqual(['i-0a00000000000000a', 'i-0b00000000000000b']);
    expect(aws.started!.callsOf('DescribeInstances').length).toBe(2);
  });

  it('says which permission is missing when EC2 refuses', async () => {
    const inventory = await inventoryOf(['us-east-1']);
    aws.started!.deny('ec2:DescribeInstances');
    const error = await inventory.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).code).toBe('burnrate_ec2_access_denied');
    expect((error as BurnrateError).message).toContain('ec2:DescribeInstances');
  });
});
