import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Recommendation } from '../../src/domain/recommendation.js';
import type { ReviewFigures, ReviewLine } from '../../src/domain/review.js';
import type { WasteDiagnosis } from '../../src/domain/waste.js';
import { cli, workDir } from '../support/run-cli.js';

// One idle figure and one spot figure per instance: on the demo's last month, the monthly review's
// idle cost and each cost line's spot saving are the waste diagnosis's own, and the waste report's
// causes add its instances' figures up. A surface that computed its own (a catalog discount on the
// line's cost, idle GPU-hours at a recent billed rate) differs from these by dollars, and fails here.
// The amounts themselves are checked against plain sums of a hand-written bill in
// test/snapshots/waste-headline.test.ts.

const NOW = '2026-12-03T06:00:00Z';
const MONTH = '2026-11';

interface ReviewJson {
  reviews: { team: string; figures: ReviewFigures; lines: ReviewLine[] }[];
}

describe('the demo month: one idle and one spot figure per instance on the review and the waste report', () => {
  it('review idle = waste idle + stalled; review line spot = waste instance spot; causes = sum of instances', async () => {
    const cwd = workDir();
    const db = join(cwd, 'burnrate.db');
    const waste = await cli(['waste', '--month', MONTH, '--json', '--db', db], { cwd, now: NOW });
    expect(waste.code, waste.err).toBe(0);
    const diagnosis = JSON.parse(waste.out) as WasteDiagnosis;
    const review = await cli(['review', '--month', MONTH, '--json', '--dry-run', '--db', db], { cwd, now: NOW });
    expect(review.code, review.err).toBe(0);
    const { reviews } = JSON.parse(review.out) as ReviewJson;
    expect(diagnosis.period.scaledToMonth).toBe(false);
    expect(reviews.length).toBe(diagnosis.teams.length);

    const cents = (n: number) => Math.round(n * 100);
    let spotLines = 0;
    for (const { team, figures, lines } of reviews) {
      const row = diagnosis.teams.find((t) => t.team === team)!;
      const monthly = (id: string) => row.categories.find((c) => c.id === id)!.monthly;
      // The review's idle cost is the waste report's idle and stalled causes (all in USD here).
      expect(figures.currency).toBe(diagnosis.currency);
      expect(cents(figures.idle!.cost), team).toBe(cents(monthly('idle') + monthly('stalled')));
      expect(figures.idle!.gpuHours).toBe(row.idleGpuHours);
      // Each cause is its instances' figures added up (to a cent per instance of rounding).
      const mine = diagnosis.instances.filter((i) => i.team === team);
      expect(Math.abs(cents(mine.reduce((s, i) => s + i.idle, 0)) - cents(monthly('idle') + monthly('stalled')))).toBeLessThanOrEqual(
        mine.length,
      );
      const spot = mine.reduce((s, i) => s + (i.spot ?? 0), 0);
      expect(Math.abs(cents(spot) - cents(monthly('spot-ready') + monthly('spot-after-fix')))).toBeLessThanOrEqual(mine.length);
      // A line's spot saving is its instance's spot figure, nothing else.
      for (const line of lines) {
        const figure = diagnosis.instances.find((i) => i.instanceId === line.resourceId && i.team === team)?.spot ?? null;
        const expected = line.pricing === 'Committed' || line.pricing === 'Dynamic' || !figure ? null : figure;
        expect(line.spotSaving, `${team} ${line.label}`).toBe(expected);
        if (expected !== null) spotLines++;
      }
    }
    expect(spotLines).toBeGreaterThan(0);
    // The always-on table's spot column beside the commitment: the same figure again.
    let alwaysOnSpot = 0;
    for (const row of diagnosis.commitments.alwaysOn) {
      const figure = diagnosis.instances.filter((i) => i.instanceId === row.instanceId && i.spot !== null);
      if (row.spotSaving === null || figure.length === 0) continue;
      expect(row.spotSaving, row.instanceId).toBe(figure.reduce((s, i) => s + i.spot!, 0));
      alwaysOnSpot++;
    }
    expect(alwaysOnSpot).toBeGreaterThan(0);
  }, 120_000);
});

describe('the demo now: recommend shows the same spot figure as the waste report and the review for the same days', () => {
  it("each spot recommendation's monthly saving is its instance's spot figure in `waste --days 7`; the review's lines carry the same", async () => {
    const cwd = workDir();
    const db = join(cwd, 'burnrate.db');
    // recommendations.lookbackDays is 7 by default: the last 7 whole days before today, as `waste --days 7` reads them.
    const waste = await cli(['waste', '--days', '7', '--json', '--db', db], { cwd, now: NOW });
    expect(waste.code, waste.err).toBe(0);
    const diagnosis = JSON.parse(waste.out) as WasteDiagnosis;
    const recommend = await cli(['recommend', '--json', '--db', db], { cwd, now: NOW });
    expect(recommend.code, recommend.err).toBe(0);
    const { recommendations } = JSON.parse(recommend.out) as { recommendations: Recommendation[] };
    expect(diagnosis.currency).toBe('USD');

    const cents = (n: number) => Math.round(n * 100);
    // The waste report's figure of an instance: its teams' figures added up.
    const figures = new Map<string, number>();
    for (const i of diagnosis.instances) if (i.spot !== null) figures.set(i.instanceId, (figures.get(i.instanceId) ?? 0) + i.spot);
    expect(figures.size).toBeGreaterThan(0);
    const spot = recommendations.filter((r) => r.kind === 'spot');
    expect(spot.length).toBeGreaterThan(0);
    for (const r of spot) {
      expect(figures.has(r.instanceId), r.name ?? r.instanceId).toBe(true);
      expect(cents(r.monthlySaving), r.name ?? r.instanceId).toBe(cents(figures.get(r.instanceId)!));
      expect(r.evidence.join(' ')).toContain('over the 7 days from 2026-11-26 to 2026-12-02');
    }
    // Every instance the waste report would move to spot is advised so, or right-sized first where that saves more.
    for (const [id, figure] of figures) {
      const r = recommendations.find((x) => x.instanceId === id);
      expect(r, id).toBeDefined();
      if (r!.kind !== 'spot') expect(r!.monthlySaving).toBeGreaterThanOrEqual(figure);
    }
    // And no spot recommendation where the waste report has no spot figure (committed, multi-node, not checkpointed).
    expect(spot.every((r) => figures.has(r.instanceId))).toBe(true);

    // The review, asked at the same moment, attaches the same recommendations to its lines.
    const review = await cli(['review', '--month', MONTH, '--json', '--dry-run', '--db', db], { cwd, now: NOW });
    expect(review.code, review.err).toBe(0);
    const { reviews } = JSON.parse(review.out) as ReviewJson;
    let attached = 0;
    for (const line of reviews.flatMap((r) => r.lines))
      for (const r of line.recommendations.filter((x) => x.kind === 'spot')) {
        expect(r.monthlySaving, line.label).toBe(spot.find((x) => x.instanceId === r.instanceId)!.monthlySaving);
        attached++;
      }
    expect(attached).toBeGreaterThan(0);
  }, 120_000);
});
