import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import type { SpendRow } from '../../src/domain/spend.js';
import type { TeamWaste, WasteCategoryId } from '../../src/domain/waste.js';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { FakePrometheus, type FakeDcgmGpu, type SampleFn } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { dcgmHostGpu, diagnoseTwoDays, ec2GpuMachine } from '../support/waste-fleet.js';
import { spendRow } from '../support/deps.js';

// Two whole days diagnosed, [16 Nov, 18 Nov), asked on the 18th: 48 hours of five-minute samples.
const NOW = '2026-11-18T06:00:00Z';
const DAY1 = '2026-11-16';
const DAY2 = '2026-11-17';
const START = Date.parse(`${DAY1}T00:00:00Z`) / 1000;
const HOURS = 48;
/** What a monthly figure is: the two days' amount × the days of an average month / 2. */
const MONTH = 365.25 / 12 / 2;

const NOTEBOOK = 'i-0a00000000000000a'; // vision, idle its first 12 hours
const TRAINER = 'i-0b00000000000000b'; // nlp, checkpointed training on demand: spot-ready
const SERVING = 'i-0c00000000000000c'; // nlp, inference at 10 % utilisation all along
const COMMITTED = 'i-0d00000000000000d'; // vision, training under a Savings Plan: never spot
const SAVINGS_PLAN = 'arn:aws:savingsplans::111:savingsplan/sp-1';

const ec2Instance = ec2GpuMachine;

const INSTANCES: FakeEc2Instance[] = [
  ec2Instance(NOTEBOOK, 'ip-10-0-1-11', 'g5.xlarge', { Name: 'cv-notebook', team: 'vision', 'burnrate:workload': 'notebook' }),
  ec2Instance(TRAINER, 'ip-10-0-1-12', 'g4dn.xlarge', {
    Name: 'nlp-train',
    team: 'nlp',
    workload: 'training',
    checkpoint: 'true',
    'checkpoint-interval': '15m',
  }),
  ec2Instance(SERVING, 'ip-10-0-1-13', 'g5.xlarge', { Name: 'nlp-serving', team: 'nlp', workload: 'inference' }),
  ec2Instance(COMMITTED, 'ip-10-0-1-14', 'g4dn.xlarge', { Name: 'cv-train', team: 'vision', workload: 'training', checkpoint: 'true' }),
];

/** What each instance's GPU did: utilisation by time, and memory held (MiB) well above half its GPU. */
function fleet(): FakeDcgmGpu[] {
  const gpu = dcgmHostGpu;
  const idleFirst12h: SampleFn = (t) => (t < START + 12 * 3600 ? 0 : 97);
  return [
    gpu('ip-10-0-1-11', idleFirst12h, (t) => (t < START + 12 * 3600 ? 0 : 20_000)),
    gpu(
      'ip-10-0-1-12',
      () => 97,
      () => 12_000,
    ),
    gpu(
      'ip-10-0-1-13',
      () => 10,
      () => 20_000,
    ),
    gpu(
      'ip-10-0-1-14',
      () => 97,
      () => 12_000,
    ),
  ];
}

/** The bill: each instance's effective cost per day (what the diagnosis prices by), plus the plan's unused part. */
const DAILY: Record<string, { team: string; amount: number; plan?: boolean }> = {
  [NOTEBOOK]: { team: 'vision', amount: 50 },
  [TRAINER]: { team: 'nlp', amount: 24 },
  [SERVING]: { team: 'nlp', amount: 20 },
  [COMMITTED]: { team: 'vision', amount: 8, plan: true },
};
const UNUSED_PER_DAY = 6;

function billRows(): SpendRow[] {
  const rows: SpendRow[] = [];
  for (const day of [DAY1, DAY2]) {
    for (const [id, { team, amount, plan }] of Object.entries(DAILY))
      rows.push({
        ...spendRow(team, day, amount),
        resourceId: id,
        ...(plan ? { pricingCategory: 'Committed', commitmentDiscountId: SAVINGS_PLAN, commitmentDiscountStatus: 'Used', billed: 0 } : {}),
      });
    rows.push({
      ...spendRow('(untagged)', day, UNUSED_PER_DAY),
      ownerTag: null,
      resourceId: SAVINGS_PLAN,
      pricingCategory: 'Committed',
      commitmentDiscountId: SAVINGS_PLAN,
      commitmentDiscountStatus: 'Unused',
      billed: 0,
    });
    // Storage of the same team is not GPU spend.
    rows.push({
      ...spendRow('vision', day, 500),
      resourceId: 'vol-0123',
      service: 'Amazon Elastic Block Store',
      serviceCategory: 'Storage',
    });
  }
  return rows;
}

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({ instances: INSTANCES });
  prom = await FakePrometheus.start({ gpus: fleet() });
  useEc2Endpoint(ec2.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

const diagnose = () => diagnoseTwoDays(prom!.url, billRows(), NOW, '2026-11-18');

const part = (team: TeamWaste, id: WasteCategoryId) => team.categories.find((c) => c.id === id)!.monthly;
const monthly = (twoDays: number) => Math.round(twoDays * MONTH * 100) / 100;

describe('the waste diagnosis, against a hand computation from the bill and the metrics', () => {
  it('prices every cause from the bill, takes each on what the causes before left, and adds up', async () => {
    const diagnosis = await diagnose();
    const vision = diagnosis.teams.find((t) => t.team === 'vision')!;
    const nlp = diagnosis.teams.find((t) => t.team === 'nlp')!;
    expect(diagnosis.period).toEqual({ start: DAY1, end: '2026-11-18', days: 2, scaledToMonth: true });

    // GPU spend: the GPU instances' rows and the unused part of the plan that covered one of them; not the storage.
    expect(vision.gpuSpend).toBe(monthly(2 * 50 + 2 * 8 + 2 * UNUSED_PER_DAY));
    expect(nlp.gpuSpend).toBe(monthly(2 * 24 + 2 * 20));

    // Idle: the notebook's first 12 of its 48 running hours, at what the bill charged for them.
    expect(part(vision, 'idle')).toBe(monthly((2 * 50 * 12) / HOURS));
    // The whole unused plan to the one team whose GPU it covered.
    expect(part(vision, 'unused-commitment')).toBe(monthly(2 * UNUSED_PER_DAY));
    // The committed trainer is checkpointed training, but under a Savings Plan: no spot.
    expect(part(vision, 'spot-ready')).toBe(0);

    // Spot: the catalog's discount for g4dn.xlarge in us-east-1, less two reclaims a month each
    // redoing half a 15-minute checkpoint interval and a 10-minute restart at the spot price.
    const price = loadPriceCatalog().priceOf('aws', 'g4dn.xlarge', 'us-east-1')!;
    const rework = 2 * ((15 / 2 + 10) / 60) * price.spotHourly!;
    const spotShare = ((price.onDemandHourly - price.spotHourly!) * 730 - rework) / (price.onDemandHourly * 730);
    expect(part(nlp, 'spot-ready')).toBeCloseTo(monthly(2 * 24 * spotShare), 1);
    // Inference at 10 % all along, under the 30 % floor: two thirds of its capacity is spare.
    expect(part(nlp, 'inference-off-hours')).toBeCloseTo(monthly(2 * 20 * (1 - 10 / 30)), 1);

    for (const team of [vision, nlp, diagnosis.organisation]) {
      const sum = team.categories.reduce((s, c) => s + c.monthly, 0);
      expect(team.afterFixes).toBeCloseTo(sum, 2);
      expect(team.afterFixes).toBeLessThanOrEqual(team.gpuSpend);
      expect(team.immediate).toBeCloseTo(part(team, 'idle') + part(team, 'stalled') + part(team, 'spot-ready'), 2);
    }
    expect(diagnosis.organisation.gpuSpend).toBeCloseTo(vision.gpuSpend + nlp.gpuSpend, 1);
    expect(diagnosis.organisation.unallocated.monthly).toBe(0);

    const spot = nlp.categories.find((c) => c.id === 'spot-ready')!;
    expect(spot.firstAction).toMatchObject({
      text: expect.stringContaining('nlp-train'),
      button: { action: 'spot.approve', value: JSON.stringify({ i: TRAINER }) },
    });
    expect(vision.categories.find((c) => c.id === 'idle')!.evidence.join(' ')).toMatch(
      /^12 of all 96 running GPU-hours were idle under the idle policy .* on 1 instance, valued at billed rates/,
    );
  });

  it('an instance the bill does not show yet is priced at its list price for the hours its GPUs ran', async () => {
    delete DAILY[SERVING];
    try {
      const diagnosis = await diagnose();
      const nlp = diagnosis.teams.find((t) => t.team === 'nlp')!;
      const listed = loadPriceCatalog().priceOf('aws', 'g5.xlarge', 'us-east-1')!.onDemandHourly * HOURS;
      expect(nlp.gpuSpend).toBeCloseTo(monthly(2 * 24 + listed), 1);
      expect(nlp.categories.find((c) => c.id === 'inference-off-hours')!.evidence.join(' ')).toContain('list prices');
    } finally {
      DAILY[SERVING] = { team: 'nlp', amount: 20 };
    }
  });
});
