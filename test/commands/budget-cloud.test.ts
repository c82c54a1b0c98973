import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { daysOf } from '../../src/domain/period.js';
import { spendRow, testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';

const CONFIG = {
  teams: [{ id: 'llm-training', name: 'LLM Training', match: ['llm'], owners: ['U1'] }],
  sources: [{ type: 'aws', budgets: { accountId: '123456789012' } }],
};

describe('/burnrate budget with cloud budgets', () => {
  it("shows a team's AWS budget, used for its alerts, and says when its data is stale", async () => {
    const { deps } = testDeps(CONFIG, '2026-11-21T09:00:00Z');
    const days = daysOf({ start: '2026-11-01', end: '2026-11-21' });
    await deps.store.importBatches(
      [
        {
          scope: { source: 'aws', billingPeriods: ['2026-11'] },
          rows: days.map((d) => spendRow('llm-training', d, 300)),
          dataThrough: '2026-11-21T00:00:00Z',
        },
      ],
      new Date('2026-11-20T07:00:00Z'),
    );
    await deps.store.cloudBudgets.replace(
      'aws:budgets',
      [
        {
          source: 'aws:budgets',
          origin: 'aws',
          id: '123456789012/llm',
          name: 'llm-monthly',
          team: 'llm-training',
          mappedBy: 'name',
          period: 'monthly',
          amount: 10000,
          currency: 'USD',
          actual: 6100,
          forecast: 9200,
          thresholds: [50, 80],
          notifications: [
            { threshold: 50, on: 'actual' },
            { threshold: 80, on: 'actual' },
          ],
          drivesAlerts: true,
        },
      ],
      new Date('2026-11-21T08:00:00Z'),
    );
    await deps.store.freshness.recordFailure(
      'aws',
      "Cost Explorer rejected burnrate's AWS credentials (UnrecognizedClientException).",
      new Date('2026-11-21T08:00:00Z'),
    );

    const interaction = command('U1', 'budget');
    await dispatch(deps, interaction);
    const answer = interaction.reply.text();
    // The AWS budget is the team's budget in force: its status and its own line.
    expect(answer).toMatch(/LLM Training +\$10,000\.00 monthly +\$6,000\.00 \(60%\)/);
    expect(answer).toContain('Budgets in AWS and Google Cloud');
    expect(answer).toMatch(/llm-training +llm-monthly \* +AWS Budgets +\$10,000\.00 monthly +\$6,100\.00 \(61%\)/);
    expect(answer).toContain('AWS data 26 h old (refresh failing)');
  });
});
