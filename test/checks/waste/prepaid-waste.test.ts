import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { DEFAULT_RECOMMENDATIONS_POLICY, DEFAULT_SPOT_POLICY } from '../../../src/checks/recommend/recommend-policy.js';
import { diagnoseWaste, type BilledResource, type WasteInput } from '../../../src/checks/waste/diagnose-waste.js';
import { emptyGpuTime, type GpuTime } from '../../../src/checks/waste/gpu-time.js';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';

// Prepaid GPU capacity in the waste diagnosis: a Capacity Block, an instance the bill shows under a
// Savings Plan and the plan's unused hours cost the same whether the GPUs work or not, so their idle
// hours are unused commitment, never an idle saving that Stop would bring. Every expected figure is
// a plain sum over the rows and hours written here.

const catalog = loadPriceCatalog();
const DAYS = 30;
const PERIOD_SECONDS = DAYS * 86_400;

function machine(id: string, overrides: Partial<GpuInstance> = {}): GpuInstance {
  return {
    instanceId: id,
    name: id,
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'p5.48xlarge',
    gpuModel: 'H100',
    gpuCount: 8,
    gpuMemoryGiB: 80,
    hourlyPrice: 55.04,
    lifecycle: 'on-demand',
    team: 'llm',
    ownerTag: 'llm',
    workload: 'training',
    protected: false,
    owner: null,
    tags: {},
    ...overrides,
  };
}

/** Its 8 GPUs ran the whole period, `idle` of it idle and `stalled` of it stalled. */
function ran(idle: number, stalled = 0): GpuTime {
  const observed = PERIOD_SECONDS * 8;
  return { ...emptyGpuTime(), observed, idle: observed * idle, stalled: observed * stalled, days: new Set(['2026-11-01']) };
}

const bill = (resourceId: string, cost: number, commitmentId: string | null = null): BilledResource => ({
  resourceId,
  team: 'llm',
  cost,
  days: 1,
  commitmentId,
  hours: null,
  commitmentEnd: null,
});

const SP = 'arn:aws:savingsplans::111111111111:savingsplan/sp-gpu';
const BLOCK = machine('i-0block', { prepaid: { kind: 'capacity-block', until: '2026-12-20T11:30:00.000Z' } });
const COVERED = machine('i-0covered');
const ON_DEMAND = machine('i-0ondemand');
/** The bill: the block's instance, one covered in part by the Savings Plan, one on demand; the plan's unused hours. */
const BILLED = [
  bill(BLOCK.instanceId, 20_000),
  bill(COVERED.instanceId, 9_000, SP),
  bill(COVERED.instanceId, 3_000),
  bill(ON_DEMAND.instanceId, 10_000),
];
const UNUSED = [{ commitmentId: SP, amount: 1_234.56, commitmentEnd: null }];

function input(): WasteInput {
  return {
    period: { start: '2026-11-01', end: '2026-12-01', days: DAYS },
    monthFactor: 1,
    currency: 'USD',
    teams: [{ id: 'llm', name: 'LLM Training' }],
    instances: [
      { instance: BLOCK, time: ran(0.5), usage: null },
      { instance: COVERED, time: ran(0.2, 0.05), usage: null },
      { instance: ON_DEMAND, time: ran(0.1), usage: null },
    ],
    billed: BILLED,
    unusedCommitments: UNUSED,
    periodSeconds: PERIOD_SECONDS,
    today: '2026-12-02',
    catalog,
    recommendations: DEFAULT_RECOMMENDATIONS_POLICY,
    spot: DEFAULT_SPOT_POLICY,
    inferenceUtilFloor: 20,
  };
}

const costOf = (id: string) => BILLED.filter((b) => b.resourceId === id).reduce((s, b) => s + b.cost, 0);
const coveredOf = (id: string) => BILLED.filter((b) => b.resourceId === id && b.commitmentId).reduce((s, b) => s + b.cost, 0);
const cents = (n: number) => Math.round(n * 100) / 100;

describe('prepaid capacity in the waste diagnosis', () => {
  const diagnosis = diagnoseWaste(input());
  const team = diagnosis.teams[0]!;
  const category = (id: string) => team.categories.find((c) => c.id === id)!;

  it("counts idle hours on prepaid capacity as unused commitment, with the plan's unused hours, never as idle savings", () => {
    // Only idle hours paid on demand are a saving Stop brings: the on-demand machine's, and the
    // covered machine's on-demand part.
    const coveredShare = coveredOf(COVERED.instanceId) / costOf(COVERED.instanceId);
    expect(category('idle').monthly).toBe(
      cents(costOf(ON_DEMAND.instanceId) * 0.1 + costOf(COVERED.instanceId) * 0.2 * (1 - coveredShare)),
    );
    expect(category('stalled').monthly).toBe(cents(costOf(COVERED.instanceId) * 0.05 * (1 - coveredShare)));
    const unused = costOf(BLOCK.instanceId) * 0.5 + costOf(COVERED.instanceId) * (0.2 + 0.05) * coveredShare + UNUSED[0]!.amount;
    expect(category('unused-commitment').monthly).toBe(cents(unused));
    // Unused commitment is no immediate saving: immediate is the on-demand idle and stalled parts only.
    expect(team.immediate).toBe(
      cents(costOf(ON_DEMAND.instanceId) * 0.1 + cents(costOf(COVERED.instanceId) * (0.2 + 0.05) * (1 - coveredShare))),
    );
    expect(team.gpuSpend).toBe(cents(BILLED.reduce((s, b) => s + b.cost, 0) + UNUSED[0]!.amount));
  });

  it("gives the block's instance no idle figure for the review's lines, and says why in the evidence and the first action", () => {
    expect(diagnosis.instances.find((i) => i.instanceId === BLOCK.instanceId)?.idle).toBe(0);
    expect(diagnosis.instances.find((i) => i.instanceId === ON_DEMAND.instanceId)?.idle).toBe(cents(costOf(ON_DEMAND.instanceId) * 0.1));
    const evidence = category('unused-commitment').evidence.join(' ');
    expect(evidence).toContain('went unused');
    expect(evidence).toContain('i-0block: a Capacity Block');
    expect(evidence).toContain('i-0covered: 75% of its cost under a Savings Plan or reservation');
    expect(evidence).toContain('stopping it saves nothing');
    // The block's idle part ($10,000) is larger than the plan's unused hours: put work on it first.
    expect(category('unused-commitment').firstAction?.text).toBe(
      'Put work on i-0block ($10,000.00 a month idle on capacity prepaid until 2026-12-20): stopping it saves nothing; release it or do not renew it at the end.',
    );
    expect(category('idle').firstAction?.text).toContain('Stop i-0ondemand');
  });
});
