import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import { configSchema } from '../../src/config/schema.js';
import { addDays, daysOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { loadBilledRates } from '../../src/snapshots/billed-rates.js';
import { detectIdleGpus } from '../../src/snapshots/idle-gpus.js';
import { loadKubeCost } from '../../src/snapshots/kube-cost.js';
import { loadSavingsLedger, savingsSummary } from '../../src/snapshots/savings-ledger.js';
import { loadWasteDiagnosis, wastePeriod } from '../../src/snapshots/waste-snapshot.js';
import { appHome } from '../../templates/app-home.js';
import { idleDetails } from '../../templates/idle-alert.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { spendRow, testDeps } from '../support/deps.js';
import { cli, workDir } from '../support/run-cli.js';
import { dcgmHostGpu, ec2GpuMachine } from '../support/waste-fleet.js';
import { recordOneMachine } from './one-machine.js';

// A GPU machine billed every day in dollars and in reais, and burnrate.yml has no rate from reais
// to dollars. Every surface that reads the machine's bill (its billed rate in the idle alert, the
// idle alert's bill note, the Kubernetes node cost, the savings ledger, the waste diagnosis) leaves
// the reais out, never adding them as dollars, and says so in the same words. Each figure is
// compared with a plain sum over the dollar rows written here.

const NOW = '2026-11-05T06:00:00Z';
const TODAY = '2026-11-05';
const INSTANCE = 'i-0b00000000000000b';
const HOST = 'ip-10-0-2-22';
const USD_PER_DAY = 30;
const BRL_PER_DAY = 150;
const BILL_DAYS = daysOf({ start: addDays(TODAY, -30), end: TODAY });
const STOP_AT = '2026-11-03T12:00:00Z';
/** What every surface says, written out here rather than taken from burnrate. */
const NOTE = 'Charges in BRL are left out: no rate to USD. Add it under fx in burnrate.yml.';

const TEAMS = [{ id: 'vision' }];

function bill(): SpendRow[] {
  return BILL_DAYS.flatMap((day) => [
    { ...spendRow('vision', day, USD_PER_DAY), resourceId: INSTANCE, usageHours: 24 },
    { ...spendRow('vision', day, BRL_PER_DAY), resourceId: INSTANCE, currency: 'BRL', billingAccount: 'br-1', usageHours: 24 },
  ]);
}

/** A plain sum over the dollar rows of days in [start, end): the reais have no rate, so none of them counts. */
const usdOf = (start: string, end: string) =>
  bill()
    .filter((r) => r.currency === 'USD' && r.day >= start && r.day < end)
    .reduce((sum, r) => sum + r.effective, 0);
const usdHoursOf = (start: string, end: string) =>
  bill()
    .filter((r) => r.currency === 'USD' && r.day >= start && r.day < end)
    .reduce((sum, r) => sum + (r.usageHours ?? 0), 0);

describe('a currency without a rate is left out of every resource figure, and every surface names it', () => {
  const dir = workDir();
  mkdirSync(join(dir, 'data'));
  const db = join(dir, 'data', 'burnrate.db');
  const { deps } = testDeps({ teams: TEAMS, sources: [] }, NOW, db);
  let ec2: FakeEc2;
  let prom: FakePrometheus;
  /** burnrate.yml with the GPU fleet, as the idle verb reads it (JSON is YAML). */
  let withGpus: Record<string, unknown>;

  beforeAll(async () => {
    isolateAwsEnv();
    const machine = ec2GpuMachine(INSTANCE, HOST, 'g5.xlarge', { Name: 'cv-notebook', team: 'vision', workload: 'notebook' });
    ec2 = await FakeEc2.start({ instances: [{ ...machine, privateIp: '10.0.2.22' }] });
    // Idle through the whole metrics window: the alert reads the bill before it.
    prom = await FakePrometheus.start({
      gpus: [
        dcgmHostGpu(
          HOST,
          () => 0,
          () => 0,
        ),
      ],
    });
    useEc2Endpoint(ec2.endpoint);
    withGpus = {
      teams: TEAMS,
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    };
    writeFileSync(join(dir, 'burnrate.yml'), JSON.stringify({ teams: TEAMS, sources: [] }));
    writeFileSync(join(dir, 'gpus.yml'), JSON.stringify(withGpus));
    // The machine is also a Kubernetes node, one workload holding its GPU every hour, and stopped once.
    await recordOneMachine(deps, {
      db,
      now: NOW,
      today: TODAY,
      instance: INSTANCE,
      host: HOST,
      name: 'cv-notebook',
      workload: 'vision/Deployment/notebook',
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

  const run = (args: string[]) => cli([...args, '--db', db], { cwd: dir, now: NOW });

  it("the savings ledger's baseline counts the dollars only, and the CLI, its JSON and App Home name the reais", async () => {
    // Without GPU metrics the ledger does not ask whether the machine ran again: the baseline alone is read.
    const ledger = await loadSavingsLedger(deps, { start: '2026-11-01', end: '2026-12-01' });
    const stopDay = STOP_AT.slice(0, 10);
    expect(ledger.lines[0]!.baselineDaily).toBeCloseTo(usdOf(addDays(stopDay, -28), stopDay) / 28, 6);
    expect(ledger.missing).toEqual(['BRL']);

    const text = await run(['savings', '--month', '2026-11']);
    expect(text.code).toBe(0);
    expect(text.out).toContain(NOTE);
    const json = JSON.parse((await run(['savings', '--month', '2026-11', '--json'])).out) as { missing: string[] };
    expect(json.missing).toEqual(['BRL']);

    const home = appHome({
      userName: 'Alice',
      statuses: [],
      openFindings: [],
      sources: [],
      dataThrough: null,
      editableTeams: [],
      savings: savingsSummary(ledger),
    });
    expect(renderPlainText(home)).toContain(NOTE);
  });

  it('the Kubernetes node cost is the dollar bill over the period, and spend by namespace names the reais', async () => {
    const period = { start: BILL_DAYS[0]!, end: TODAY };
    const kube = await loadKubeCost(deps, period);
    expect(kube.total).toBeCloseTo(usdOf(period.start, period.end), 2);
    expect(kube.missing).toEqual(['BRL']);
    const report = await spendReport(deps, { period, by: 'namespace' });
    expect(report.total.effective).toBeCloseTo(usdOf(period.start, period.end), 2);
    expect(report.warnings).toContain(NOTE);

    const text = await run(['spend', '--period', `${period.start}..${addDays(period.end, -1)}`, '--by', 'namespace']);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain(NOTE);
  });

  it("the billed rate is the dollars over the dollars' hours, and the idle alert names the reais once", async () => {
    deps.config = configSchema.parse(withGpus);
    deps.gpu = buildGpuDeps(deps.config, {})!;
    const since = addDays(TODAY, -14);
    const rates = await loadBilledRates(deps);
    const rate = usdOf(since, TODAY) / usdHoursOf(since, TODAY);
    expect(rates.get(INSTANCE)).toBeCloseTo(rate, 9);
    expect(rates.leftOut.get(INSTANCE)).toEqual(['BRL']);

    const [finding] = await detectIdleGpus(deps, new Date(NOW));
    expect(finding!.instanceId).toBe(INSTANCE);
    // The bill note reads the days before the metrics window: every one a whole day in dollars.
    const before = new Date(Date.parse(NOW) - deps.config.gpu.lookbackHours * 3_600_000).toISOString().slice(0, 10);
    const billed = usdOf(BILL_DAYS[0]!, before);
    const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(finding!.description).toContain(`at its billed rate, ${money(rate)}/h`);
    expect(finding!.description).toContain(`since ${BILL_DAYS[0]}: ${money(billed)} billed`);
    // Named once, though both the price and the bill note left the reais out.
    expect(finding!.description.split(NOTE)).toHaveLength(2);

    // The alert the team's channel gets says it as well, in the caveats its Details button answers with.
    expect(renderPlainText(idleDetails(finding!)).split(NOTE)).toHaveLength(2);

    const idle = await cli(['idle', '--json', '--db', db, '--config', join(dir, 'gpus.yml')], { cwd: dir, now: NOW });
    expect(idle.code, idle.err).toBe(0);
    const [shown] = (JSON.parse(idle.out) as { idle: { instanceId: string; description: string }[] }).idle;
    expect(shown!.description).toBe(finding!.description);
  });

  it('the waste diagnosis says the same words, over the dollar spend', async () => {
    const period = wastePeriod({}, TODAY);
    const diagnosis = await loadWasteDiagnosis(deps, period);
    expect(diagnosis.notes).toContain(NOTE);
    const vision = diagnosis.teams.find((t) => t.team === 'vision')!;
    const monthly = (usdOf(period.start, period.end) * (365.25 / 12)) / 30;
    expect(Math.abs(vision.gpuSpend - monthly)).toBeLessThanOrEqual(0.005 + 1e-9);
  });
});
