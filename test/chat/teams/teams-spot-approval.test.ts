import { EC2Client } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ec2SpotPort } from '../../../src/providers/aws/ec2/ec2-spot-port.js';
import type { Config } from '../../../src/config/schema.js';
import { recommendationsFor } from '../../../src/snapshots/recommendations-for.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { FakeBotConnector, type ConnectorCall } from '../../fakes/fake-bot-connector.js';
import { FakeEc2 } from '../../fakes/fake-ec2.js';
import { isolateAwsEnv, TEST_AWS_CREDENTIALS } from '../../support/aws-test-env.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { cardActionActivity, CONVERSATIONS, installActivity, type Person } from '../../support/teams-activity.js';
import { buttonOf, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ADMIN, ALICE, STRANGER, teamsDemoConfig } from './teams-test-config.js';
import { everyInstanceTo } from '../../support/spot-ports.js';

// ml-research (owner ALICE, approver BOB; ADMIN holds every role) alerts in CONVERSATIONS.channel.
const BOB: Person = { aadObjectId: 'U0DEMOBOB', name: 'Bob Approver' };
/** The launch template research-train-fra is tagged with (burnrate:launch-template). */
const LT = 'lt-0a3f9c1e7d2b4a6c8';
const T = '2026-11-18T06:00:00Z';

type InvokeAnswer = { statusCode: number; type: string; value: any };

describe('Approve spot migration in Teams, against EC2 launch templates through the real SDK', () => {
  const bed = useTeamsTestbed();
  let ec2: FakeEc2;

  beforeEach(async () => {
    isolateAwsEnv();
    ec2 = await FakeEc2.start({
      launchTemplates: [
        { id: LT, name: 'research-train-fra', versions: [{ instanceType: 'p4d.24xlarge', spot: false }], defaultVersion: 1 },
      ],
    });
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    ec2.assertNoUnexpectedCalls();
    await ec2.close();
  });

  /**
   * The demo on Teams. A recommendation is a card in a reply chain (under `root`, as in a review
   * thread), so a click arrives with the chain's root in its conversation id and the card as replyToId.
   */
  async function setup(change: (config: Config) => void) {
    const { deps } = testDeps(teamsDemoConfig(change), T);
    const gpu = buildGpuDeps(deps.config)!;
    const client = new EC2Client({ region: 'eu-central-1', endpoint: ec2.endpoint, credentials: TEST_AWS_CREDENTIALS, maxAttempts: 1 });
    deps.gpu = { ...gpu, spot: everyInstanceTo(new Ec2SpotPort({ region: 'eu-central-1', client })) };
    const h = await bed.start(deps);
    await h.send(installActivity(bed.fake.serviceUrl, ALICE));
    const byName = new Map((await gpu.inventory()).instances.map((i) => [i.name, i.instanceId]));
    const chat = deps.chat[0]!;
    const { ref: root } = await chat.post(CONVERSATIONS.channel, {
      summary: 'ML Research: cost review of October 2026',
      blocks: [{ type: 'header', text: 'ML Research: cost review of October 2026' }],
    });
    const [found] = (await recommendationsFor(deps, [{ resourceId: byName.get('research-train-fra')! }]))[0]!.filter(
      (r) => r.recommendation.kind === 'spot',
    );
    const { ref: card } = await chat.reply(CONVERSATIONS.channel, root!, found!.message);
    const posted = bed.fake.calls.find((c) => c.id === card)!;
    const chain = `${CONVERSATIONS.channel};messageid=${root}`;
    const click = async (who: Person, on: ConnectorCall, verb: string, value: string): Promise<InvokeAnswer> => {
      const res = await h.send(cardActionActivity(bed.fake.serviceUrl, who, on.id, verb, value, root!));
      expect(res.status).toBe(200);
      return res.body as InvokeAnswer;
    };
    const approve = (who: Person, name: string) => click(who, posted, 'spot.approve', JSON.stringify({ i: byName.get(name)! }));
    return { deps, posted, chain, recommendation: found!.recommendation, click, approve };
  }

  it('refuses privately whoever may not and what is not ready, takes two different approvers, posts the result in the chain, and reverts', async () => {
    const { deps, posted, chain, recommendation, click, approve } = await setup((c) => (c.actions.enabled = true));
    expect(posted.conversationId).toBe(chain);
    expect(recommendation.monthlySaving).toBeGreaterThan(deps.config.spot.secondApproverAbove);
    const button = buttonOf(FakeBotConnector.cardOf(posted), 'spot.approve');
    expect(button).toMatchObject({ confirms: 'Approve spot migration', title: 'Approve' });
    const inChain = () => bed.fake.calls.filter((c) => c.op === 'send' && c.conversationId === chain && c.id !== posted.id);
    const privately = (answer: InvokeAnswer) => {
      expect(answer.type).toBe('application/vnd.microsoft.activity.message');
      return String(answer.value);
    };

    // The four refusals, each said only to the clicker; nothing reaches EC2 or the channel.
    expect(privately(await approve(ALICE, 'research-train-fra'))).toContain(
      'Only approvers of ML Research can approve moving research-train-fra to spot',
    );
    expect(privately(await approve(ADMIN, 'cv-batch-labeler'))).toContain('cv-batch-labeler does not declare checkpointing');
    expect(privately(await approve(ADMIN, 'serve-llm-primary'))).toContain('serve-llm-primary is an inference endpoint');
    expect(privately(await approve(ADMIN, 'llm-eval-a100'))).toContain(
      'checkpoints every 1h, longer than the 30 min burnrate allows on spot',
    );
    expect(ec2.calls).toHaveLength(0);
    expect(inChain()).toHaveLength(0);

    // First approval: said in the chain; the clicker is told where.
    expect(privately(await approve(BOB, 'research-train-fra'))).toBe('Posted in the thread of this alert.');
    const pending = inChain().at(-1)!;
    expect(pending.activity.summary).toBe('Spot migration of research-train-fra: 1 of 2 approvals');
    expect(cardText(FakeBotConnector.cardOf(pending))).toContain(
      '(1 of 2); saving $5,296.69 a month. Nobody else of the team may approve it: an admin can.',
    );

    // The same approver twice is refused.
    expect(privately(await approve(BOB, 'research-train-fra'))).toContain('You already approved moving research-train-fra to spot');
    expect(ec2.calls.filter((c) => c.action !== 'DescribeLaunchTemplateVersions')).toHaveLength(0);

    // A second, different approver: a spot version of the launch template becomes its default.
    await approve(ADMIN, 'research-train-fra');
    expect(ec2.launchTemplates.get(LT)).toMatchObject({ defaultVersion: 2, versions: [{ spot: false }, { spot: true }] });
    expect(ec2.callsOf('CreateLaunchTemplateVersion')[0]!.params.VersionDescription).toContain(
      `approved by ${BOB.aadObjectId}, ${ADMIN.aadObjectId}`,
    );
    const result = inChain().at(-1)!;
    expect(result.activity.summary).toMatch(/^research-train-fra moves to spot: saves \$[\d,.]+ a month$/);
    const resultCard = FakeBotConnector.cardOf(result);
    expect(adaptiveCardProblems(resultCard)).toEqual([]);
    const revert = buttonOf(resultCard, 'spot.revert');
    expect(revert).toMatchObject({ confirms: 'Revert to on-demand', title: 'Revert' });
    expect(privately(await approve(ADMIN, 'research-train-fra'))).toContain('already moved to spot');

    // Revert, from the result card in the chain: not for strangers; the owner may, once.
    expect(privately(await click(STRANGER, result, revert.verb, revert.value))).toContain(
      'Only owners and approvers of ML Research can revert research-train-fra',
    );
    expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(2);
    await click(ALICE, result, revert.verb, revert.value);
    expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(1);
    expect(inChain().at(-1)!.activity.summary).toBe('research-train-fra is back on on-demand capacity');
    expect(privately(await click(ALICE, result, revert.verb, revert.value))).toContain(
      `Already reverted to on-demand by ${ALICE.aadObjectId}`,
    );
    expect(ec2.callsOf('ModifyLaunchTemplate')).toHaveLength(2);

    const audit = (await deps.store.audit.list(50))
      .filter((a) => a.action.startsWith('spot.'))
      .map((a) => `${a.platform} ${a.action} ${a.userId} ${a.result}`)
      .reverse();
    const [alice, bob, admin, stranger] = [ALICE, BOB, ADMIN, STRANGER].map((p) => p.aadObjectId);
    expect(audit).toEqual([
      `msteams spot.approve ${alice} refused`,
      `msteams spot.approve ${admin} refused`,
      `msteams spot.approve ${admin} refused`,
      `msteams spot.approve ${admin} refused`,
      `msteams spot.approve ${bob} ok`,
      `msteams spot.approve ${bob} refused`,
      `msteams spot.approve ${admin} ok`,
      `msteams spot.approve ${admin} duplicate`,
      `msteams spot.revert ${stranger} refused`,
      `msteams spot.revert ${alice} ok`,
      `msteams spot.revert ${alice} duplicate`,
    ]);
  });

  it('is a dry run while actions are off: nothing changes in EC2, the clicker alone is told', async () => {
    const { deps, approve } = await setup((c) => (c.spot.secondApproverAbove = 100_000));
    const dry = await approve(BOB, 'research-train-fra');
    expect(dry).toMatchObject({
      type: 'application/vnd.microsoft.activity.message',
      value: expect.stringContaining('Dry run: burnrate would have moved research-train-fra to spot'),
    });
    expect(ec2.callsOf('CreateLaunchTemplateVersion', { dryRun: false })).toHaveLength(0);
    expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(1);
    expect((await deps.store.audit.list(5))[0]).toMatchObject({ platform: 'msteams', action: 'spot.approve', result: 'dry-run' });
  });
});
