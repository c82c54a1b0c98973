/**
 * A budget changed from chat is seen at once: the team's channel is told who changed it, and the
 * open alert's message is edited to the new budget, through the real SlackChat to the fake Web API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBudget } from '../../src/actions/set-budget.js';
import { daysOf } from '../../src/domain/period.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../src/jobs/deliver-outbox.js';
import { FakeSlackApi } from '../fakes/fake-slack-api.js';
import { spendRow, testDeps } from '../support/deps.js';
import { slackChat } from '../chat/slack/slack-harness.js';

const config = {
  teams: [
    {
      id: 'ml',
      name: 'ML',
      slack: { channel: 'C0ML' },
      owners: ['U0OWNER'],
      approvers: ['U0DAN'],
      budget: { monthly: 1000, thresholds: [50, 80, 100], forecast: false },
    },
  ],
};
const actor = (userId: string) => ({ userId, platform: 'slack' });

describe('a budget changed from chat', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
  });
  afterEach(async () => {
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it("is announced in the team's channel and edits the open alert to the new budget at once", async () => {
    const { deps } = testDeps(config);
    deps.chat = [slackChat(fake, deps)];
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => spendRow('ml', d, 55)), // $550: 55% of $1,000
        dataThrough: '2026-11-11T00:00:00Z',
      },
    ]);
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    const alertTs = String(fake.callsOf('chat.postMessage')[0]!.answer?.ts);

    // The owner may not; the approver may.
    await expect(setBudget(deps, actor('U0OWNER'), { team: 'ml', cadence: 'monthly', amount: 600, thresholds: null })).rejects.toThrow(
      'Only approvers of ml can change its budget.',
    );
    await setBudget(deps, actor('U0DAN'), { team: 'ml', cadence: 'monthly', amount: 600, thresholds: null });
    await deliverOutbox(deps);

    const posts = fake.callsOf('chat.postMessage');
    const announcement = posts.find((p) => String(p.args.text).startsWith("ML's monthly budget"))!;
    expect(announcement.args).toMatchObject({ channel: 'C0ML', text: "ML's monthly budget is now $600.00 (was $1,000.00)." });
    expect(JSON.stringify(announcement.args.blocks)).toContain('Changed by <@U0DAN>');
    // $550 of $600 is 92%: the 80% threshold is crossed now, told in the alert's thread and broadcast…
    expect(posts.some((p) => p.args.thread_ts === alertTs && /has spent 92% of its November 2026 budget/.test(String(p.args.text)))).toBe(
      true,
    );
    // …and the alert itself shows the new budget.
    const edits = fake.callsOf('chat.update').filter((c) => c.args.ts === alertTs);
    expect(edits.length).toBeGreaterThan(0);
    expect(JSON.stringify(edits.at(-1)!.args.blocks)).toContain('$600.00');
    expect(JSON.stringify(edits.at(-1)!.args.blocks)).not.toContain('$1,000.00');
  });
});
