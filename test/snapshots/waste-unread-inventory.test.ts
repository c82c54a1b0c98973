import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpendRow } from '../../src/domain/spend.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { loadWasteDiagnosis, wastePeriod, wasteRows } from '../../src/snapshots/waste-snapshot.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { wasteReport } from '../../templates/waste-report.js';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { FakePrometheus, type FakeDcgmGpu } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { spendRow, testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';
import { runMonthlyReview } from '../../src/jobs/monthly-review.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { dcgmHostGpu, ec2GpuMachine } from '../support/waste-fleet.js';

// The waste diagnosis and `recommend` while the EC2 inventory cannot be read (DescribeInstances
// denied): the real EC2 client against the fake, DCGM metrics from the Prometheus fake, the bill in
// the real store. A machine no source listed while a source is unread is unknown, not gone.

const NOW = '2026-11-18T06:00:00Z';
const DAYS = ['2026-11-16', '2026-11-17'];
const START = Date.parse(`${DAYS[0]}T00:00:00Z`) / 1000;
/** Two days' figures × this = a month's. */
const MONTH = 365.25 / 12 / 2;
const OWNER = 'U0NLP';

const NOTEBOOK = 'i-0a00000000000000a'; // vision: DCGM names it by its host name
const TRAINER = 'i-0e00000000000000e'; // nlp: DCGM names it by its instance id; idle its first 12 hours

/** Each instance's charge a day on the bill: the plain sums below are over these rows. */
const DAILY: Record<string, { team: string; amount: number }> = {
  [NOTEBOOK]: { team: 'vision', amount: 50 },
  [TRAINER]: { team: 'nlp', amount: 30 },
};

const INSTANCES: FakeEc2Instance[] = [
  ec2GpuMachine(NOTEBOOK, 'ip-10-0-1-11', 'g5.xlarge', { team: 'vision', workload: 'notebook' }),
  ec2GpuMachine(TRAINER, 'ip-10-0-1-12', 'g5.xlarge', { team: 'nlp', workload: 'training' }),
];

function fleet(): FakeDcgmGpu[] {
  const first12h = (t: number) => t < START + 12 * 3600;
  return [
    dcgmHostGpu(
      'ip-10-0-1-11',
      () => 97,
      () => 20_000,
    ),
    dcgmHostGpu(
      TRAINER,
      (t) => (first12h(t) ? 0 : 97),
      (t) => (first12h(t) ? 0 : 20_000),
    ),
  ];
}

function billRows(): SpendRow[] {
  return DAYS.flatMap((day) => Object.entries(DAILY).map(([id, { team, amount }]) => ({ ...spendRow(team, day, amount), resourceId: id })));
}

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;
beforeEach(async () => {
  isolateAwsEnv();
  [ec2, prom] = await Promise.all([FakeEc2.start({ instances: INSTANCES }), FakePrometheus.start({ gpus: fleet() })]);
  useEc2Endpoint(ec2.endpoint);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

async function setup(now = NOW) {
  const t = testDeps(
    {
      teams: [{ id: 'vision' }, { id: 'nlp', owners: [OWNER] }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom!.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    },
    now,
  );
  t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
  await t.deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows: billRows(), dataThrough: null }]);
  return Object.assign(t.deps, { posted: t.chat.posted });
}

const diagnose = async (deps: Awaited<ReturnType<typeof setup>>) => loadWasteDiagnosis(deps, wastePeriod({ days: 2 }, '2026-11-18'));
const monthly = (id: string) => Math.round(2 * DAILY[id]!.amount * MONTH * 100) / 100;

describe('the waste diagnosis while a GPU inventory cannot be read', () => {
  it("keeps a billed machine no source listed in its team's spend, in no cause, instead of diagnosing it as gone, and names the source", async () => {
    const deps = await setup();
    ec2!.deny('ec2:DescribeInstances');

    const diagnosis = await diagnose(deps);

    const nlp = diagnosis.teams.find((t) => t.team === 'nlp')!;
    // Its bill is in the spend (a plain sum over the rows written above), none of it waste.
    expect(nlp.gpuSpend).toBe(monthly(TRAINER));
    expect(nlp.afterFixes).toBe(0);
    expect(nlp.unchecked).toBe(monthly(TRAINER));
    expect(nlp.unmeasured).toBe(0);
    expect(diagnosis.instances.find((i) => i.instanceId === TRAINER)).toMatchObject({ idle: 0, spot: null, cost: monthly(TRAINER) });
    expect(diagnosis.notes.join(' ')).not.toContain('No GPU metrics');
    expect(diagnosis.unavailable).toEqual([{ source: 'ec2 (us-east-1)', error: expect.stringContaining('ec2:DescribeInstances') }]);

    const text = renderPlainText(wasteReport({ diagnosis, rows: wasteRows(diagnosis, null), dryRun: true }));
    expect(text).toContain('Not checked: GPU inventory ec2 (us-east-1) could not be read');
    expect(text).toContain('ec2:DescribeInstances');
    expect(text).toContain('Its machines are unknown until it answers');
    await deps.store.close();
  });

  it("counts only the machines the unread inventory could list as unknown: another provider's, or EC2 in a region it does not read, are gone and idle as before", async () => {
    // Billed to vision, listed by no inventory, idle their first 12 hours; their metrics name them by id.
    const AZURE_VM =
      '/subscriptions/00000000-0000-0000-0000-000000000001/resourcegroups/ml/providers/microsoft.compute/virtualmachines/vision-a100';
    const EU_TRAINER = 'i-0f00000000000000f';
    const OTHERS = [
      { id: AZURE_VM, provider: 'Microsoft', region: 'westeurope', daily: 40 },
      { id: EU_TRAINER, provider: 'AWS', region: 'eu-west-1', daily: 20 },
    ];
    const first12h = (t: number) => t < START + 12 * 3600;
    await prom!.close();
    prom = await FakePrometheus.start({
      gpus: [
        ...fleet(),
        ...OTHERS.map(({ id }) =>
          dcgmHostGpu(
            id,
            (t) => (first12h(t) ? 0 : 97),
            (t) => (first12h(t) ? 0 : 20_000),
          ),
        ),
      ],
    });
    const deps = await setup();
    const rows = DAYS.flatMap((day) =>
      OTHERS.map(({ id, provider, region, daily }) => ({ ...spendRow('vision', day, daily), resourceId: id, provider, region })),
    );
    await deps.store.importBatches([{ scope: { source: 'others', billingPeriods: ['2026-11'] }, rows, dataThrough: null }]);
    ec2!.deny('ec2:DescribeInstances');

    const diagnosis = await diagnose(deps);

    // Plain sums over the rows written: each gone machine's idle half-day of its two days' bill, a month.
    const perMonth = (twoDays: number) => Math.round(twoDays * MONTH * 100) / 100;
    for (const { id, daily } of OTHERS)
      expect(diagnosis.instances.find((i) => i.instanceId === id)!.idle).toBe(perMonth((2 * daily * 12) / 48));
    const vision = diagnosis.teams.find((t) => t.team === 'vision')!;
    expect(vision.unchecked).toBe(0);
    // The notebook is not: its metrics name a host, which only the unread inventory ties to its id.
    expect(vision.gpuSpend).toBe(perMonth(2 * (40 + 20)));
    // The EC2 machine of the region it reads stays unknown: in the spend as not checked, in no cause.
    const nlp = diagnosis.teams.find((t) => t.team === 'nlp')!;
    expect(nlp).toMatchObject({ gpuSpend: monthly(TRAINER), unchecked: monthly(TRAINER), unmeasured: 0, afterFixes: 0 });

    const text = renderPlainText(wasteReport({ diagnosis, rows: wasteRows(diagnosis, null), dryRun: true }));
    expect(text).toContain(`of which $${monthly(TRAINER).toFixed(2)} not checked (GPU inventory ec2 (us-east-1) could not be read)`);
    expect(text).not.toContain('no GPU metrics saw');
    await deps.store.close();
  });

  it('with the inventory read, the same machine missing from it is gone and its idle hours are waste (what the outage must not claim)', async () => {
    await ec2!.close();
    ec2 = await FakeEc2.start({ instances: INSTANCES.filter((i) => i.id !== TRAINER) });
    useEc2Endpoint(ec2.endpoint);
    const deps = await setup();

    const diagnosis = await diagnose(deps);

    expect(diagnosis.unavailable).toBeUndefined();
    expect(diagnosis.instances.find((i) => i.instanceId === TRAINER)!.idle).toBe(Math.round(((2 * 30 * 12) / 48) * MONTH * 100) / 100);
    await deps.store.close();
  });
});

describe('recommend while a GPU inventory cannot be read', () => {
  it('answers with what it could read and names the source it could not', async () => {
    const deps = await setup();
    ec2!.deny('ec2:DescribeInstances');

    const asked = command(OWNER, 'recommend');
    await dispatch(deps, asked);

    const answer = JSON.stringify(asked.reply);
    expect(answer).toContain('Not checked**: GPU inventory ec2 (us-east-1) could not be read');
    expect(answer).toContain('ec2:DescribeInstances');
    expect(answer).toContain('they get no recommendation this time');
    await deps.store.close();
  });
});

describe("November's review while a GPU inventory cannot be read", () => {
  it("keeps the unread machine's line from the bill and its cost in the waste reply's spend, and names the source there", async () => {
    const deps = await setup('2026-12-01T17:00:00Z');
    ec2!.deny('ec2:DescribeInstances');

    const [review] = await runMonthlyReview(deps, { teams: ['nlp'] });
    await deliverOutbox(deps);
    await deliverOutbox(deps);

    // Its line is the bill's: the plain sum of its rows.
    const line = review!.lines.find((l) => l.resourceId === TRAINER)!;
    expect(line.cost).toBe(2 * DAILY[TRAINER]!.amount);
    expect(review!.figures.waste!.row).toMatchObject({ gpuSpend: 2 * DAILY[TRAINER]!.amount, afterFixes: 0 });
    const reply = deps.posted.find((p) => p.message.summary.startsWith('GPU waste: '))!;
    const text = renderPlainText(reply.message);
    expect(text).toContain('Not checked: GPU inventory ec2 (us-east-1) could not be read');
    expect(text).toContain('ec2:DescribeInstances');
    await deps.store.close();
  });
});
