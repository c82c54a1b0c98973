import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { DEFAULT_RECOMMENDATIONS_POLICY, DEFAULT_SPOT_POLICY } from '../../../src/checks/recommend/recommend-policy.js';
import type { GpuUsage } from '../../../src/checks/recommend/gpu-usage.js';
import { commitmentSaving } from '../../../src/checks/waste/commitment-saving.js';
import { commitmentReport, type CommitmentInput } from '../../../src/checks/waste/commitments.js';
import { emptyGpuTime, type GpuTime } from '../../../src/checks/waste/gpu-time.js';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';

// Commitments as they are paid: every expected figure below is hours × rates written out by hand.

const catalog = loadPriceCatalog();
const DAYS = 30;
const PERIOD_SECONDS = DAYS * 86_400;
const HOURS_PER_MONTH = 730; // recommendations.hoursPerMonth's default

/** The catalog's rates the hand computations use, checked against the catalog so they cannot drift apart. */
const P4D_FRA = { onDemand: 27.43298, committed: 17.39244, spot: 18.213 };
const G6E_12XL = { onDemand: 10.49264, committed: 6.61036 };
const P5 = { onDemand: 55.04 };

function machine(id: string, type: string, region: string, overrides: Partial<GpuInstance> = {}): GpuInstance {
  const price = catalog.priceOf('aws', type, region)!;
  return {
    instanceId: id,
    name: id,
    provider: 'aws',
    region,
    instanceType: type,
    gpuModel: price.gpuModel,
    gpuCount: price.gpuCount,
    gpuMemoryGiB: price.gpuMemoryGiB,
    hourlyPrice: price.onDemandHourly,
    lifecycle: 'on-demand',
    team: 'ml-research',
    ownerTag: 'ml-research',
    workload: 'inference',
    protected: false,
    owner: null,
    tags: {},
    ...overrides,
  };
}

/** Its GPUs ran `share` of the period, busy all along. */
function ranFor(share: number, gpus: number): { time: GpuTime; usage: GpuUsage } {
  const time = { ...emptyGpuTime(), observed: share * PERIOD_SECONDS * gpus };
  const usage: GpuUsage = {
    runningHours: share * DAYS * 24,
    windowHours: DAYS * 24,
    meanUtil: 90,
    p95Util: 98,
    memoryHighWaterGiB: 300,
  };
  return { time, usage };
}

function input(over: Partial<CommitmentInput>): CommitmentInput {
  return {
    billed: [],
    unused: [],
    instances: [],
    periodSeconds: PERIOD_SECONDS,
    monthFactor: 1,
    today: '2026-11-18',
    catalog,
    recommendations: DEFAULT_RECOMMENDATIONS_POLICY,
    spot: DEFAULT_SPOT_POLICY,
    ...over,
  };
}

describe('a commitment is paid every hour of its term', () => {
  it('uses the catalog rates the hand computations below are written with', () => {
    expect(catalog.priceOf('aws', 'p4d.24xlarge', 'eu-central-1')).toMatchObject({
      onDemandHourly: P4D_FRA.onDemand,
      committedHourly: P4D_FRA.committed,
      spotHourly: P4D_FRA.spot,
    });
    expect(catalog.priceOf('aws', 'g6e.12xlarge', 'us-east-1')).toMatchObject({
      onDemandHourly: G6E_12XL.onDemand,
      committedHourly: G6E_12XL.committed,
    });
    expect(catalog.priceOf('aws', 'p5.48xlarge', 'us-east-1')!.onDemandHourly).toBe(P5.onDemand);
  });

  it('saves the on-demand cost of the hours it covers less its cost for every hour: nothing at break-even', () => {
    const rates = { onDemandHourly: 10, committedHourly: 6 };
    // Runs 90% of 730 h: 657 h × $10 = $6,570 on demand; the commitment is 730 h × $6 = $4,380.
    expect(commitmentSaving(rates, 0.9, 730)).toEqual({
      coveredHours: 657,
      termHours: 730,
      onDemandCost: 6570,
      commitmentCost: 4380,
      saving: 2190,
    });
    // Break-even at 6 / 10 = 60% of hours; under it the commitment costs more than it covers.
    expect(commitmentSaving(rates, 0.6, 730).saving).toBe(0);
    expect(commitmentSaving(rates, 0.5, 730).saving).toBe(365 * 10 - 730 * 6);
  });

  it('an instance running 79% of hours: the real commitment saving is below spot, so spot is the advice (audit)', () => {
    const share = 0.79;
    const trainer = machine('i-0fra', 'p4d.24xlarge', 'eu-central-1', {
      workload: 'training',
      tags: { checkpoint: 'true', 'checkpoint-interval': '15m' },
    });
    const report = commitmentReport(input({ instances: [{ instance: trainer, ...ranFor(share, 8) }] }));
    const [entry] = report.alwaysOn;

    const hours = share * HOURS_PER_MONTH; // 576.7 h
    // The naive figure the audit found: (on-demand − committed) × running hours = $5,790.38, above spot.
    const naive = (P4D_FRA.onDemand - P4D_FRA.committed) * hours;
    // As paid: 576.7 h × $27.43298 on demand against 730 h × $17.39244 committed = $3,124.12, below spot's $5,308.77.
    const paid = P4D_FRA.onDemand * hours - P4D_FRA.committed * HOURS_PER_MONTH;
    // Spot on the same hours: the discount × 576.7 h, less 2 reclaims × 0.79 of a month, each
    // redoing half the 15-minute interval and a 10-minute restart at the spot rate.
    const reclaims = 2 * share;
    const rework = (reclaims * (15 / 2 + 10)) / 60;
    const spot = (P4D_FRA.onDemand - P4D_FRA.spot) * hours - rework * P4D_FRA.spot;

    expect(entry!.commitmentSaving).toBeCloseTo(paid, 2);
    expect(entry!.spotSaving).toBeCloseTo(spot, 2);
    expect(paid).toBeLessThan(spot);
    expect(naive).toBeGreaterThan(spot);
    expect(entry!.advice).toMatch(/^Spot saves more/);
    expect(entry!.advice).toContain('paid for all 730 h');
  });

  it('an instance running too few hours for a commitment is told so, not sold one', () => {
    // 70% of hours on a g6e.12xlarge: 511 h × $10.49264 = $5,361.74 against 730 h × $6.61036 = $4,825.56.
    const serving = machine('i-0serve', 'g6e.12xlarge', 'us-east-1');
    const report = commitmentReport(input({ instances: [{ instance: serving, ...ranFor(0.7, 4) }] }));
    expect(report.alwaysOn[0]!.commitmentSaving).toBeCloseTo(G6E_12XL.onDemand * 511 - G6E_12XL.committed * 730, 2);
    const cheap = commitmentReport(
      input({
        instances: [{ instance: serving, ...ranFor(0.7, 4) }],
        catalog: {
          ...catalog,
          // A committed rate at 80% of on demand: break-even at 80% of hours, above the 70% it runs.
          priceOf: (p, t, r) => {
            const price = catalog.priceOf(p, t, r);
            return price && { ...price, committedHourly: price.onDemandHourly * 0.8 };
          },
        },
      }),
    );
    const [entry] = cheap.alwaysOn;
    expect(entry!.commitmentSaving).toBeCloseTo(G6E_12XL.onDemand * 511 - G6E_12XL.onDemand * 0.8 * 730, 2);
    expect(entry!.commitmentSaving).toBeLessThan(0);
    expect(entry!.advice).toMatch(/^A 1-year commitment would cost more than it saves/);
  });

  it('commits the node, never the pods on it: two pods holding 2 of 4 GPUs are credited nothing (audit)', () => {
    const node = machine('i-0node', 'g6e.12xlarge', 'us-east-1');
    const pod = (name: string): GpuInstance =>
      machine(`k8s:gpu/serving/Deployment/${name}`, 'g6e.12xlarge', 'us-east-1', {
        gpuCount: 2,
        kubernetes: {
          ref: { cluster: 'gpu', kind: 'Deployment', namespace: 'serving', name },
          pods: [`serving/${name}-0`],
          nodes: [{ name: 'node-a', instanceId: 'i-0node', hourly: G6E_12XL.onDemand, share: 0.5 }],
          keep: null,
        },
      });
    const report = commitmentReport(
      input({
        instances: [
          { instance: node, ...ranFor(1, 4) },
          { instance: pod('chat'), ...ranFor(1, 2) },
          { instance: pod('embed'), ...ranFor(1, 2) },
        ],
      }),
    );
    // One commitment for the node: 730 h × ($10.49264 − $6.61036) = $2,834.06, once.
    expect(report.alwaysOn.map((a) => a.instanceId)).toEqual(['i-0node']);
    expect(report.alwaysOn[0]!.commitmentSaving).toBeCloseTo(730 * (G6E_12XL.onDemand - G6E_12XL.committed), 2);
  });
});

describe('coverage as the provider measures it', () => {
  it('is covered usage at on-demand rates over that plus eligible on-demand spend, not instance-hours', () => {
    const covered = machine('i-0p5', 'p5.48xlarge', 'us-east-1', { workload: 'training' });
    const onDemand = machine('i-0g5', 'g5.xlarge', 'us-east-1');
    const spot = machine('i-0spot', 'g5.xlarge', 'us-east-1', { lifecycle: 'spot' });
    const gcp: GpuInstance = { ...machine('i-0g5b', 'g5.xlarge', 'us-east-1'), instanceId: '123', provider: 'gcp' };
    const row = (resourceId: string, cost: number, hours: number, commitmentId: string | null = null) => ({
      resourceId,
      team: 'ml-research',
      cost,
      days: 10,
      hours,
      commitmentId,
      commitmentEnd: null,
    });
    const billed = [
      row('i-0p5', 100 * 34.9, 100, 'sp-1'), // 100 h under the plan at its rate
      row('i-0g5', 400 * 1.006, 400), // 400 h on demand: eligible
      row('i-0spot', 300 * 0.4, 300), // spot: no commitment covers it
      row('123', 500, 200), // GCP: an AWS Savings Plan cannot cover it
    ];
    const report = commitmentReport(
      input({
        billed,
        unused: [{ commitmentId: 'sp-1', amount: 200, commitmentEnd: null }],
        instances: [covered, onDemand, spot, gcp].map((instance) => ({ instance, time: null, usage: null })),
      }),
    );
    // $5,504 of p5 usage at on-demand rates covered, $402.40 eligible on demand beside it.
    const coveredAtOnDemand = 100 * P5.onDemand;
    expect(report.coverage).toBeCloseTo(coveredAtOnDemand / (coveredAtOnDemand + 400 * 1.006), 10);
    // The hours figure it replaces: 100 of 1,000 instance-hours.
    expect(report.coverage).not.toBeCloseTo(100 / (100 + 400 + 300 + 200), 2);
    expect(report.coverageBasis).toContain('on-demand spend on AWS GPU instances');
    // Utilisation as AWS has it: used commitment ÷ the whole commitment, by cost.
    expect(report.utilisation).toBeCloseTo(3490 / (3490 + 200), 10);
  });
});
