import { describe, expect, it } from 'vitest';
import { daysOf } from '../../src/domain/period.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runMonthlyReview } from '../../src/jobs/monthly-review.js';
import { runReviewFollowups } from '../../src/jobs/review-followups.js';
import { spendRow, testDeps } from '../support/deps.js';

// November's review is posted on 2 December; the December invoice then corrects a November charge.

describe('a correction of a month already reviewed', () => {
  it("is told once in the review's thread, with the amount and the line", async () => {
    const { deps, chat } = testDeps({ teams: [{ id: 'ml', name: 'ML', budget: { monthly: 5000 } }] }, '2026-12-02T10:00:00Z');
    const november = daysOf({ start: '2026-11-01', end: '2026-12-01' }).map((d) => spendRow('ml', d, 100));
    await deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-11'] }, rows: november, dataThrough: '2026-12-01T00:00:00Z' },
    ]);
    await runMonthlyReview(deps, { teams: ['ml'], month: '2026-11' });
    await deliverOutbox(deps);
    await deliverOutbox(deps);
    const posted = chat.posted.length;
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });

    const correction = {
      ...spendRow('ml', '2026-11-15', -12.25),
      billingPeriod: '2026-12',
      chargeClass: 'Correction',
      service: 'Amazon Elastic Compute Cloud',
      resourceId: 'i-0abc',
      resourceName: 'trainer-1',
    };
    await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-12'] }, rows: [correction], dataThrough: null }]);
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [], corrected: ['review:ml:2026-11'] });
    await deliverOutbox(deps);
    const told = chat.posted.slice(posted);
    expect(told.map((p) => p.op)).toEqual(['reply']);
    expect(told[0]!.message.summary).toContain('Correction: -$12.25 on Amazon Elastic Compute Cloud, trainer-1 (i-0abc)');
    expect(JSON.stringify(told[0]!.message)).toContain('The December 2026 invoice corrects November 2026');

    // Told once: the next run queues nothing.
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(posted + 1);
  });
});
