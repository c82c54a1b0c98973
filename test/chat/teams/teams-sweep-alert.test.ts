import { describe, expect, it } from 'vitest';
import { DemoInstancePort } from '../../../src/providers/demo/demo-instance-port.js';
import type { Config } from '../../../src/config/schema.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runSweepCheck } from '../../../src/jobs/sweep-check.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { cardActionActivity, CONVERSATIONS, installActivity, type Person } from '../../support/teams-activity.js';
import { buttonOf, cardButtons, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, CAROL, teamsDemoConfig } from './teams-test-config.js';

/** The lr-warmup sweep (4× g5.12xlarge spot, llm-training) is over the demo's $80 cap on this day. */
const T = '2026-11-18T06:00:00Z';
const DAN: Person = { aadObjectId: 'U0DEMODAN', name: 'Dan Approver' };

type InvokeAnswer = { statusCode: number; type: string; value: any };

describe('a runaway-sweep alert in Teams: Stop sweep (confirmed, refused, dry run, protected instance kept, once)', () => {
  const bed = useTeamsTestbed();

  /** The demo with llm-sweep-0 tagged burnrate:protect=true; the sweep alert posted to llm-training's channel. */
  async function alerted(change: (config: Config) => void = () => {}) {
    const t = testDeps(teamsDemoConfig(change), T);
    const gpu = buildGpuDeps(t.deps.config)!;
    const inventory = (await gpu.inventory()).instances.map((i) =>
      i.name === 'llm-sweep-0' ? { ...i, protected: true, tags: { ...i.tags, 'burnrate:protect': 'true' } } : i,
    );
    const port = new DemoInstancePort(inventory.map((i) => ({ id: i.instanceId, state: 'running', tags: { ...i.tags } })));
    t.deps.gpu = { ...gpu, inventory: async () => ({ instances: inventory, unavailable: [] }), instances: port };
    const nameOf = new Map(inventory.map((i) => [i.instanceId, i.name]));
    const h = await bed.start(t.deps);
    await h.send(installActivity(bed.fake.serviceUrl, CAROL));
    await runSweepCheck(t.deps);
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const post = bed.fake.calls[0]!;
    const card = FakeBotConnector.cardOf(post);
    const stop = buttonOf(card, 'sweep.stop');
    const click = async (who: Person, button = stop): Promise<InvokeAnswer> => {
      const res = await h.send(cardActionActivity(bed.fake.serviceUrl, who, post.id, button.verb, button.value));
      expect(res.status).toBe(200);
      return res.body as InvokeAnswer;
    };
    return { ...t, port, nameOf, post, card, stop, click };
  }

  it('posts a valid card naming the sweep, whose Stop sweep asks for confirmation inside the card', async () => {
    const { post, card, stop } = await alerted();
    expect(post).toMatchObject({ op: 'send', conversationId: CONVERSATIONS.channel });
    expect(adaptiveCardProblems(card)).toEqual([]);
    expect(post.activity.summary).toMatch(/LLM Training: sweep lr-warmup ran away \(\$[\d,.]+ spent, over its \$80\.00 cap\)/);
    expect(cardText(card)).toContain('llm-sweep-0');
    expect(stop.confirms).toBe('Stop sweep');
  });

  it('refuses other teams, is a dry run while actions are off, then stops the unprotected instances once; the card refreshes', async () => {
    const { deps, port, nameOf, click } = await alerted();
    const refused = await click(ALICE);
    expect(refused).toMatchObject({
      type: 'application/vnd.microsoft.activity.message',
      value: expect.stringContaining('Only owners and approvers of LLM Training can stop sweep lr-warmup.'),
    });
    const dry = await click(CAROL);
    expect(dry.value).toMatch(
      /^Dry run: burnrate would have stopped 3 instance\(s\) of sweep lr-warmup .*Left running: llm-sweep-0 \(protected or not running\)\. Nothing was stopped\./,
    );
    expect(port.stopped).toEqual([]);

    deps.config.actions.enabled = true;
    const done = await click(CAROL);
    expect(done.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(adaptiveCardProblems(done.value)).toEqual([]);
    expect(cardText(done.value)).toContain(`Sweep stopped 2026-11-18 06:00 UTC by <at>${CAROL.aadObjectId}</at>`);
    expect(cardText(done.value)).toContain('3 stopped, left running: llm-sweep-0 (protected or not running).');
    expect(cardText(done.value)).toMatch(/llm-sweep-1\ng5\.12xlarge\nstopped/);
    expect(cardButtons(done.value).filter((b) => b.verb === 'sweep.stop')).toEqual([]);
    expect(port.stopped.map((id) => nameOf.get(id)).sort()).toEqual(['llm-sweep-1', 'llm-sweep-2', 'llm-sweep-3']);

    const again = await click(DAN);
    expect(again.value).toContain(`Sweep lr-warmup was already stopped by ${CAROL.aadObjectId}`);
    expect(port.stopped).toHaveLength(3);
    const audit = (await deps.store.audit.list(50)).filter((a) => a.action === 'sweep.stop');
    expect(audit.every((a) => a.platform === 'msteams')).toBe(true);
    expect(audit.map((a) => `${a.userId} ${a.result}`)).toContain(`${ALICE.aadObjectId} refused`);
    expect(audit.filter((a) => a.result === 'ok')).toHaveLength(3);
    expect(audit[0]).toMatchObject({ userId: DAN.aadObjectId, result: 'duplicate' });
  });

  it('Details answers the clicker alone with the window and how the figures are counted; an outsider is refused', async () => {
    const { deps, card, click } = await alerted();
    const details = buttonOf(card, 'finding.details');
    expect((await click(ALICE, details)).value).toContain('Only members of llm-training can see its details.');
    const answer = JSON.stringify((await click(CAROL, details)).value);
    for (const said of ['sweep lr-warmup', 'Window', 'GPU-hours', 'not from the bill', 'Stop sweep leaves protected instances running'])
      expect(answer).toContain(said);
    expect(bed.fake.calls).toHaveLength(1); // only the alert was posted
    expect((await deps.store.audit.list()).filter((a) => a.action === 'finding.details')).toEqual([]);
  });
});
