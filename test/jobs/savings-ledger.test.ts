import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { runMonthlyReview } from '../../src/jobs/monthly-review.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { addDays, monthOf } from '../../src/domain/period.js';
import type { SavingsLedger } from '../../src/domain/saving.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { loadSavingsLedger } from '../../src/snapshots/savings-ledger.js';
import { spendRow } from '../support/deps.js';
import { ALICE, BOB, findingOf, gpuDemo, press, T } from '../support/gpu-demo.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { click } from '../support/recording-reply.js';
import { cli, workDir } from '../support/run-cli.js';
import { DAN } from '../support/demo-org.js';

// The stop is clicked on 18 Nov (gpuDemo's clock); its saving counts from the 19th.
const BEFORE_PER_DAY = 30;

/** The notebook's bill: a week at $30 a day before the stop; after it, nothing on the 19th and $12 on the 20th (started again briefly). */
function bill(instanceId: string): SpendRow[] {
  const row = (day: string, amount: number) => ({ ...spendRow('ml-research', day, amount), resourceId: instanceId });
  const week = Array.from({ length: 7 }, (_, i) => row(addDays('2026-11-11', i), BEFORE_PER_DAY));
  return [...week, row('2026-11-20', 12)];
}

describe('the savings ledger', () => {
  it('records a stop taken from chat once, and the next billing data confirms what it saved', async () => {
    const db = join(workDir(), 'burnrate.db');
    const { deps } = gpuDemo((c) => (c.actions.enabled = true), db);
    await runGpuCheck(deps);
    const findingId = await findingOf(deps, 'alice-notebook');
    const finding = (await deps.store.gpuFindings.listOpen()).find((f) => f.id === findingId)!;
    // Two people click at once: one stop, one ledger entry.
    await Promise.all([press(deps, ALICE, 'instance.stop', findingId), press(deps, BOB, 'instance.stop', findingId)]);
    const [entry, ...more] = await deps.store.savings.since('2026-11-01T00:00:00Z');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'instance.stop',
      resourceId: finding.instanceId,
      team: 'ml-research',
      expectedDaily: finding.perDay,
    });

    // Before the bill reaches the days after the stop: expected only.
    const unbilled = await loadSavingsLedger(deps, monthOf('2026-11-01'));
    expect(unbilled.lines[0]).toMatchObject({ realised: null, note: 'the bill charged nothing in the 28 days before' });

    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-11'] }, rows: bill(finding.instanceId), dataThrough: '2026-11-21T00:00:00Z' },
    ]);
    const ledger = await loadSavingsLedger(deps, monthOf('2026-11-01'));
    const [line] = ledger.lines;
    // Expected: what it cost a day when stopped, for 19–30 November (it ran every weekday before).
    // Confirmed: the week's $30 a day less what the bill charged on the 19th ($0); the 20th is the
    // bill's last, provisional day, not confirmed yet.
    expect(line!.expected).toBeCloseTo(12 * finding.perDay, 2);
    expect(line).toMatchObject({ baselineDaily: BEFORE_PER_DAY, realised: BEFORE_PER_DAY - 0, confirmedDays: 1 });
    expect(ledger).toMatchObject({ realised: 30, billedThrough: '2026-11-21' });
    // Other teams' ledgers do not show it.
    expect((await loadSavingsLedger(deps, monthOf('2026-11-01'), ['llm-training'])).lines).toEqual([]);

    // The month's review says it, in the team's summary.
    const [review] = await runMonthlyReview(deps, { teams: ['ml-research'], month: '2026-11', dryRun: true });
    expect(review!.figures.savings).toMatchObject({ realised: 30, actions: 1 });
    expect(renderPlainText(reviewSummary(review!.figures, 0))).toMatch(
      /burnrate actions: +saved \$30\.00 in November 2026 \(confirmed by the bill\), \$[\d,.]+ expected, from 1 action/,
    );

    // The command line, a few minutes after the stop: the same figures, side by side, with their basis.
    const soon = { now: '2026-11-18T06:10:00Z' };
    const json = await cli(['savings', '--month', '2026-11', '--json', '--db', db], soon);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.out) as SavingsLedger).realised).toBe(30);
    const text = await cli(['savings', '--month', '2026-11', '--db', db], soon);
    expect(text.out).toMatch(/^burnrate actions saved \$30\.00 in 2026-11 \(confirmed by the bill up to 2026-11-21\), \$[\d,.]+ expected/);
    expect(text.out).toMatch(/instance\.stop +alice-notebook +ml-research +U0DEMO\w+ +12 +\$[\d,.]+ +\$30\.00 \(1 d\)/);
    expect(text.out).toContain('Confirmed: for each day the bill covers (its last, provisional day excluded)');

    // Three days later the demo's metrics show the notebook's GPUs reporting again later on the 18th
    // (the demo's metrics know nothing of stops; a scraper sees a started machine the same way):
    // someone started it, so the stop saved nothing after all.
    const later = await cli(['savings', '--month', '2026-11', '--json', '--db', db], { now: '2026-11-21T09:00:00Z' });
    expect(JSON.parse(later.out) as SavingsLedger).toMatchObject({ lines: [], expected: 0, realised: 0 });
  });

  it('records a review line answered "Right-size" with its recommended saving, until the answer changes', async () => {
    const { deps } = gpuDemo();
    // The demo's dan-notebook (a g6e.2xlarge whose GPU does little) billed $40 a day, October to 20 November.
    const notebook = (await deps.gpu!.inventory()).instances.find((i) => i.name === 'dan-notebook')!.instanceId;
    const row = (day: string, amount: number) => ({ ...spendRow('llm-training', day, amount), resourceId: notebook });
    const days = (from: string, n: number, amount: number) => Array.from({ length: n }, (_, i) => row(addDays(from, i), amount));
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] },
        // Right-sized on the 18th: $25 a day on the 19th and 20th.
        rows: [...days('2026-10-01', 31, 40), ...days('2026-11-01', 18, 40), ...days('2026-11-19', 2, 25)],
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
    await runMonthlyReview(deps, { teams: ['llm-training'], month: '2026-10' });
    const lines = await deps.store.reviews.lines('llm-training', '2026-10');
    const line = lines.find((l) => l.resourceId === notebook)!;
    const recommendation = line.recommendations.find((r) => r.kind === 'right-size')!;
    const answer = async (userId: string, value: string) => {
      const interaction = click(userId, 'review.answer', JSON.stringify({ line: line.id, answer: value }));
      await dispatch(deps, interaction);
      return interaction.reply;
    };

    await answer('U0STRANGER', 'right-size');
    expect(await deps.store.savings.since('2026-11-01T00:00:00Z')).toEqual([]);
    await answer(DAN, 'right-size');
    const [entry, ...more] = await deps.store.savings.since('2026-11-01T00:00:00Z');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'review.right-size',
      ref: `review:llm-training:2026-10:${line.rank}`,
      resourceId: line.resourceId,
      team: 'llm-training',
      byUser: DAN,
      at: new Date(T),
    });
    // The recommendation's monthly saving over an average month's days (365.25 / 12).
    expect(entry!.expectedDaily).toBeCloseTo(recommendation.monthlySaving / (365.25 / 12), 6);

    // Confirmed by the bill: $40 every day in the four weeks before the answer, $25 on the 19th (the
    // 20th, also $25, is the bill's provisional last day).
    const [confirmed] = (await loadSavingsLedger(deps, monthOf('2026-11-01'))).lines;
    expect(confirmed).toMatchObject({ action: 'review.right-size', baselineDaily: 40, realised: 40 - 25, confirmedDays: 1 });

    // Changed to "Still needed": no longer a saving burnrate claims.
    await answer(DAN, 'still-needed');
    expect(await deps.store.savings.since('2026-11-01T00:00:00Z')).toEqual([]);
  });

  it('a dry run or a refused stop records nothing', async () => {
    const { deps } = gpuDemo();
    await runGpuCheck(deps);
    await press(deps, ALICE, 'instance.stop', await findingOf(deps, 'alice-notebook'));
    await press(deps, 'U0STRANGER', 'instance.stop', await findingOf(deps, 'alice-notebook'));
    expect(await deps.store.savings.since('2026-01-01T00:00:00Z')).toEqual([]);
  });
});
