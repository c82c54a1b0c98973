import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { recommend } from '../../../src/checks/recommend/recommend.js';
import { DEFAULT_RECOMMENDATIONS_POLICY, DEFAULT_SPOT_POLICY } from '../../../src/checks/recommend/recommend-policy.js';
import { diagnoseWaste, type BilledResource } from '../../../src/checks/waste/diagnose-waste.js';
import { emptyGpuTime } from '../../../src/checks/waste/gpu-time.js';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';
import { g5Instance } from '../../support/g5-instance.js';

// One right-size figure for a machine 70% under a Savings Plan: the waste diagnosis's "oversized"
// and the recommendation's saving both count only the 30% of its cost no plan covers. A g5.12xlarge
// (4× A10G, 96 GiB) in us-east-1 ran all 30 days at 5% utilisation (10% at its busiest) with 12 GiB
// of memory at most: the bill charged it the catalog's on-demand rate for 720 hours, 70% of it on
// rows naming the plan.
const catalog = loadPriceCatalog();
const policy = DEFAULT_RECOMMENDATIONS_POLICY;
const DAYS = 30;
const HOURS = DAYS * 24;
const SP = 'arn:aws:savingsplans::111111111111:savingsplan/sp-gpu';
const price = catalog.priceOf('aws', 'g5.12xlarge', 'us-east-1')!;

const BOX: GpuInstance = { ...g5Instance('i-0covered000000000', 'llm'), name: 'covered-box' };

const row = (cost: number, commitmentId: string | null): BilledResource => ({
  resourceId: BOX.instanceId,
  team: 'llm',
  cost,
  days: DAYS,
  commitmentId,
  hours: null,
  commitmentEnd: null,
});
const ROWS = [row(price.onDemandHourly * HOURS * 0.7, SP), row(price.onDemandHourly * HOURS * 0.3, null)];
const USAGE = { runningHours: HOURS, windowHours: HOURS, meanUtil: 5, p95Util: 10, memoryHighWaterGiB: 12 };

describe('a Savings-Plan-covered machine: one right-size figure', () => {
  it("the waste diagnosis's oversized equals the recommendation's saving and the uncovered rows × the price difference", () => {
    // The recommendation reads the cover the snapshot attaches (the same bill rows' covered share).
    const [rec] = recommend({
      instances: [{ ...BOX, covered: { share: 0.7, by: 'Savings Plan' } }],
      usage: new Map([[BOX.instanceId, USAGE]]),
      catalog,
      policy,
      spot: DEFAULT_SPOT_POLICY,
    });
    expect(rec!.kind).toBe('right-size');

    // 30 days scaled to the recommendation's 730-hour month.
    const monthFactor = policy.hoursPerMonth / HOURS;
    const diagnosis = diagnoseWaste({
      period: { start: '2026-11-01', end: '2026-12-01', days: DAYS },
      monthFactor,
      currency: 'USD',
      teams: [{ id: 'llm', name: 'LLM Training' }],
      instances: [
        {
          instance: BOX,
          time: { ...emptyGpuTime(), observed: HOURS * 3600, days: new Set(['2026-11-01']) },
          usage: USAGE,
        },
      ],
      billed: ROWS,
      unusedCommitments: [],
      periodSeconds: HOURS * 3600,
      today: '2026-12-02',
      catalog,
      recommendations: policy,
      spot: DEFAULT_SPOT_POLICY,
      inferenceUtilFloor: 20,
    });
    const oversized = diagnosis.teams[0]!.categories.find((c) => c.id === 'oversized')!;

    // By hand: the rows naming no commitment, × the smaller type's price difference, a month.
    const target = catalog.priceOf('aws', rec!.proposed.instanceType, 'us-east-1')!;
    const uncovered = ROWS.filter((r) => r.commitmentId === null).reduce((s, r) => s + r.cost, 0);
    const byHand = Math.round(uncovered * (1 - target.onDemandHourly / price.onDemandHourly) * monthFactor * 100) / 100;

    expect(oversized.monthly).toBe(byHand);
    // The recommendation rounds its whole saving to the cent before taking the share: a cent apart at most.
    expect(Math.abs(rec!.monthlySaving - byHand)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(rec!.monthlySaving - oversized.monthly)).toBeLessThanOrEqual(0.01);
    expect(oversized.evidence.join(' ')).toContain('only the 30% of its cost no commitment covers');
    // The plan pays while it runs: no spot figure from either.
    expect(diagnosis.instances[0]!.spot).toBeNull();
  });
});
