import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { idleCostByTeam } from '../../src/checks/review/idle-cost.js';
import { spotSaving } from '../../src/checks/review/spot-saving.js';
import { formatMoney } from '../../src/domain/money.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { wasteRows } from '../../src/snapshots/waste-snapshot.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { wasteReport } from '../../templates/waste-report.js';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { FakePrometheus, type FakeDcgmGpu } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { dcgmHostGpu, diagnoseTwoDays, ec2GpuMachine } from '../support/waste-fleet.js';
import { spendRow } from '../support/deps.js';

// Two whole days, [16 Nov, 18 Nov), asked on the 18th. Figures a month are the two days × MONTH.
const NOW = '2026-11-18T06:00:00Z';
const DAYS = ['2026-11-16', '2026-11-17'];
const START = Date.parse(`${DAYS[0]}T00:00:00Z`) / 1000;
const MONTH = 365.25 / 12 / 2;

const NOTEBOOK = 'i-0a00000000000000a'; // vision: idle its first 12 of 48 hours
const TRAINER = 'i-0b00000000000000b'; // nlp: checkpointed training on demand, busy: spot
const ORPHAN = 'i-0c00000000000000c'; // no team tag: nobody's
const BLIND = 'i-0d00000000000000d'; // nlp: on the bill and in the inventory, no metrics
const GONE = 'i-0e00000000000000e'; // nlp: terminated before the 18th, on the bill, its metrics named by id

/** Each instance's charge a day on the bill: the plain sums below are over these rows. */
const DAILY: Record<string, { team: string; amount: number }> = {
  [NOTEBOOK]: { team: 'vision', amount: 50 },
  [TRAINER]: { team: 'nlp', amount: 24 },
  [ORPHAN]: { team: '(untagged)', amount: 10 },
  [BLIND]: { team: 'nlp', amount: 7 },
  [GONE]: { team: 'nlp', amount: 30 },
};

const ec2 = ec2GpuMachine;

// The inventory as it is now: GONE is no longer in it.
const INSTANCES: FakeEc2Instance[] = [
  ec2(NOTEBOOK, 'ip-10-0-1-11', 'g5.xlarge', { team: 'vision', workload: 'notebook' }),
  ec2(TRAINER, 'ip-10-0-1-12', 'g4dn.xlarge', { team: 'nlp', workload: 'training', checkpoint: 'true', 'checkpoint-interval': '15m' }),
  ec2(ORPHAN, 'ip-10-0-1-13', 'g5.xlarge', { workload: 'training' }),
  ec2(BLIND, 'ip-10-0-1-14', 'g5.xlarge', { team: 'nlp', workload: 'training' }),
];

function fleet(): FakeDcgmGpu[] {
  const gpu = dcgmHostGpu;
  const first12h = (t: number) => t < START + 12 * 3600;
  return [
    gpu(
      'ip-10-0-1-11',
      (t) => (first12h(t) ? 0 : 97),
      (t) => (first12h(t) ? 0 : 20_000),
    ),
    gpu(
      'ip-10-0-1-12',
      () => 97,
      () => 12_000,
    ),
    gpu(
      'ip-10-0-1-13',
      () => 97,
      () => 20_000,
    ),
    // The gone machine's exporter labelled it by instance id; it idled its first 12 hours too.
    gpu(
      GONE,
      (t) => (first12h(t) ? 0 : 97),
      (t) => (first12h(t) ? 0 : 20_000),
    ),
  ];
}

function billRows(): SpendRow[] {
  return DAYS.flatMap((day) => [
    ...Object.entries(DAILY).map(([id, { team, amount }]) => ({
      ...spendRow(team, day, amount),
      ...(team === '(untagged)' ? { ownerTag: null } : {}),
      resourceId: id,
    })),
    // Storage is not GPU spend.
    { ...spendRow('nlp', day, 500), resourceId: 'vol-1', service: 'Amazon Elastic Block Store', serviceCategory: 'Storage' },
  ]);
}

let fakeEc2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;
beforeEach(async () => {
  isolateAwsEnv();
  fakeEc2 = await FakeEc2.start({ instances: INSTANCES });
  prom = await FakePrometheus.start({ gpus: fleet() });
  useEc2Endpoint(fakeEc2.endpoint);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([fakeEc2?.close(), prom?.close()]);
  fakeEc2 = prom = undefined;
});

const diagnose = () => diagnoseTwoDays(prom!.url, billRows(), NOW, '2026-11-18');

/** The independent figures: plain sums over the rows written above. */
const twoDays = (...ids: string[]) => ids.reduce((s, id) => s + 2 * DAILY[id]!.amount, 0);
const monthly = (amount: number) => Math.round(amount * MONTH * 100) / 100;

describe('the waste headline counts the GPU bill once, and the period bill includes what is gone', () => {
  it('teams plus the unowned add up to the organisation exactly; the headline over everything is that, not teams + organisation', async () => {
    const diagnosis = await diagnose();
    const [vision, nlp] = ['vision', 'nlp'].map((id) => diagnosis.teams.find((t) => t.team === id)!);
    const org = diagnosis.organisation;

    expect(vision!.gpuSpend).toBe(monthly(twoDays(NOTEBOOK)));
    expect(nlp!.gpuSpend).toBe(monthly(twoDays(TRAINER, BLIND, GONE)));
    expect(org.unallocated.monthly).toBe(monthly(twoDays(ORPHAN)));
    // To the cent: the organisation is its rows added up.
    expect(Math.round((vision!.gpuSpend + nlp!.gpuSpend + org.unallocated.monthly) * 100)).toBe(Math.round(org.gpuSpend * 100));
    expect(org.gpuSpend).toBeCloseTo(monthly(twoDays(...Object.keys(DAILY))), 1);

    const money = (n: number) => formatMoney(n, 'USD');
    const everything = renderPlainText(wasteReport({ diagnosis, rows: wasteRows(diagnosis, null), dryRun: true }));
    expect(everything).toContain(`: ${money(org.afterFixes)} of ${money(org.gpuSpend)} a month`);
    const teams = renderPlainText(wasteReport({ diagnosis, rows: wasteRows(diagnosis, ['vision', 'nlp']), dryRun: true }));
    expect(teams).toContain(`${money(vision!.afterFixes + nlp!.afterFixes)} of ${money(vision!.gpuSpend + nlp!.gpuSpend)} a month`);
  });

  it('an instance gone from the inventory keeps its bill and its idle time; one without metrics stays in the spend as unmeasured', async () => {
    const diagnosis = await diagnose();
    const nlp = diagnosis.teams.find((t) => t.team === 'nlp')!;
    const idle = (id: string) => diagnosis.instances.find((i) => i.instanceId === id)!.idle;
    // 12 of its 48 hours idle, at what the bill charged for them.
    expect(idle(GONE)).toBe(monthly((twoDays(GONE) * 12) / 48));
    expect(nlp.categories.find((c) => c.id === 'idle')!.monthly).toBe(monthly((twoDays(GONE) * 12) / 48));
    expect(nlp.unmeasured).toBe(monthly(twoDays(BLIND)));
    expect(diagnosis.instances.find((i) => i.instanceId === BLIND)).toMatchObject({ idle: 0, spot: null });
  });

  it('the review reads the same idle and spot figures as the waste report, equal to a hand computation', async () => {
    const diagnosis = await diagnose();
    // The review speaks of the period's own days: the idle figure unscaled is the bill × idle share.
    const idle = idleCostByTeam(diagnosis);
    expect(idle.get('vision')).toEqual({ cost: (twoDays(NOTEBOOK) * 12) / 48, gpuHours: 12 });
    expect(idle.get('nlp')).toEqual({ cost: (twoDays(GONE) * 12) / 48, gpuHours: 12 });
    const vision = diagnosis.teams.find((t) => t.team === 'vision')!;
    const wasteIdle = vision.categories.filter((c) => c.id === 'idle' || c.id === 'stalled').reduce((s, c) => s + c.monthly, 0);
    expect(wasteIdle).toBe(monthly((twoDays(NOTEBOOK) * 12) / 48));

    // Spot: the catalog's discount less two reclaims of half a 15-minute interval and a 10-minute restart.
    const price = loadPriceCatalog().priceOf('aws', 'g4dn.xlarge', 'us-east-1')!;
    const rework = 2 * ((15 / 2 + 10) / 60) * price.spotHourly!;
    const share = ((price.onDemandHourly - price.spotHourly!) * 730 - rework) / (price.onDemandHourly * 730);
    const trainer = diagnosis.instances.find((i) => i.instanceId === TRAINER)!;
    expect(trainer.spot).toBeCloseTo(monthly(twoDays(TRAINER) * share), 1);
    expect(diagnosis.teams.find((t) => t.team === 'nlp')!.categories.find((c) => c.id === 'spot-ready')!.monthly).toBe(trainer.spot);
    expect(spotSaving(diagnosis, TRAINER, 'nlp')).toBeCloseTo(twoDays(TRAINER) * share, 2);
    expect(spotSaving(diagnosis, NOTEBOOK, 'vision')).toBeNull();
  });
});
