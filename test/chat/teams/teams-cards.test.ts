import { describe, expect, it } from 'vitest';
import { daysOf } from '../../../src/domain/period.js';
import { runBudgetCheck } from '../../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { spendRow, testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { cardActionActivity, installActivity, messageActivity } from '../../support/teams-activity.js';
import { buttonOf, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ADMIN, ALICE, CAROL, teamsDemoConfig } from './teams-test-config.js';

/** Teams refuses a message over about 28 KB. */
const TEAMS_MAX_BYTES = 28 * 1024;

/**
 * Snapshots of what Teams receives, taken at the connector: proactive alerts, command answers and
 * the cards invoke responses carry. Each card is also parsed and validated by the adaptivecards
 * library as a 1.5 card (the fake connector refuses invalid ones too).
 */
describe('Teams cards as sent', () => {
  const bed = useTeamsTestbed();

  function expectValid(name: string, card: Record<string, any>) {
    expect(adaptiveCardProblems(card), name).toEqual([]);
    expect(JSON.stringify(card).length, name).toBeLessThan(TEAMS_MAX_BYTES);
  }

  it('budget alert, its acknowledged refresh, a spend answer and help', async () => {
    const t = testDeps(
      teamsDemoConfig((c) => c.teams.forEach((team) => team.budget && (team.budget.forecast = false))),
      '2026-11-21T09:00:00Z',
    );
    const h = await bed.start(t.deps);
    await h.send(installActivity(bed.fake.serviceUrl, ADMIN));
    await t.deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: daysOf({ start: '2026-11-01', end: '2026-11-21' }).map((d) => spendRow('llm-training', d, 4000)),
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
    await runBudgetCheck(t.deps, { teams: ['llm-training'] });
    await deliverOutbox(t.deps);
    const alert = bed.fake.calls[0]!;
    const ack = buttonOf(FakeBotConnector.cardOf(alert), 'budget.ack');
    const refreshed = (await h.send(cardActionActivity(bed.fake.serviceUrl, CAROL, alert.id, ack.verb, ack.value))).body;
    await h.send(messageActivity(bed.fake.serviceUrl, 'personal', ADMIN, 'spend by team'));
    await h.send(messageActivity(bed.fake.serviceUrl, 'groupChat', ADMIN, 'help'));
    const [, chart, spend, help] = bed.fake.calls;

    const cards = {
      'budget alert': FakeBotConnector.cardOf(alert),
      // The picture's bytes are the chart tests' business: here, that the card carries one.
      'budget alert chart (in its reply chain)': JSON.parse(
        JSON.stringify(FakeBotConnector.cardOf(chart!)).replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/, 'data:image/png;base64,…'),
      ),
      'budget alert acknowledged (invoke response)': refreshed.value,
      'spend by team': FakeBotConnector.cardOf(spend!),
      help: FakeBotConnector.cardOf(help!),
    };
    for (const [name, card] of Object.entries(cards)) expectValid(name, card);
    expect(cardText(refreshed.value)).toMatch(/Acknowledged \d{4}-\d\d-\d\d \d\d:\d\d UTC by U0DEMOCAROL/);
    expect({ summary: alert.activity.summary, cards }).toMatchSnapshot();
  });

  it('idle alert with its confirm step, a refusal and the stopped refresh', async () => {
    const t = testDeps(
      teamsDemoConfig((c) => (c.actions.enabled = true)),
      '2026-11-18T06:00:00Z',
    );
    t.deps.gpu = buildGpuDeps(t.deps.config)!;
    const h = await bed.start(t.deps);
    await h.send(installActivity(bed.fake.serviceUrl, ALICE));
    await runGpuCheck(t.deps);
    await deliverOutbox(t.deps);
    const alert = bed.fake.calls.find((c) => cardText(FakeBotConnector.cardOf(c)).includes('alice-notebook'))!;
    const finding = (await t.deps.store.gpuFindings.listOpen()).find((f) => f.name === 'alice-notebook')!;
    const stop = buttonOf(FakeBotConnector.cardOf(alert), 'instance.stop', finding.id);
    const refused = (await h.send(cardActionActivity(bed.fake.serviceUrl, CAROL, alert.id, stop.verb, stop.value))).body;
    const stopped = (await h.send(cardActionActivity(bed.fake.serviceUrl, ALICE, alert.id, stop.verb, stop.value))).body;

    const cards = { 'idle alert': FakeBotConnector.cardOf(alert), 'idle alert after Stop (invoke response)': stopped.value };
    for (const [name, card] of Object.entries(cards)) expectValid(name, card);
    expect(refused).toMatchSnapshot('refusal, only to the clicker');
    expect({ summary: alert.activity.summary, cards }).toMatchSnapshot();
  });
});
