import { describe, expect, it } from 'vitest';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { addDays, daysOf } from '../../src/domain/period.js';
import { currentRecommendations } from '../../src/snapshots/current-recommendations.js';
import { loadWasteDiagnosis, wastePeriod } from '../../src/snapshots/waste-snapshot.js';
import { spendRow, testDeps } from '../support/deps.js';
import { dcgmHostGpu, ec2GpuMachine, useFakeGpuFleet } from '../support/waste-fleet.js';

// One covered share per instance: a g5.2xlarge working at a fifth of its GPU with 4 GB of its 24,
// billed $29 a day for 14 days, a Savings Plan on its rows for the first 7 and the last 3. The
// recommendation is made from the last 7 days (recommendations.lookbackDays), and so is its waste
// diagnosis: both say the plan covered 3 of those 7 days' cost, by hand, never the 10 of 14 days
// the idle alert's billed rate is taken over.
const NOW = '2026-11-18T06:00:00Z';
const TODAY = '2026-11-18';
const LOOKBACK = 7;
const BOX = 'i-0c0000000000000c1';
const SP = 'arn:aws:savingsplans::111111111111:savingsplan/sp-gpu';
const BILL_DAYS = daysOf({ start: addDays(TODAY, -14), end: TODAY });
const COVERED = (day: string) => day < addDays(TODAY, -LOOKBACK) || day >= addDays(TODAY, -3);

const fleet = useFakeGpuFleet([ec2GpuMachine(BOX, 'ip-10-0-1-21', 'g5.2xlarge', { team: 'llm' })], () => [
  dcgmHostGpu(
    'ip-10-0-1-21',
    () => 20,
    () => 4_000,
  ),
]);

describe('recommend and the waste report: one covered share of one instance, over the same days', () => {
  it("the recommendation's covered share is its lookback days' covered rows over all of them, as the waste diagnosis's", async () => {
    const t = testDeps(
      {
        teams: [{ id: 'llm' }],
        sources: [],
        gpu: { metrics: [{ type: 'prometheus', url: fleet.prometheusUrl() }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
        recommendations: { lookbackDays: LOOKBACK },
      },
      NOW,
    );
    t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
    const rows = BILL_DAYS.map((day) => ({ ...spendRow('llm', day, 29), resourceId: BOX, commitmentDiscountId: COVERED(day) ? SP : null }));
    await t.deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows, dataThrough: null }]);

    // By hand, over the lookback days [11 Nov, 18 Nov): the rows naming the plan over all of them.
    const lookback = rows.filter((r) => r.day >= addDays(TODAY, -LOOKBACK));
    const covered = lookback.filter((r) => r.commitmentDiscountId).reduce((s, r) => s + r.effective, 0);
    const share = covered / lookback.reduce((s, r) => s + r.effective, 0);
    expect(Math.round(share * 100)).toBe(43);

    const [rightSize] = (await currentRecommendations(t.deps)).filter((r) => r.kind === 'right-size');
    expect(rightSize?.instanceId).toBe(BOX);
    expect(rightSize!.evidence.join(' ')).toContain(`${Math.round(share * 100)}% of its billed cost is covered by a Savings Plan`);

    const diagnosis = await loadWasteDiagnosis(t.deps, wastePeriod({ days: LOOKBACK }, TODAY));
    const oversized = diagnosis.teams.find((team) => team.team === 'llm')!.categories.find((c) => c.id === 'oversized')!;
    expect(oversized.evidence.join(' ')).toContain(`only the ${Math.round((1 - share) * 100)}% of its cost no commitment covers`);
  });
});
