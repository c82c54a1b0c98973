import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { addDays, daysOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { loadBilledRates } from '../../src/snapshots/billed-rates.js';
import { loadKubeCost } from '../../src/snapshots/kube-cost.js';
import { loadSavingsLedger } from '../../src/snapshots/savings-ledger.js';
import { loadWasteDiagnosis, wastePeriod } from '../../src/snapshots/waste-snapshot.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { spendRow, testDeps } from '../support/deps.js';
import { workDir } from '../support/run-cli.js';
import { dcgmHostGpu, ec2GpuMachine } from '../support/waste-fleet.js';
import { recordOneMachine } from './one-machine.js';

// One resource, one figure per fact, whatever surface reads it. A GPU instance is billed every day
// in dollars (its compute) and in yen (a Japanese account's share of it) over the end of October and
// the start of November, the yen at each month's own rate (burnrate.yml's dated table). The waste
// diagnosis, the savings ledger's baseline, the Kubernetes node cost and the billed rate all read
// the same resource lines; each is compared with a plain sum over the rows written here, each row at
// its own month's rate, never with burnrate's output.

const NOW = '2026-11-05T06:00:00Z';
const TODAY = '2026-11-05';
const INSTANCE = 'i-0a00000000000000a';
const HOST = 'ip-10-0-1-11';
/** USD per yen, per billing period. */
const RATE: Record<string, number> = { '2026-10': 0.007, '2026-11': 0.0067 };
const USD_PER_DAY = 30;
const YEN_PER_DAY = 4_000;
/** The bill covers the 30 days the waste diagnosis reads: 6 October to 4 November. */
const BILL_DAYS = daysOf({ start: addDays(TODAY, -30), end: TODAY });
/** The day a Stop was taken: its baseline is the 28 days before it. */
const STOP_AT = '2026-11-03T12:00:00Z';

const CONFIG = {
  fx: { base: 'USD', periods: { '2026-10': { JPY: 0.007 }, '2026-11': { JPY: 0.0067 } } },
  teams: [{ id: 'vision' }],
  sources: [],
};

function bill(): SpendRow[] {
  return BILL_DAYS.flatMap((day) => {
    const usd = { ...spendRow('vision', day, USD_PER_DAY), resourceId: INSTANCE, usageHours: 12 };
    const yen = { ...spendRow('vision', day, YEN_PER_DAY), resourceId: INSTANCE, currency: 'JPY', billingAccount: 'jp-1', usageHours: 12 };
    return [usd, yen];
  });
}

/** A plain sum over the bill's rows of days in [start, end), each row at its own month's rate. */
function usdOf(start: string, end: string): number {
  return bill()
    .filter((r) => r.day >= start && r.day < end)
    .reduce((sum, r) => sum + (r.currency === 'JPY' ? r.effective * RATE[r.billingPeriod]! : r.effective), 0);
}
const hoursOf = (start: string, end: string) =>
  bill()
    .filter((r) => r.day >= start && r.day < end)
    .reduce((sum, r) => sum + (r.usageHours ?? 0), 0);

describe("a resource's money is one figure on every surface, each billing period at its own rate", () => {
  const db = join(workDir(), 'burnrate.db');
  const { deps } = testDeps(CONFIG, NOW, db);
  let ec2: FakeEc2;
  let prom: FakePrometheus;

  beforeAll(async () => {
    isolateAwsEnv();
    ec2 = await FakeEc2.start({
      instances: [ec2GpuMachine(INSTANCE, HOST, 'g5.xlarge', { Name: 'cv-node', team: 'vision', workload: 'training' })],
    });
    prom = await FakePrometheus.start({
      gpus: [
        dcgmHostGpu(
          HOST,
          () => 97,
          () => 20_000,
        ),
      ],
    });
    useEc2Endpoint(ec2.endpoint);
    // The machine is also a Kubernetes node, one workload holding its GPU every hour, and stopped once.
    await recordOneMachine(deps, {
      db,
      now: NOW,
      today: TODAY,
      instance: INSTANCE,
      host: HOST,
      name: 'cv-node',
      workload: 'vision/Deployment/train',
      days: BILL_DAYS,
      rows: bill(),
      stopAt: STOP_AT,
    });
  });

  afterAll(async () => {
    vi.unstubAllEnvs();
    await Promise.all([ec2.close(), prom.close()]);
    await deps.store.close();
  });

  it("the savings ledger's baseline day is the 28 days before the stop, each at its month's rate", async () => {
    // Without GPU metrics the ledger does not ask whether the machine ran again: the baseline alone is read.
    const ledger = await loadSavingsLedger(deps, { start: '2026-11-01', end: '2026-12-01' });
    const stopDay = STOP_AT.slice(0, 10);
    const baseline = usdOf(addDays(stopDay, -28), stopDay) / 28;
    // 26 October days at ¥4,000 × 0.007 and 2 November days at ¥4,000 × 0.0067, plus $30 each.
    expect(baseline).toBeCloseTo(USD_PER_DAY + (YEN_PER_DAY * (26 * 0.007 + 2 * 0.0067)) / 28, 9);
    expect(ledger.lines[0]!.baselineDaily).toBeCloseTo(baseline, 2);
  });

  it('the Kubernetes node cost is the bill over the period, each month at its rate', async () => {
    const period = { start: BILL_DAYS[0]!, end: TODAY };
    const kube = await loadKubeCost(deps, period);
    expect(kube.total).toBeCloseTo(usdOf(period.start, period.end), 2);
    expect(kube.lines.reduce((s, l) => s + l.cost, 0)).toBeCloseTo(usdOf(period.start, period.end), 2);
    expect(kube.listNodeDays).toBe(0);
  });

  it("the billed rate is the last 14 days' cost over their hours, each month at its rate", async () => {
    const since = addDays(TODAY, -14);
    const rates = await loadBilledRates(deps);
    expect(rates.get(INSTANCE)).toBeCloseTo(usdOf(since, TODAY) / hoursOf(since, TODAY), 9);
  });

  it("the waste diagnosis's GPU spend is the period's bill, each month at its rate, scaled to a month", async () => {
    deps.config = configSchema.parse({
      ...CONFIG,
      gpu: { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    });
    deps.gpu = buildGpuDeps(deps.config, {})!;
    const period = wastePeriod({}, TODAY);
    expect(period).toEqual({ start: BILL_DAYS[0], end: TODAY });
    const diagnosis = await loadWasteDiagnosis(deps, period);
    const vision = diagnosis.teams.find((t) => t.team === 'vision')!;
    const monthly = (usdOf(period.start, period.end) * (365.25 / 12)) / 30;
    // To the cent: the diagnosis rounds its monthly figures to cents.
    expect(Math.abs(vision.gpuSpend - monthly)).toBeLessThanOrEqual(0.005 + 1e-9);
    expect(diagnosis.notes.join(' ')).not.toContain('left out');
  });
});
