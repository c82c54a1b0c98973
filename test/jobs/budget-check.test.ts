import { describe, expect, it } from 'vitest';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { importSpend, testDeps } from '../support/deps.js';
import { mlTeam } from '../support/ml-team.js';

const config = {
  teams: [mlTeam()],
};

describe('the budget check job', () => {
  it('alerts once per crossing, escalates, and resolves, across runs', async () => {
    const { deps, chat } = testDeps(config);
    await importSpend(deps, '2026-11-01', '2026-11-11', 55); // 550: past 50%

    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    expect(chat.headlines()).toEqual(['ML has spent 55% of its November 2026 budget ($550.00 of $1,000.00)']);

    await runBudgetCheck(deps); // same data: nothing new
    await deliverOutbox(deps);
    expect(chat.posted).toHaveLength(1);

    await importSpend(deps, '2026-11-01', '2026-11-21', 55); // re-import: 1,100, past 80 and 100
    const escalated = await runBudgetCheck(deps);
    expect(escalated.alerts.map((a) => [a.event, a.finding.threshold, a.previousThreshold])).toEqual([['escalated', 100, 50]]);
    await deliverOutbox(deps);
    // The first alert is updated in place and the change is said in its thread.
    expect(chat.posted.map((p) => [p.op, p.ref, p.address])).toEqual([
      ['post', 'ts-1', '#ml'],
      ['update', 'ts-1', '#ml'],
      ['reply', 'ts-1', '#ml'],
    ]);
    expect(chat.headlines()[2]).toContain('ML has spent 110% of its November 2026 budget. $1,100.00 spent');

    await importSpend(deps, '2026-11-01', '2026-11-05', 10); // a corrected export: 40, under every threshold
    const resolved = await runBudgetCheck(deps);
    expect(resolved.alerts.map((a) => a.event)).toEqual(['resolved']);
    expect(
      resolved.findings
        .filter((f) => f.state === 'resolved')
        .map((f) => f.threshold)
        .sort((a, b) => a - b),
    ).toEqual([50, 80, 100]);
  });

  it('records but does not post alerts of a snoozed group, and uses budgets set from chat', async () => {
    const { deps, chat } = testDeps(config);
    await importSpend(deps, '2026-11-01', '2026-11-11', 55);
    await deps.store.snoozes.set({
      groupKey: 'budget.actual:ml:2026-11',
      until: new Date('2026-11-22T00:00:00Z'),
      byUser: 'U1',
      at: deps.clock(),
    });
    const snoozed = await runBudgetCheck(deps);
    expect(snoozed.alerts).toHaveLength(1);
    expect(snoozed.queued).toEqual([]);

    await deps.store.budgets.set({ team: 'ml', cadence: 'monthly', amount: 500, thresholds: null, byUser: 'U2', at: deps.clock() });
    const raised = await runBudgetCheck(deps);
    expect(raised.findings.map((f) => [f.threshold, f.budget])).toContainEqual([100, 500]);
    await deliverOutbox(deps);
    expect(chat.posted).toEqual([]);
  });

  it('posts an open alert once to a platform that was not running when it opened', async () => {
    const { deps, chat } = testDeps(config);
    const platforms = deps.chat;
    deps.chat = []; // e.g. `burnrate check` from a shell with no chat configured
    await importSpend(deps, '2026-11-01', '2026-11-11', 55);
    expect((await runBudgetCheck(deps)).alerts).toHaveLength(1);

    deps.chat = platforms;
    await runBudgetCheck(deps);
    await runBudgetCheck(deps);
    await deliverOutbox(deps);
    expect(chat.headlines()).toEqual(['ML has spent 55% of its November 2026 budget ($550.00 of $1,000.00)']);
  });

  it('a dry run reports but records nothing and queues nothing', async () => {
    const { deps, chat } = testDeps(config);
    await importSpend(deps, '2026-11-01', '2026-11-11', 55);
    const dry = await runBudgetCheck(deps, { dryRun: true });
    expect(dry.findings.map((f) => f.state)).toEqual(['new']);
    expect(await deps.store.findings.listOpen()).toEqual([]);
    await deliverOutbox(deps);
    expect(chat.posted).toEqual([]);
  });
});
