import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { checkpointingOf, parseInterval, spotReadiness } from '../../../src/checks/recommend/checkpointing.js';
import { gpuUsageOf, type GpuUsage } from '../../../src/checks/recommend/gpu-usage.js';
import { recommend } from '../../../src/checks/recommend/recommend.js';
import { DEFAULT_RECOMMENDATIONS_POLICY, DEFAULT_SPOT_POLICY } from '../../../src/checks/recommend/recommend-policy.js';
import { rightSizeRecommendation } from '../../../src/checks/recommend/right-size.js';
import { spotRecommendation } from '../../../src/checks/recommend/spot.js';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';
import type { GpuSeries } from '../../../src/domain/gpu-metrics.js';

const catalog = loadPriceCatalog();
const policy = DEFAULT_RECOMMENDATIONS_POLICY;
const spot = DEFAULT_SPOT_POLICY;

/** An instance priced from the real catalog. */
function instance(type: string, region: string, overrides: Partial<GpuInstance> = {}): GpuInstance {
  const price = catalog.priceOf('aws', type, region);
  if (!price) throw new Error(`${type} ${region} not in the catalog`);
  return {
    instanceId: `i-0${type.replace(/\W/g, '')}`.padEnd(19, '0').slice(0, 19),
    name: `${type}-box`,
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
    workload: 'training',
    protected: false,
    owner: null,
    tags: {},
    ...overrides,
  };
}

/** A week; the instance ran `runningHours` of it. */
const usage = (u: Partial<GpuUsage>): GpuUsage => ({
  runningHours: 84,
  windowHours: 168,
  meanUtil: 10,
  p95Util: 30,
  memoryHighWaterGiB: 10,
  ...u,
});

describe('right-size', () => {
  it('picks the cheapest type in the same provider and region that holds the high-water mark with headroom, and prices the saving', () => {
    // g6e.2xlarge (1× L40S, 48 GiB) in us-west-2 using 12 GiB at 8% (20% at its busiest): 14.4 GiB needed.
    const box = instance('g6e.2xlarge', 'us-west-2');
    const rec = rightSizeRecommendation(box, usage({ memoryHighWaterGiB: 12, meanUtil: 8, p95Util: 20 }), catalog, policy)!;
    // Ada Lovelace (the L40S's architecture) or newer, by hand: a T4 (Turing) would hold 14.4 GiB
    // too, but has no bf16 and a fraction of the compute.
    const adaOrNewer = ['L4', 'L40S', 'H100', 'H200', 'B200', 'B300', 'RTX PRO 6000 Blackwell'];
    const fits = catalog.typesIn('aws', 'us-west-2').filter((t) => (t.gpuMemoryGiB ?? 0) >= 14.4 && adaOrNewer.includes(t.gpuModel));
    const cheapest = fits[0]!;
    expect(rec.proposed.instanceType).toBe(cheapest.instanceType);
    expect(rec.proposed.hourly).toBe(cheapest.onDemandHourly);
    expect(rec.current.hourly).toBe(catalog.priceOf('aws', 'g6e.2xlarge', 'us-west-2')!.onDemandHourly);
    // Half the week running: half of 730 hours a month.
    expect(rec.hoursPerMonth).toBe(365);
    expect(rec.monthlySaving).toBeCloseTo((rec.current.hourly - rec.proposed.hourly) * 365, 2);
    expect(rec.evidence.join(' ')).toContain('at most 12 GiB of its 48 GiB GPU memory (25%)');
    expect(rec.evidence.join(' ')).toContain(`${cheapest.instanceType} (1× ${cheapest.gpuModel}, ${cheapest.gpuMemoryGiB} GiB)`);
    expect(rec.id).toBe(`right-size:${box.instanceId}`);
    expect(rec.proposed.instanceType).not.toMatch(/^g4dn/);
    expect(rec.evidence.join(' ')).toContain('on the same architecture (Ada Lovelace)');
  });

  it('needs compute to spare: work at 30% of an L40S at its busiest would keep an L4 (a third of it) 90% busy', () => {
    const box = instance('g6e.2xlarge', 'us-west-2');
    const rec = rightSizeRecommendation(box, usage({ memoryHighWaterGiB: 12, meanUtil: 8, p95Util: 30 }), catalog, policy)!;
    // Dense bf16 tensor TFLOPS from NVIDIA's data sheets, by hand: L40S 362, L4 121.
    const target = catalog.priceOf('aws', rec.proposed.instanceType, 'us-west-2')!;
    const throughput: Record<string, number> = { L40S: 362, L4: 121, H100: 989, H200: 989, B200: 2250, B300: 2250 };
    expect((30 * 362) / (throughput[target.gpuModel]! * target.gpuCount)).toBeLessThanOrEqual(70);
    expect(target.gpuModel).not.toBe('L4');
    expect(rec.evidence.join(' ')).toMatch(/at most 30% busy 95% of the time/);
    // A smaller host is said, and the recommendation's confidence is low until someone has looked.
    const current = catalog.priceOf('aws', 'g6e.2xlarge', 'us-west-2')!;
    if (target.vcpus < current.vcpus) {
      expect(rec.confidence).toBe('low');
      expect(rec.evidence.join(' ')).toContain("no source measures this host's CPU and memory");
    }
  });

  describe('the host must fit too', () => {
    // g6e.2xlarge: 1× L40S, 8 vCPUs, 64 GiB, $2.24208/h in us-west-2 (the catalog's figures).
    const box = () => instance('g6e.2xlarge', 'us-west-2');
    const light = { memoryHighWaterGiB: 12, meanUtil: 8, p95Util: 20 } as const;

    it('never proposes a type with fewer vCPUs or less memory than the host used at its 95th percentile', () => {
      // GPU figures alone: g6.xlarge (L4, 4 vCPUs, 16 GiB), the first test's answer.
      expect(rightSizeRecommendation(box(), usage(light), catalog, policy)!.proposed.instanceType).toBe('g6.xlarge');
      // The host's loaders need 7 vCPUs and 50 GiB (78% of 64): g6.xlarge (4/16) and g6.2xlarge (8/32) are out, and
      // g5 (A10G, Ampere) is older than Ada; g6.4xlarge (L4, 16 vCPUs, 64 GiB, $1.3232/h) is the cheapest that holds it.
      const host = { host: 'i-1', cpu: { amount: 7 }, memory: { share: 50 / 64 } };
      const rec = rightSizeRecommendation(box(), usage({ ...light, host }), catalog, policy)!;
      expect(rec.proposed.instanceType).toBe('g6.4xlarge');
      expect(rec.evidence.join(' ')).toContain('Its host used 7 of its 8 vCPUs and 50 GiB of its 64 GiB memory 95% of the time');
      expect(rec.confidence).toBe('medium');
    });

    it('proposes nothing when no cheaper type holds both the GPU work and the host', () => {
      // At 40% busy an L4 (a third of an L40S) would run at 120%: only an L40S or newer will do, and the one
      // cheaper L40S type, g6e.xlarge, has 4 vCPUs and 32 GiB.
      const busier = { ...light, p95Util: 40 };
      expect(rightSizeRecommendation(box(), usage(busier), catalog, policy)!.proposed.instanceType).toBe('g6e.xlarge');
      const host = { host: 'i-1', cpu: { share: 0.7 }, memory: { share: 0.45 } };
      expect(rightSizeRecommendation(box(), usage({ ...busier, host }), catalog, policy)).toBeNull();
    });

    it('says which host figure went unmeasured when only one is known, and stays low confidence', () => {
      const host = { host: 'i-1', cpu: { amount: 1 }, memory: null };
      const rec = rightSizeRecommendation(box(), usage({ ...light, host }), catalog, policy)!;
      expect(rec.proposed.instanceType).toBe('g6.xlarge');
      expect(rec.evidence.join(' ')).toContain('Its host used 1 of its 8 vCPUs 95% of the time');
      expect(rec.evidence.join(' ')).toContain("16 GiB of memory against 64 GiB now, and no source measures this host's memory");
      expect(rec.confidence).toBe('low');
    });
  });

  it('keeps an 8-GPU training node at 8 GPUs on NVLink, whatever little memory it uses', () => {
    const node = instance('p5.48xlarge', 'us-east-1');
    const rec = rightSizeRecommendation(node, usage({ memoryHighWaterGiB: 60, meanUtil: 12 }), catalog, policy);
    if (rec) {
      const target = catalog.priceOf('aws', rec.proposed.instanceType, 'us-east-1')!;
      expect(target.gpuCount).toBe(8);
      expect(rec.proposed.instanceType).toMatch(/^p/);
    }
    // The same node as a notebook (not multi-GPU training) may go down to fewer GPUs, if its work fits them.
    const notebook = rightSizeRecommendation(
      { ...node, workload: 'notebook' },
      usage({ memoryHighWaterGiB: 60, meanUtil: 3, p95Util: 5 }),
      catalog,
      policy,
    );
    expect(catalog.priceOf('aws', notebook!.proposed.instanceType, 'us-east-1')!.gpuCount).toBeLessThan(8);
  });

  it('never proposes an older architecture or a retired family (K80, M60)', () => {
    // Generations by hand (CUDA compute capability); K80 and M60 are retired.
    const generation: Record<string, number> = {
      K80: 3.7,
      M60: 5.2,
      V100: 7,
      T4: 7.5,
      A100: 8,
      A10G: 8.6,
      L4: 8.9,
      L40S: 8.9,
      H100: 9,
      H200: 9,
    };
    let checked = 0;
    for (const type of ['p2.xlarge', 'g3.4xlarge', 'p3.2xlarge', 'g4dn.xlarge', 'g5.xlarge', 'g6e.xlarge']) {
      const from = catalog.priceOf('aws', type, 'us-east-1');
      if (!from) continue;
      const box = instance(type, 'us-east-1', { workload: 'notebook' });
      const rec = rightSizeRecommendation(box, usage({ memoryHighWaterGiB: 2, meanUtil: 3 }), catalog, policy);
      if (!rec) continue;
      const to = catalog.priceOf('aws', rec.proposed.instanceType, 'us-east-1')!;
      expect(['K80', 'M60']).not.toContain(to.gpuModel);
      expect(generation[to.gpuModel]).toBeGreaterThanOrEqual(generation[from.gpuModel]!);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('needs more memory than a small GPU has: a larger high-water mark moves the answer up', () => {
    const box = instance('g6e.2xlarge', 'us-west-2');
    const rec = rightSizeRecommendation(box, usage({ memoryHighWaterGiB: 18, meanUtil: 8 }), catalog, policy)!;
    expect(catalog.priceOf('aws', rec.proposed.instanceType, 'us-west-2')!.gpuMemoryGiB).toBeGreaterThanOrEqual(18 * 1.2);
    expect(rec.proposed.instanceType).not.toBe('g4dn.xlarge');
  });

  it('says nothing when memory or utilisation is not far below capacity, when idle, or without evidence', () => {
    const box = instance('g6e.2xlarge', 'us-west-2');
    expect(rightSizeRecommendation(box, usage({ memoryHighWaterGiB: 30 }), catalog, policy)).toBeNull();
    expect(rightSizeRecommendation(box, usage({ meanUtil: 55 }), catalog, policy)).toBeNull();
    expect(rightSizeRecommendation(box, usage({ memoryHighWaterGiB: 0.2, meanUtil: 1 }), catalog, policy)).toBeNull();
    expect(rightSizeRecommendation(box, usage({ memoryHighWaterGiB: null }), catalog, policy)).toBeNull();
    expect(rightSizeRecommendation(box, usage({ runningHours: 2 }), catalog, policy)).toBeNull();
  });

  it('never proposes a type that costs more or sits in another region', () => {
    // The cheapest GPU type of the region already: nothing cheaper fits.
    const smallest = catalog.typesIn('aws', 'us-east-1').find((t) => (t.gpuMemoryGiB ?? 0) >= 8)!;
    expect(
      rightSizeRecommendation(instance(smallest.instanceType, 'us-east-1'), usage({ memoryHighWaterGiB: 2 }), catalog, policy),
    ).toBeNull();
    const rec = rightSizeRecommendation(instance('g6e.2xlarge', 'eu-central-1'), usage({ memoryHighWaterGiB: 12 }), catalog, policy)!;
    expect(catalog.priceOf('aws', rec.proposed.instanceType, 'eu-central-1')).toBeDefined();
    expect(rec.proposed.hourly).toBeLessThan(rec.current.hourly);
  });
});

describe('spot', () => {
  const trainer = (tags: Record<string, string>, overrides: Partial<GpuInstance> = {}) =>
    instance('p4d.24xlarge', 'eu-central-1', { tags, ...overrides });

  it('recommends the catalog spot price for checkpointed training on demand, with the saving over its running hours', () => {
    const price = catalog.priceOf('aws', 'p4d.24xlarge', 'eu-central-1')!;
    const rec = spotRecommendation(
      trainer({ checkpoint: 'true', 'checkpoint-interval': '15m' }),
      usage({ runningHours: 168, memoryHighWaterGiB: 280, meanUtil: 90 }),
      catalog,
      policy,
      spot,
    )!;
    expect(rec.proposed).toEqual({ instanceType: 'p4d.24xlarge', lifecycle: 'spot', hourly: price.spotHourly });
    // By hand: running all month, 2 reclaims, each redoing 7.5 min (half of 15) + a 10 min restart at the spot price.
    const rework = ((2 * (7.5 + 10)) / 60) * price.spotHourly!;
    expect(rec.monthlySaving).toBeCloseTo((price.onDemandHourly - price.spotHourly!) * 730 - rework, 2);
    expect(rec.evidence.join(' ')).toContain('after about 2 reclaims a month');
    expect(rec.evidence[0]).toContain('checkpoint=true, every 15m');
    expect(rec.evidence.join(' ')).toContain('needs two different approvers');
  });

  it('warns in its evidence when the interval is too long for approval', () => {
    const rec = spotRecommendation(trainer({ checkpoint: 'true', 'checkpoint-interval': '2h' }), usage({}), catalog, policy, spot)!;
    expect(rec.evidence.join(' ')).toContain('longer than the 30 min allowed on spot');
  });

  it('says nothing for inference, notebooks, spot already, no checkpointing, or no spot price', () => {
    const ck = { checkpoint: 'true', 'checkpoint-interval': '15m' };
    expect(spotRecommendation(trainer(ck, { workload: 'inference' }), usage({}), catalog, policy, spot)).toBeNull();
    expect(spotRecommendation(trainer(ck, { workload: 'notebook' }), usage({}), catalog, policy, spot)).toBeNull();
    expect(spotRecommendation(trainer(ck, { lifecycle: 'spot' }), usage({}), catalog, policy, spot)).toBeNull();
    expect(spotRecommendation(trainer({}), usage({}), catalog, policy, spot)).toBeNull();
    const noSpot = catalog.entries.find((e) => e.provider === 'aws' && e.spotHourly === null && e.gpuCount === 8)!;
    expect(spotRecommendation(instance(noSpot.instanceType, noSpot.region, { tags: ck }), usage({}), catalog, policy, spot)).toBeNull();
  });

  it('recommend() returns both kinds, largest saving first', () => {
    const sweep = instance('g5.12xlarge', 'us-east-1', { workload: 'sweep', tags: { checkpoint: 'true', 'checkpoint-interval': '10m' } });
    const notebook = instance('g6e.2xlarge', 'us-west-2', { instanceId: 'i-0notebook000000000', workload: 'notebook' });
    const recs = recommend({
      instances: [notebook, sweep],
      usage: new Map([
        [sweep.instanceId, usage({ memoryHighWaterGiB: 80, meanUtil: 92 })],
        [notebook.instanceId, usage({ memoryHighWaterGiB: 10, meanUtil: 5 })],
      ]),
      catalog,
      policy,
      spot,
    });
    expect(recs.map((r) => r.kind)).toEqual(['spot', 'right-size']);
    expect(recs[0]!.monthlySaving).toBeGreaterThan(recs[1]!.monthlySaving);
  });

  it('proposes one action per instance, the larger saving, never more than the instance costs', () => {
    // Checkpointed training on a V100 box that also uses little of its GPU: spot and right-size both apply.
    const box = instance('p3.2xlarge', 'us-east-1', { tags: { checkpoint: 'true', 'checkpoint-interval': '10m' } });
    const seen = usage({ memoryHighWaterGiB: 2, meanUtil: 8 });
    const alone = [rightSizeRecommendation(box, seen, catalog, policy)!, spotRecommendation(box, seen, catalog, policy, spot)!];
    const recs = recommend({ instances: [box], usage: new Map([[box.instanceId, seen]]), catalog, policy, spot });
    expect(recs).toHaveLength(1);
    expect(recs[0]!.monthlySaving).toBe(Math.max(...alone.map((r) => r.monthlySaving)));
    expect(recs[0]!.monthlySaving).toBeLessThanOrEqual(recs[0]!.current.hourly * recs[0]!.hoursPerMonth);
    expect(recs[0]!.evidence.at(-1)).toContain('Also possible');
  });

  it('no spot for capacity under a commitment, or for one node of a multi-node training run', () => {
    const ck = { checkpoint: 'true', 'checkpoint-interval': '10m' };
    const a = trainer({ ...ck, run_id: 'llama-70b-r3' }, { instanceId: 'i-0node0a0000000000' });
    const b = trainer({ ...ck, run_id: 'llama-70b-r3' }, { instanceId: 'i-0node0b0000000000' });
    const solo = trainer({ ...ck, run_id: 'ablation-1' }, { instanceId: 'i-0solo00000000000' });
    const committed = trainer(ck, { instanceId: 'i-0committed0000000', covered: { share: 1, by: 'Savings Plan' } });
    const busy = usage({ runningHours: 168, memoryHighWaterGiB: 280, meanUtil: 90 });
    const recs = recommend({
      instances: [a, b, solo, committed],
      usage: new Map([a, b, solo, committed].map((i) => [i.instanceId, busy])),
      catalog,
      policy,
      spot,
      runTagKey: 'run_id',
    });
    expect(recs.map((r) => `${r.kind}:${r.instanceId}`)).toEqual([`spot:${solo.instanceId}`]);
  });
});

describe('under a Savings Plan', () => {
  it('a smaller type saves only on the share of the bill the plan does not cover; all covered, nothing is proposed', () => {
    const light = usage({ memoryHighWaterGiB: 12, meanUtil: 8, p95Util: 20 });
    const free = instance('g6e.2xlarge', 'us-west-2');
    const alone = rightSizeRecommendation(free, light, catalog, policy)!;
    // The same machine with 70% of its bill paid by the plan: the plan's share is no saving.
    const covered = { ...free, covered: { share: 0.7, by: 'Savings Plan' as const } };
    const [rec] = recommend({ instances: [covered], usage: new Map([[free.instanceId, light]]), catalog, policy, spot });
    const expected = Math.round((alone.current.hourly - alone.proposed.hourly) * alone.hoursPerMonth * 0.3 * 100) / 100;
    expect(rec!.kind).toBe('right-size');
    expect(rec!.monthlySaving).toBeCloseTo(expected, 1);
    expect(rec!.evidence.at(-1)).toContain('70% of its billed cost is covered by a Savings Plan');
    const whole = { ...free, covered: { share: 1, by: 'Savings Plan' as const } };
    expect(recommend({ instances: [whole], usage: new Map([[free.instanceId, light]]), catalog, policy, spot })).toEqual([]);
  });
});

describe('checkpointing and spot readiness', () => {
  it('reads intervals in s, m, h and d', () => {
    expect(parseInterval('15m')).toBe(15);
    expect(parseInterval('1h30m')).toBe(90);
    expect(parseInterval('90s')).toBe(1.5);
    expect(parseInterval('45')).toBe(45);
    expect(parseInterval('soon')).toBeNull();
    expect(parseInterval('15 parsecs')).toBeNull();
    expect(checkpointingOf({ ' Checkpoint ': 'TRUE', 'checkpoint-interval': '20m' })).toEqual({
      declared: true,
      intervalMinutes: 20,
      intervalText: '20m',
    });
  });

  it('refuses inference, undeclared checkpointing and long intervals, each with a reason to act on', () => {
    const ready = (tags: Record<string, string>, workload: GpuInstance['workload'] = 'training') =>
      spotReadiness({ workload, lifecycle: 'on-demand', tags }, 30, 'box');
    expect(ready({ checkpoint: 'true', 'checkpoint-interval': '30m' }).ready).toBe(true);
    expect(ready({ checkpoint: 'true', 'checkpoint-interval': '30m' }, 'inference')).toMatchObject({ ready: false, reason: 'inference' });
    expect(ready({})).toMatchObject({ ready: false, reason: 'not-checkpointed', hint: expect.stringContaining('checkpoint=true') });
    expect(ready({ checkpoint: 'true' })).toMatchObject({ ready: false, reason: 'no-interval' });
    expect(ready({ checkpoint: 'true', 'checkpoint-interval': '1h' })).toMatchObject({
      ready: false,
      reason: 'interval-too-long',
      message: expect.stringContaining('every 1h'),
    });
    const guarded = spotReadiness(
      { workload: 'training', lifecycle: 'on-demand', protected: true, tags: { checkpoint: 'true', 'checkpoint-interval': '5m' } },
      30,
      'box',
    );
    expect(guarded).toMatchObject({
      ready: false,
      reason: 'protected',
      message: 'box is tagged burnrate:protect=true, so burnrate never changes it.',
    });
  });
});

describe('GPU usage from series', () => {
  it('sums memory across GPUs at each moment before taking the high-water mark, and counts running hours', () => {
    const range = { start: 0, end: 4 * 3600, stepSeconds: 3600 };
    const times = Float64Array.from([0, 3600, 7200, 10800]);
    const gpu = (g: string, util: number[], mem: number[]): GpuSeries => ({
      ref: { host: 'i-1', gpu: g },
      times,
      util: Float32Array.from(util),
      power: null,
      memUsedMiB: Float32Array.from(mem),
    });
    const u = gpuUsageOf(
      [gpu('0', [10, 20, NaN, NaN], [8192, 1024, NaN, NaN]), gpu('1', [30, 40, NaN, NaN], [1024, 8192, NaN, NaN])],
      range,
    );
    expect(u.runningHours).toBe(2);
    expect(u.windowHours).toBe(4);
    expect(u.meanUtil).toBe(25);
    expect(u.memoryHighWaterGiB).toBe(9);
  });
});
