/**
 * An idle-GPU alert reaching its instance's owner in Teams as a 1:1 chat: the owner's email found
 * in the team's roster, the chat opened through the real ConnectorClient on the fake connector
 * (POST /v3/conversations) and the card posted into it, once, however often delivery is tried.
 */
import { describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/schema.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { jobTable, runJob } from '../../../src/jobs/job-table.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { FakeBotConnector } from '../../fakes/fake-bot-connector.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { BOT, CONVERSATIONS, installActivity, TENANT } from '../../support/teams-activity.js';
import { cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, teamsDemoConfig } from './teams-test-config.js';

/** Wednesday 18 Nov 2026 06:00Z: ml-research has two idle notebooks (alice-notebook, research-shared-notebook). */
const T = '2026-11-18T06:00:00Z';
/** alice-notebook's owner for these tests: a person other than the demo's, so hers is the only direct message. */
const OLGA = { aadObjectId: '0c1a9e5d-0000-4000-8000-00000000015a', name: 'Olga Owner' };
const OLGA_EMAIL = 'Olga.Owner@example.com';
const OLGA_TEAMS_ID = '29:1olga-owner';

describe('an idle-GPU alert reaches its owner in Teams by a 1:1 chat', () => {
  const bed = useTeamsTestbed();

  /** alice-notebook's `burnrate:owner` tag holds Olga's email; the roster lists her with it (in other case). */
  async function start(change: (config: Config) => void = () => {}) {
    const t = testDeps(teamsDemoConfig(change), T);
    const gpu = buildGpuDeps(t.deps.config)!;
    const inventory = gpu.inventory;
    gpu.inventory = async () => {
      const read = await inventory();
      return {
        ...read,
        instances: read.instances.map((i) =>
          i.name === 'alice-notebook' ? { ...i, owner: OLGA_EMAIL, tags: { ...i.tags, 'burnrate:owner': OLGA_EMAIL } } : i,
        ),
      };
    };
    t.deps.gpu = gpu;
    bed.fake.roster.push(
      { id: '29:1someone-else', name: 'Sam Else', aadObjectId: 'f0000000-0000-4000-8000-0000000000e1', email: 'sam@example.com' },
      { id: OLGA_TEAMS_ID, name: OLGA.name, aadObjectId: OLGA.aadObjectId, email: 'olga.owner@example.com' },
    );
    const h = await bed.start(t.deps);
    expect((await h.send(installActivity(bed.fake.serviceUrl, ALICE))).status).toBe(200);
    await runJob(jobTable(t.deps).find((job) => job.id === 'people directory')!, []);
    return { ...t, h };
  }

  it('opens one chat with the owner (her email in the roster) on the team’s service URL and tenant, and posts her alert there, once', async () => {
    const { deps } = await start();
    await runGpuCheck(deps);
    expect(await deliverOutbox(deps)).toMatchObject({ failed: 0 });
    // A second check and delivery (a retried run) sends nothing again.
    await runGpuCheck(deps);
    await deliverOutbox(deps);

    const creates = bed.fake.calls.filter((c) => c.op === 'create');
    expect(creates).toHaveLength(1);
    expect(creates[0]!.activity).toMatchObject({
      isGroup: false,
      members: [{ id: OLGA_TEAMS_ID }],
      tenantId: TENANT,
      bot: { id: BOT.id },
      channelData: { tenant: { id: TENANT } },
    });
    const chat = creates[0]!.conversationId;
    const dms = bed.fake.calls.filter((c) => c.op === 'send' && c.conversationId === chat);
    expect(dms).toHaveLength(1);
    const card = FakeBotConnector.cardOf(dms[0]!);
    expect(adaptiveCardProblems(card)).toEqual([]);
    expect(cardText(card)).toContain('alice-notebook');
    expect(cardText(card)).not.toContain('research-shared-notebook'); // only the instance she owns
    // The channel still has the team's alert.
    expect(bed.fake.calls.filter((c) => c.op === 'send' && c.conversationId === CONVERSATIONS.channel)).not.toHaveLength(0);
  });

  it('does not open a second chat when the post into it failed and the outbox tries again', async () => {
    const { deps, setNow } = await start();
    const chat = FakeBotConnector.personalChatId(OLGA_TEAMS_ID);
    bed.fake.failNext({ status: 503 }, 1, { op: 'send', conversationId: chat });
    await runGpuCheck(deps);
    // The failed post is retried (with whatever waits behind it on the same platform).
    const first = await deliverOutbox(deps);
    expect(first.retried).toBeGreaterThanOrEqual(1);
    expect(first.failed).toBe(0);
    for (const later of ['2026-11-18T07:00:00Z', '2026-11-18T09:00:00Z']) {
      setNow(later); // past the retries' backoff
      expect((await deliverOutbox(deps)).failed).toBe(0);
    }
    expect(await deps.store.outbox.due(deps.clock())).toEqual([]);

    expect(bed.fake.calls.filter((c) => c.op === 'create')).toHaveLength(1);
    expect(bed.fake.calls.filter((c) => c.op === 'send' && c.conversationId === chat)).toHaveLength(1);
    // The chat is remembered under the person's address, so later messages reuse it too.
    expect(await deps.store.conversations.get('msteams', `person:${OLGA.aadObjectId}`)).toMatchObject({
      kind: 'personal',
      reference: { serviceUrl: bed.fake.serviceUrl, conversation: { id: chat, tenantId: TENANT } },
    });
  });

  it('reaches an owner named by Entra object id, and sends nothing to one no roster or id form names', async () => {
    const { deps } = await start();
    const teams = deps.chat[0]!;
    expect(teams.addressOfUser!(OLGA.aadObjectId)).toBe(`person:${OLGA.aadObjectId}`);
    expect(teams.addressOfUser!('f0000000-0000-4000-8000-00000000beef')).toBe('person:f0000000-0000-4000-8000-00000000beef');
    expect(teams.addressOfUser!('U0NOTTEAMS')).toBeNull(); // a Slack id: not a Teams person
    // Someone no roster lists: Teams is asked for a chat with their object id (it takes one where the app is installed for them).
    const stranger = 'f0000000-0000-4000-8000-00000000beef';
    await teams.post(teams.addressOfUser!(stranger)!, { summary: 'hello', blocks: [{ type: 'text', text: 'hello' }] });
    const create = bed.fake.calls.find((c) => c.op === 'create')!;
    expect(create.activity.members).toEqual([{ id: stranger }]);
    expect(bed.fake.calls.filter((c) => c.op === 'send').map((c) => c.conversationId)).toEqual([create.conversationId]);
  });
});
