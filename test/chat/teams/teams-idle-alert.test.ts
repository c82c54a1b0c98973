import { describe, expect, it } from 'vitest';
import type { DemoInstancePort } from '../../../src/providers/demo/demo-instance-port.js';
import type { Config } from '../../../src/config/schema.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { cardActionActivity, CONVERSATIONS, installActivity, type Person } from '../../support/teams-activity.js';
import { buttonOf, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, CAROL, teamsDemoConfig } from './teams-test-config.js';

/** Wednesday 18 Nov 2026 06:00Z: ml-research has two idle notebooks (alice-notebook, research-shared-notebook). */
const T = '2026-11-18T06:00:00Z';

describe('an idle-GPU alert in Teams: Stop (confirmed, dry run, refused, protected) and Keep', () => {
  const bed = useTeamsTestbed();

  async function alerted(options: { change?: (config: Config) => void; protect?: string } = {}) {
    const t = testDeps(teamsDemoConfig(options.change), T);
    const gpu = buildGpuDeps(t.deps.config)!;
    if (options.protect) {
      const inventory = gpu.inventory;
      gpu.inventory = async () => {
        const read = await inventory();
        return {
          ...read,
          instances: read.instances.map((i) =>
            i.name === options.protect ? { ...i, protected: true, tags: { ...i.tags, 'burnrate:protect': 'true' } } : i,
          ),
        };
      };
    }
    t.deps.gpu = gpu;
    const h = await bed.start(t.deps);
    await h.send(installActivity(bed.fake.serviceUrl, ALICE));
    await runGpuCheck(t.deps);
    await deliverOutbox(t.deps);
    const post = bed.fake.calls.find((c) => cardText(FakeBotConnector.cardOf(c)).includes('alice-notebook'));
    if (!post) throw new Error('no idle alert naming alice-notebook was posted');
    const card = FakeBotConnector.cardOf(post);
    const findingOf = async (name: string) => (await t.deps.store.gpuFindings.listOpen()).find((f) => f.name === name)!.id;
    const click = async (who: Person, verb: string, instance: string) => {
      const button = buttonOf(card, verb, await findingOf(instance));
      const res = await h.send(cardActionActivity(bed.fake.serviceUrl, who, post.id, button.verb, button.value));
      expect(res.status).toBe(200);
      return res.body as { statusCode: number; type: string; value: any };
    };
    return { ...t, port: gpu.instances as DemoInstancePort, post, card, click, findingOf };
  }

  it('posts a valid card whose Stop now asks for confirmation inside the card before it acts', async () => {
    const { post, card, findingOf } = await alerted();
    expect(post).toMatchObject({ op: 'send', conversationId: CONVERSATIONS.channel });
    expect(adaptiveCardProblems(card)).toEqual([]);
    const stop = buttonOf(card, 'instance.stop', await findingOf('alice-notebook'));
    // The Execute sits in a ShowCard: the first click opens the question, only its button stops.
    expect(stop.confirms).toBe('Stop now');
    expect(stop.title).toMatch(/^Stop/);
    expect(buttonOf(card, 'instance.keep:4h', await findingOf('alice-notebook')).confirms).toBeNull();
  });

  it('Stop is refused for someone outside the team and is a dry run while actions are off', async () => {
    const { deps, click, port } = await alerted();
    const refused = await click(CAROL, 'instance.stop', 'alice-notebook');
    expect(refused).toMatchObject({
      type: 'application/vnd.microsoft.activity.message',
      value: expect.stringContaining('Only owners and approvers of ml-research can stop alice-notebook.'),
    });
    const dry = await click(ALICE, 'instance.stop', 'alice-notebook');
    expect(dry.value).toMatch(
      /^Dry run: burnrate would have stopped alice-notebook \(.+\), saving \$[\d,.]+ per day\. Nothing was stopped\./,
    );
    expect(port.stopped).toEqual([]);
    expect((await deps.store.audit.list()).map((a) => [a.platform, a.userId, a.result]).reverse()).toEqual([
      ['msteams', CAROL.aadObjectId, 'refused'],
      ['msteams', ALICE.aadObjectId, 'dry-run'],
    ]);
  });

  it('never stops a protected instance, and says why', async () => {
    const { click, port } = await alerted({ change: (c) => (c.actions.enabled = true), protect: 'alice-notebook' });
    const refused = await click(ALICE, 'instance.stop', 'alice-notebook');
    expect(refused.value).toContain('Not stopped: alice-notebook is protected (burnrate:protect=true), so burnrate never stops it.');
    expect(port.stopped).toEqual([]);
  });

  it('stops once when enabled: the refreshed card says who stopped it; a second click says who was first', async () => {
    const { click, port } = await alerted({ change: (c) => (c.actions.enabled = true) });
    const stopped = await click(ALICE, 'instance.stop', 'alice-notebook');
    expect(stopped.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(adaptiveCardProblems(stopped.value)).toEqual([]);
    // The channel is shared by teams on different clocks (Berlin, Los Angeles): UTC, labelled.
    expect(cardText(stopped.value)).toContain(`Stopped by ${ALICE.aadObjectId} at 2026-11-18 06:00 UTC`);
    expect(port.stopped).toHaveLength(1);
    const again = await click(ALICE, 'instance.stop', 'alice-notebook');
    expect(again.value).toMatch(new RegExp(`^Already stopped by ${ALICE.aadObjectId} at`));
    expect(port.stopped).toHaveLength(1);
  });

  it('Keep 4 h: the refreshed card says who kept it running and until when', async () => {
    const { deps, click, port } = await alerted();
    const kept = await click(ALICE, 'instance.keep:4h', 'research-shared-notebook');
    expect(kept.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(cardText(kept.value)).toContain(`Kept running by ${ALICE.aadObjectId} until 2026-11-18 10:00 UTC`);
    expect(port.stopped).toEqual([]);
    expect((await deps.store.audit.list())[0]).toMatchObject({ platform: 'msteams', action: 'instance.keep', result: 'ok' });
  });

  it("reads times on the clock of the channel's teams, labelled, since a card cannot show each reader's own", async () => {
    const berlin = (config: Config) => config.teams.forEach((t) => (t.timezone = 'Europe/Berlin'));
    const { click } = await alerted({ change: berlin });
    const kept = await click(ALICE, 'instance.keep:4h', 'research-shared-notebook');
    // 10:00 UTC on 18 November is 11:00 in Berlin (CET, UTC+1).
    expect(cardText(kept.value)).toContain(`Kept running by ${ALICE.aadObjectId} until 2026-11-18 11:00 CET`);
    const again = await click(ALICE, 'instance.keep:4h', 'research-shared-notebook');
    expect(again.value).toContain('at 2026-11-18 07:00 CET until 2026-11-18 11:00 CET');
  });

  it('"Not ours": the team picker goes into the thread, the pick refreshes it, marks the alert and alerts the other team', async () => {
    const LLM_CHANNEL = '19:llm-training-only@thread.tacv2';
    const { deps, post, click } = await alerted({
      change: (c) => (c.teams.find((t) => t.id === 'llm-training')!.msteams = { channel: LLM_CHANNEL }),
    });
    await bed.harness!.send(installActivity(bed.fake.serviceUrl, CAROL, LLM_CHANNEL));
    const before = bed.fake.calls.length;

    // 1. The click: the clicker is told where to pick; the picker is a card in the alert's thread.
    const asked = await click(ALICE, 'instance.reroute', 'alice-notebook');
    expect(asked).toMatchObject({
      type: 'application/vnd.microsoft.activity.message',
      value: 'Which team owns alice-notebook? The choices are in the thread under this card.',
    });
    const picker = bed.fake.calls[before]!;
    expect(picker).toMatchObject({ op: 'send', conversationId: `${CONVERSATIONS.channel};messageid=${post.id}` });
    const llm = buttonOf(FakeBotConnector.cardOf(picker), 'instance.reroute:llm-training');
    expect(llm.title).toBe('LLM Training');

    // 2. The pick, on the picker: its card becomes the answer, the original alert says who handed it where.
    const picked = await bed.harness!.send(cardActionActivity(bed.fake.serviceUrl, ALICE, picker.id, llm.verb, llm.value));
    expect(picked.body.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(cardText(picked.body.value)).toContain('Handed alice-notebook to LLM Training.');
    const update = bed.fake.calls.find((c) => c.op === 'update')!;
    expect(update).toMatchObject({ conversationId: CONVERSATIONS.channel, activityId: post.id });
    expect(cardText(FakeBotConnector.cardOf(update))).toContain(`Handed to LLM Training by ${ALICE.aadObjectId}`);

    // 3. The receiving team's alert goes out through the outbox, to its own channel.
    await deliverOutbox(deps);
    const handed = bed.fake.calls.filter((c) => c.conversationId === LLM_CHANNEL && c.op === 'send').at(-1)!;
    expect(cardText(FakeBotConnector.cardOf(handed))).toContain('alice-notebook');
    expect((await deps.store.audit.list())[0]).toMatchObject({ platform: 'msteams', action: 'instance.reroute', result: 'ok' });
  });
});
