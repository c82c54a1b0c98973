import { expectedAnswerLabels } from '../support/review-answers.js';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';

// The embedded demo organisation on Wednesday 2 Dec 2026: November is last month everywhere.
const NOW = '2026-12-02T10:00:00Z';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('burnrate review and showback on the demo organisation', () => {
  let dir: string;
  let first: { code: number; out: string; err: string };

  beforeAll(async () => {
    dir = workDir();
    first = await cli(['review', '--month', '2026-11', '--json', '--chart-dir', 'charts'], { cwd: dir, now: NOW });
  }, 120_000);

  it('reviews every team: figures, unit costs, up to 10 lines and a chart', () => {
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const { reviews } = JSON.parse(first.out);
    expect(reviews.map((r: { team: string }) => r.team)).toEqual(['ml-research', 'llm-training', 'inference', 'vision']);
    for (const review of reviews) {
      expect(review).toMatchObject({
        month: '2026-11',
        created: true,
        figures: { month: '2026-11', previousMonth: '2026-10', currency: 'USD' },
      });
      expect(review.figures.spend).toBeGreaterThan(0);
      expect(review.figures.idle.cost).toBeGreaterThanOrEqual(0);
      expect(review.figures.idle.cost).toBeLessThan(review.figures.spend);
      expect(review.lines.length).toBeGreaterThan(0);
      expect(review.lines.length).toBeLessThanOrEqual(10);
      const costs = review.lines.map((l: { cost: number }) => l.cost);
      expect(costs).toEqual([...costs].sort((a: number, b: number) => b - a));
      const png = readFileSync(review.chart.file);
      expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect(png.length).toBe(review.chart.bytes);
    }
    const idle = Object.fromEntries(
      reviews.map((r: { team: string; figures: { idle: { cost: number } } }) => [r.team, r.figures.idle.cost]),
    );
    // Notebooks left on overnight and training tails cost something; serving nothing, but for the
    // reranker nothing calls (g6.xlarge in us-east-1 at its list price, $0.8048/h), idle all 30 days.
    expect(idle).toMatchObject({ 'llm-training': expect.any(Number), 'ml-research': expect.any(Number) });
    expect(idle.inference).toBeCloseTo(0.8048 * 24 * 30, 2);
    expect(idle['llm-training']).toBeGreaterThan(1_000);
    expect(idle['ml-research']).toBeGreaterThan(100);
    const llm = reviews.find((r: { team: string }) => r.team === 'llm-training');
    expect(llm.figures.spend).toBeGreaterThan(llm.figures.budget); // the demo's team over budget
    expect(llm.figures.forecast).toMatchObject({ month: '2026-12' });
    // Unit costs from the demo's experiment, run_id and sweep tags.
    expect(llm.figures.units.run.count).toBeGreaterThan(10);
    expect(llm.figures.units.sweep.count).toBeGreaterThan(0);
    expect(llm.figures.units.run.average).toBeCloseTo(llm.figures.units.run.total / llm.figures.units.run.count, 1);
    const inference = reviews.find((r: { team: string }) => r.team === 'inference');
    expect(inference.figures.units.perThousandPredictions.predictions).toBe(240_000_000);
    expect(inference.figures.units.perThousandPredictions.cost).toBeCloseTo((inference.figures.spend / 240_000_000) * 1000, 4);
    // Showback lines no longer carry untagged spend: it stays the organisation's, in plain sight.
    const shared = reviews.reduce((sum: number, r: { figures: { showback: { shared: number } } }) => sum + r.figures.showback.shared, 0);
    expect(shared).toBeLessThan(llm.figures.untagged.amount);
  });

  it('records a month once: a second run keeps the lines and queues nothing', async () => {
    const again = await cli(['review', '--month', '2026-11', '--team', 'llm-training', '--json'], { cwd: dir, now: NOW });
    expect(again.code).toBe(0);
    const [review] = JSON.parse(again.out).reviews;
    const before = JSON.parse(first.out).reviews.find((r: { team: string }) => r.team === 'llm-training');
    expect(review).toMatchObject({ team: 'llm-training', created: false, queued: 0 });
    expect(review.lines.map((l: { id: number }) => l.id)).toEqual(before.lines.map((l: { id: number }) => l.id));
  });

  it('prints the whole thread as text', async () => {
    const text = await cli(['review', '--month', '2026-11', '--team', 'llm', '--dry-run'], { cwd: dir, now: NOW });
    expect(text.code).toBe(0);
    expect(text.out).toContain('LLM Training: cost review of November 2026');
    expect(text.out).toContain('[chart: LLM Training: daily spend by service category, November 2026');
    const lines: { category: string; pricing: string | null; instanceType: string | null }[] = JSON.parse(first.out).reviews.find(
      (r: { team: string }) => r.team === 'llm-training',
    ).lines;
    const expected = lines.map((l) => `Actions: [${expectedAnswerLabels(l).join('] [')}]`);
    expect(text.out.match(/Actions: \[Still needed\][^\n]*/g)).toEqual(expected);
    expect(expected.filter((e) => e.includes('Move to spot')).length).toBeLessThan(10);
    expect(text.out).toContain('Owner: [U0DEMOCAROL] [U0DEMODAN]');
  });

  it('refuses a bad month or team with exit code 2 and says what to write', async () => {
    const bad = await cli(['review', '--month', '2026-13'], { cwd: dir, now: NOW });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('"2026-13" is not a month');
    expect(bad.err).toContain('YYYY-MM');
    const future = await cli(['review', '--month', '2027-01'], { cwd: dir, now: NOW });
    expect(future.code).toBe(2);
    expect(future.err).toContain('2027-01 has not started yet');
    expect((await cli(['review', '--team', 'nope'], { cwd: dir, now: NOW })).err).toContain('unknown team "nope"');
  });

  it('showback: CSV and JSON that tie to the month’s bill, to the cent', async () => {
    // The bill, summed straight from the stored cost lines of the billing period, the Tokyo
    // account's yen at the demo configuration's rate (0.0067 USD).
    const usd = (column: string) => `CASE WHEN currency = 'JPY' THEN ${column} * 0.0067 ELSE ${column} END`;
    const db = new Database(join(dir, 'data', 'burnrate.db'), { readonly: true });
    const bill = db
      .prepare(
        `SELECT sum(${usd('billed')}) AS billed, sum(${usd('effective')}) AS effective FROM spend_daily WHERE billing_period = '2026-11'`,
      )
      .get() as { billed: number; effective: number };
    const untagged = db
      .prepare(
        `SELECT coalesce(sum(${usd('effective')}), 0) AS amount FROM spend_daily WHERE billing_period = '2026-11' AND team = '(untagged)'
           AND charge_category <> 'Tax' AND NOT ((resource_id IS NULL OR resource_id = '') AND cost_kind = 'recurring')
           AND coalesce(lower(commitment_discount_status), '') <> 'unused'`,
      )
      .get() as { amount: number };
    db.close();

    const json = await cli(['showback', '--month', '2026-11', '--format', 'json'], { cwd: dir, now: NOW });
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out);
    expect(report).toMatchObject({ month: '2026-11', currency: 'USD' });
    expect(report.total).toBeCloseTo(bill.effective, 2);
    // Team totals and the organisation's own lines add up to the effective total, to the cent...
    const teams = report.teams.reduce((s: number, t: { total: number }) => s + t.total, 0);
    const organisation = report.organisation.reduce((s: number, o: { amount: number }) => s + o.amount, 0);
    expect(Math.round((teams + organisation) * 100)).toBe(Math.round(bill.effective * 100));
    // ...untagged spend stays visible, not spread...
    const unallocated = report.organisation.find((o: { key: string }) => o.key === '(unallocated)');
    expect(unallocated.amount).toBeCloseTo(untagged.amount, 2);
    // ...and the reconciliation reaches the billed total.
    const r = report.reconciliation;
    expect(r.billed).toBeCloseTo(bill.billed, 2);
    // The terms add up to the billed total, which is the bill's to the cent (above), with no rounding plug.
    expect(Math.round((r.effective + r.purchases + r.unusedCommitment + r.amortisedUsage) * 100)).toBe(Math.round(r.billed * 100));
    expect(r).not.toHaveProperty('rounding');
    expect(report.coverage).toBeLessThanOrEqual(1);
    expect(report.teams[0].team).toBe('llm-training');

    const csv = await cli(['showback', '--month', '2026-11'], { cwd: dir, now: NOW });
    expect(csv.code).toBe(0);
    const rows = csv.out.trim().split('\n');
    expect(rows[0]).toBe('month,team,team_name,direct,shared_untagged,total,share,budget');
    expect(rows).toHaveLength(1 + report.teams.length + report.organisation.length + 1);
    const llm = report.teams.find((t: { team: string }) => t.team === 'llm-training');
    expect(rows[1]).toBe(
      `2026-11,llm-training,LLM Training,${llm.direct.toFixed(2)},${(llm.shared + llm.commitment).toFixed(2)},${llm.total.toFixed(2)},${llm.share.toFixed(4)},150000.00`,
    );
    expect(rows.at(-1)).toMatch(/^2026-11,\(reconciliation\),/);
    expect((await cli(['showback', '--format', 'xml'], { cwd: dir, now: NOW })).err).toContain('--format must be one of csv, json');
  });

  it('writes nothing outside the working folder', () => {
    expect(readFileSync(join(dir, 'charts', 'burnrate-vision-2026-11.png')).subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });
});
