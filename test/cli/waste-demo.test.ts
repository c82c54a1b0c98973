import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import type { WasteDiagnosis } from '../../src/domain/waste.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { buildSources } from '../../src/providers/registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { demoFleet } from '../../src/providers/demo/demo-fleet.js';
import { testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';
import { cli, workDir } from '../support/run-cli.js';

const T = '2026-11-18T06:00:00Z';
/** The fleet the CLI's demo runs (its ids, types and regions). */
const demoSeed = () => demoConfig().sources.flatMap((s) => (s.type === 'demo' ? [s.seed] : []))[0]!;
const GPU_SERVICES = ['Amazon Elastic Compute Cloud', 'Compute Engine', 'Virtual Machines'];

describe('burnrate waste on the demo organisation', () => {
  it('gives each team causes that add up without overlap, within a GPU spend that is a plain sum of the bill', async () => {
    const cwd = workDir();
    const db = join(cwd, 'burnrate.db');
    const result = await cli(['waste', '--month', '2026-10', '--json', '--db', db], { cwd, now: T });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const diagnosis = JSON.parse(result.out) as WasteDiagnosis;
    expect(diagnosis).toMatchObject({
      period: { start: '2026-10-01', end: '2026-11-01', days: 31, scaledToMonth: false },
      currency: 'USD',
    });

    // The independent figure: every demo GPU instance is billed under a compute service with its
    // instance id; the Savings Plan's unused part belongs to llm-training, the one team it covers.
    const sql = new Database(db, { readonly: true });
    const sum = (where: string) =>
      sql
        .prepare(
          `SELECT team, sum(effective) AS amount FROM spend_daily WHERE day >= '2026-10-01' AND day < '2026-11-01' AND ${where} GROUP BY team`,
        )
        .all() as {
        team: string;
        amount: number;
      }[];
    const gpu = new Map(
      sum(`resource_id IS NOT NULL AND service IN (${GPU_SERVICES.map((s) => `'${s}'`).join(',')})`).map((r) => [r.team, r.amount]),
    );
    const unused = sum(`commitment_discount_status = 'Unused'`).reduce((s, r) => s + r.amount, 0);
    const gpuRows = `day >= '2026-10-01' AND day < '2026-11-01' AND resource_id IS NOT NULL AND service IN (${GPU_SERVICES.map((s) => `'${s}'`).join(',')})`;
    const hours = sql
      .prepare(
        `SELECT sum(effective) FILTER (WHERE commitment_discount_id IS NOT NULL) AS used,
           sum(effective) FILTER (WHERE commitment_discount_id IS NULL AND provider = 'AWS' AND pricing_category = 'Standard') AS on_demand
         FROM spend_daily WHERE ${gpuRows}`,
      )
      .get() as { used: number; on_demand: number };
    const coveredHours = sql
      .prepare(
        `SELECT resource_id AS id, sum(usage_hours) AS hours FROM spend_daily WHERE ${gpuRows} AND commitment_discount_id IS NOT NULL GROUP BY 1`,
      )
      .all() as { id: string; hours: number }[];
    sql.close();
    expect(unused).toBeGreaterThan(0);

    for (const team of diagnosis.teams) {
      const expected = (gpu.get(team.team) ?? 0) + (team.team === 'llm-training' ? unused : 0);
      expect(team.gpuSpend, team.team).toBeCloseTo(expected, 1);
      const categories = team.categories.reduce((s, c) => s + c.monthly, 0);
      expect(team.afterFixes).toBeCloseTo(categories, 2);
      expect(team.afterFixes).toBeLessThanOrEqual(team.gpuSpend);
      for (const c of team.categories) {
        expect(c.monthly).toBeGreaterThanOrEqual(0);
        expect(c.share).toBeCloseTo(team.gpuSpend > 0 ? c.monthly / team.gpuSpend : 0, 6);
        if (c.monthly > 0) expect(c.evidence.length, `${team.team} ${c.id}`).toBeGreaterThan(0);
      }
    }
    const org = diagnosis.organisation;
    const allGpu = [...gpu.values()].reduce((s, n) => s + n, 0) + unused;
    expect(org.gpuSpend).toBeCloseTo(allGpu, 1);
    // What no configured team owns is the organisation's blocker: its GPU spend less the teams'.
    expect(org.unallocated.monthly).toBeCloseTo(org.gpuSpend - diagnosis.teams.reduce((s, t) => s + t.gpuSpend, 0), 1);
    expect(org.unallocated.monthly).toBeGreaterThan(0);
    // The organisation's causes are its teams' and the unowned instances': never less than the teams' sum.
    expect(org.afterFixes).toBeGreaterThanOrEqual(diagnosis.teams.reduce((s, t) => s + t.afterFixes, 0) - 0.05);
    // The pre-training run's nodes (one multi-node run, two under the Savings Plan) are never spot
    // advice; the demo's idle notebooks are idle waste.
    const llm = diagnosis.teams.find((t) => t.team === 'llm-training')!;
    expect(llm.categories.find((c) => c.id === 'spot-ready')!.firstAction?.text ?? '').not.toMatch(/llm-pretrain-node/);
    expect(llm.categories.find((c) => c.id === 'unused-commitment')!.monthly).toBeCloseTo(unused, 1);
    expect(diagnosis.teams.find((t) => t.team === 'ml-research')!.categories.find((c) => c.id === 'idle')!.monthly).toBeGreaterThan(0);

    // Commitments: coverage as AWS measures it (covered hours at the public on-demand rate of each
    // instance's type, over that plus the on-demand spend on AWS GPU instances), utilisation by cost.
    const { commitments } = diagnosis;
    const fleet = new Map(demoFleet(demoSeed()).map((i) => [i.instanceId, i]));
    const coveredAtOnDemand = coveredHours.reduce((s, r) => {
      const i = fleet.get(r.id)!;
      return s + r.hours * loadPriceCatalog().priceOf(i.provider, i.instanceType, i.region)!.onDemandHourly;
    }, 0);
    expect(commitments.coverage).toBeCloseTo(coveredAtOnDemand / (coveredAtOnDemand + hours.on_demand), 6);
    expect(commitments.utilisation).toBeCloseTo(hours.used / (hours.used + unused), 6);
    const [plan] = commitments.commitments;
    expect(plan).toMatchObject({ id: expect.stringContaining('savingsplan/demo-ec2-p5-1y'), endsOn: '2026-12-16', daysLeft: 28 });
    expect(commitments.expiring).toEqual([plan!.id]);
    // Always-on serving on demand: a commitment's saving as it is paid (the hours it runs on demand
    // less the committed rate for all 730 hours), never spot.
    const serving = commitments.alwaysOn.find((a) => a.name === 'serve-llm-primary')!;
    const price = loadPriceCatalog().priceOf('aws', serving.instanceType, 'us-east-1')!;
    expect(serving.spotSaving).toBeNull();
    expect(serving.commitmentSaving).toBeCloseTo(serving.runningShare * 730 * price.onDemandHourly - 730 * price.committedHourly!, 1);
    // Kubernetes workloads are never credited a commitment: their nodes are what a commitment buys.
    expect(commitments.alwaysOn.filter((a) => a.instanceId.startsWith('k8s:'))).toEqual([]);
    // The demo runs A100s in us-central1, where the catalog's A100 80 GB row is priced below the 40 GB and left out.
    expect(diagnosis.notes.join(' ')).toContain('The price catalog leaves out a2-ultragpu-1g');
    expect(commitments.alwaysOn.map((a) => a.name)).not.toContain('tmp-debug-box'); // idle: stop it, do not commit to it
  });

  it('prints the report with first actions, and explains a bad period without a stack trace', async () => {
    const text = await cli(['waste', '--team', 'ml-research', '--days', '14'], { now: T });
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^GPU waste, ML Research: \$[\d,.]+ of \$[\d,.]+ a month \(\d+%\)/);
    expect(text.out).toMatch(/Immediate: +\$[\d,.]+ \(\d+%; ML teams typically 20%–30%\)/);
    expect(text.out).toContain('(14 days, scaled to a month)');
    const bad = await cli(['waste', '--month', '2026-13'], { now: T });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('"2026-13" is not a month');
    expect(bad.err).not.toMatch(/\bat \w+ \(/);
    const both = await cli(['waste', '--month', '2026-10', '--days', '3'], { now: T });
    expect(both.err).toContain('give a month or a number of days, not both');
  });

  it("/burnrate waste answers for the caller's teams, with the chart and the spot button", async () => {
    const t = testDeps(demoConfig(), T);
    t.deps.gpu = buildGpuDeps(t.deps.config)!;
    t.deps.sources = buildSources(t.deps.config).spend;
    await refreshSources(t.deps);
    const asked = command('U0DEMOALICE', 'waste');
    await dispatch(t.deps, asked);
    const [answer] = asked.reply.privates;
    expect(answer!.summary).toMatch(/^GPU waste, ML Research: \$[\d,.]+ of \$[\d,.]+ a month/);
    expect(answer!.blocks.some((b) => (b.type === 'image' || b.type === 'plot') && (b.png?.length ?? 0) > 100)).toBe(true);
    const buttons = answer!.blocks.flatMap((b) => (b.type === 'actions' ? b.buttons : []));
    expect(buttons.map((b) => b.action)).toEqual(['spot.approve']);
    expect(asked.reply.text()).not.toContain('LLM Training');
    const stranger = command('U0STRANGER', 'waste llm-training');
    await dispatch(t.deps, stranger);
    expect(stranger.reply.text()).toContain('not an owner or approver of any team');
  });
});
