import { describe, expect, it } from 'vitest';
import { loadReviewLines } from '../../src/jobs/review/review-lines.js';
import { spendRow, testDeps } from '../support/deps.js';

describe('review lines', () => {
  it('name a resource as the bill does, with its id beside the name', async () => {
    const { deps } = testDeps({ teams: [{ id: 'ml' }] }, '2026-12-02T10:00:00Z');
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [
          { ...spendRow('ml', '2026-11-03', 300), resourceId: 'i-0abc', resourceName: 'trainer-1' },
          { ...spendRow('ml', '2026-11-03', 100), resourceId: 'i-0def' },
        ],
        dataThrough: null,
      },
    ]);
    const lines = await loadReviewLines(deps, 'ml', '2026-11');
    expect(lines.map((l) => [l.label, l.cost])).toEqual([
      ['trainer-1 (i-0abc)', 300],
      ['i-0def', 100],
    ]);
  });
});
