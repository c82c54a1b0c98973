import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { testDeps } from '../support/deps.js';
import { click } from '../support/recording-reply.js';
import { ALICE, BOB } from '../support/demo-org.js';

// Demo users: ALICE owns ml-research, BOB approves it.

describe('budget.save through the dispatcher', () => {
  it("saves an approver's budgets with their thresholds, audited, and answers by replacing the form", async () => {
    const { deps } = testDeps(demoConfig());
    const save = click(
      BOB,
      'budget.save',
      JSON.stringify({ team: 'ml-research', monthly: 75000, weekly: 20000, thresholds: [60, 90, 100] }),
    );
    await dispatch(deps, save);
    expect(save.reply.privates).toEqual([]);
    expect(save.reply.updates.map((m) => m.summary)).toEqual(['The budget of ml-research is saved.']);
    expect((await deps.store.budgets.list()).map((b) => [b.team, b.cadence, b.amount, b.thresholds])).toEqual([
      ['ml-research', 'monthly', 75000, [60, 90, 100]],
      ['ml-research', 'weekly', 20000, [60, 90, 100]],
    ]);
    expect((await deps.store.audit.list()).map((a) => [a.userId, a.action, a.result])).toEqual([
      [BOB, 'budget set', 'ok'],
      [BOB, 'budget set', 'ok'],
    ]);
  });

  it('refuses a non-approver privately, saves nothing and audits the refusal', async () => {
    const { deps } = testDeps(demoConfig());
    const save = click(ALICE, 'budget.save', JSON.stringify({ team: 'ml-research', monthly: 10, weekly: null, thresholds: null }));
    await dispatch(deps, save);
    expect(save.reply.text()).toContain('Only approvers of ml-research can change its budget.');
    expect(save.reply.updates).toEqual([]);
    expect(await deps.store.budgets.list()).toEqual([]);
    expect((await deps.store.audit.list()).map((a) => [a.userId, a.result])).toEqual([[ALICE, 'refused']]);
  });

  it('answers a forged or empty form with what to do, and saves nothing', async () => {
    const { deps } = testDeps(demoConfig());
    for (const value of [
      'not json',
      JSON.stringify({ team: 'ml-research', monthly: -5, weekly: null, thresholds: null }),
      JSON.stringify({ team: 'ml-research', monthly: null, weekly: null, thresholds: null }),
    ]) {
      const save = click(BOB, 'budget.save', value);
      await dispatch(deps, save);
      expect(save.reply.text()).toContain('This button carries data burnrate cannot read.');
    }
    expect(await deps.store.budgets.list()).toEqual([]);
  });
});
