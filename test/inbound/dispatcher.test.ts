import { beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import type { Deps } from '../../src/deps.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { DemoSource } from '../../src/providers/demo/demo-source.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { click, command } from '../support/recording-reply.js';
import { ADMIN, ALICE, BOB, CAROL, STRANGER } from '../support/demo-org.js';

// Demo users: ALICE owns ml-research, BOB approves it, CAROL owns llm-training, DAN approves it.
const FORECAST = 'budget.forecast:llm-training:2026-11:100';

let deps: Deps;

beforeAll(async () => {
  deps = testDeps(demoConfig(), '2026-11-20T09:00:00Z').deps;
  deps.sources = [new DemoSource({ seed: 42, days: 90 })];
  await refreshSources(deps);
  await runBudgetCheck(deps);
});

async function ask(userId: string, text: string): Promise<string> {
  const interaction = command(userId, text);
  await dispatch(deps, interaction);
  return interaction.reply.text();
}

describe('commands through the dispatcher', () => {
  it('help lists every verb; an unknown verb gets help with the problem first', async () => {
    const help = await ask(ALICE, 'help');
    for (const verb of ['spend', 'budget', 'budget set', 'top', 'snooze', 'whoami']) expect(help).toContain(`/burnrate ${verb}`);
    expect(await ask(ALICE, 'frobnicate')).toMatch(/^Unknown command "frobnicate"\. Here is what burnrate understands:/);
    expect(await ask(ALICE, 'wast llm-training')).toMatch(
      /^Unknown command "wast"\. Did you mean "waste"\? Here is what burnrate understands:/,
    );
    expect(await ask(ALICE, '')).toContain('burnrate commands');
  });

  it("spend answers for the caller's own team by default, in any word order", async () => {
    expect(await ask(ALICE, 'spend')).toMatch(/^Spend of ml-research, 1 Nov – 30 Nov/);
    const lastMonth = await ask(ALICE, 'spend by resource last-month');
    expect(lastMonth).toMatch(/^Spend of ml-research, 1 Oct – 31 Oct/);
    expect(lastMonth).toContain('Resource');
  });

  it('members see only their teams; admins see all', async () => {
    expect(await ask(ALICE, 'spend llm-training')).toContain('you are not a member of team "llm-training"');
    expect(await ask(ADMIN, 'spend by team')).toMatch(/llm-training[\s\S]*ml-research/);
    expect(await ask(STRANGER, 'spend')).toContain('not an owner or approver of any team');
  });

  it('bad arguments get the usage line with an example', async () => {
    const answer = await ask(ALICE, 'spend ml-research yesterday-ish');
    expect(answer).toContain(
      '"yesterday-ish" is not a team you can see, a period or a way to split spend: your teams: ml-research; periods: this-month',
    );
    expect(await ask(ALICE, 'spend last-moth')).toContain('"last-moth" is not a period: did you mean last-month?');
    expect(answer).toContain('Usage: /burnrate spend [team] [period]');
    expect(await ask(ALICE, 'top 500')).toContain('n must be between 1 and 50');
  });

  it('budget shows spend against budget with the forecast', async () => {
    const answer = await ask(CAROL, 'budget');
    expect(answer).toContain('LLM Training');
    expect(answer).toMatch(/\$150,000\.00 monthly/);
    // Which forecast method the backtest picks depends on the demo's month: the answer names it either way.
    expect(answer).toMatch(/forecast: (weekday averages|linear trend)/);
  });

  it('budget set is for approvers, is audited either way, and is used by the next check', async () => {
    expect(await ask(ALICE, 'budget set ml-research 70k')).toContain('Only approvers of ml-research');
    expect(await ask(BOB, 'budget set ml-research 1.2m weekly nonsense')).toContain('Usage: /burnrate budget set');
    expect(await ask(BOB, 'budget set ml-research 70k')).toContain('The monthly budget of ml-research is now $70,000.00');
    expect(await ask(BOB, 'budget ml-research')).toContain('$70,000.00 monthly');
    const audit = await deps.store.audit.list();
    expect(audit.filter((a) => a.action === 'budget set').map((a) => [a.userId, a.result])).toEqual([
      [BOB, 'ok'],
      [ALICE, 'refused'],
    ]);
  });

  it('top lists the largest resources', async () => {
    const interaction = command(CAROL, 'top 3');
    await dispatch(deps, interaction);
    expect(interaction.reply.text()).toContain('top 3 of llm-training');
    const table = interaction.reply.privates[0]!.blocks.find((b) => b.type === 'table');
    expect(table?.type === 'table' && table.rows.length).toBe(3);
  });

  it('whoami tells roles', async () => {
    expect(await ask(BOB, 'whoami')).toMatch(/ml-research\s+approver/);
    expect(await ask(ADMIN, 'whoami')).toContain('You are an admin');
  });

  it('snooze checks the finding, the duration and the role', async () => {
    expect(await ask(CAROL, 'snooze nope 7d')).toContain('There is no finding "nope"');
    expect(await ask(CAROL, `snooze ${FORECAST} forever`)).toContain('"forever" is not a snooze duration');
    expect(await ask(ALICE, `snooze ${FORECAST} 7d`)).toContain('Only owners and approvers of llm-training');
    expect(await ask(CAROL, `snooze ${FORECAST} 7d`)).toContain('snoozed until 2026-11-27 09:00 UTC');
  });
});

describe('buttons through the dispatcher', () => {
  const value = JSON.stringify({ f: FORECAST });

  it('acknowledge: refuses strangers, updates the message once, and a second click says who was first', async () => {
    const refused = click(ALICE, 'budget.ack', value);
    await dispatch(deps, refused);
    expect(refused.reply.text()).toContain('Only owners and approvers of llm-training');
    expect(refused.reply.updates).toEqual([]);

    const first = click(CAROL, 'budget.ack', value);
    await dispatch(deps, first);
    expect(renderPlainText(first.reply.updates[0]!)).toContain(`Acknowledged 2026-11-20 09:00 UTC by ${CAROL}`);

    const second = click('U0DEMODAN', 'budget.ack', value);
    await dispatch(deps, second);
    expect(second.reply.text()).toContain(`Already acknowledged by ${CAROL}`);
    expect(second.reply.updates).toEqual([]);
  });

  it('snooze buttons (action ids with a suffix) snooze and show it on the message', async () => {
    const interaction = click(CAROL, 'budget.snooze:period', JSON.stringify({ f: FORECAST, for: 'period' }));
    await dispatch(deps, interaction);
    expect(renderPlainText(interaction.reply.updates[0]!)).toContain('until 2026-12-01 00:00 UTC');
  });

  it('show breakdown replies in the thread with services and resources', async () => {
    const interaction = click(CAROL, 'budget.breakdown', value);
    await dispatch(deps, interaction);
    expect(interaction.reply.threads.map((m) => m.summary)).toEqual([
      expect.stringContaining('llm-training by service'),
      expect.stringContaining('top 10 resources'),
    ]);
  });

  it('forged, stale and unknown buttons get a clear private answer and change nothing', async () => {
    for (const [action, payload, message] of [
      ['budget.ack', 'not json', 'cannot read'],
      ['budget.ack', JSON.stringify({ f: FORECAST, extra: 1 }), 'cannot read'],
      ['budget.ack', JSON.stringify({ f: 'budget.actual:x:2020-01:50' }), 'no longer known'],
      ['instance.explode', '{}', 'not one burnrate knows'],
    ] as const) {
      const interaction = click(CAROL, action, payload);
      await dispatch(deps, interaction);
      expect(interaction.reply.text()).toContain(message);
      expect(interaction.reply.updates).toEqual([]);
    }
  });
});
