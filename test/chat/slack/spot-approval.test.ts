import { EC2Client } from '@aws-sdk/client-ec2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Ec2SpotPort } from '../../../src/providers/aws/ec2/ec2-spot-port.js';
import type { Config } from '../../../src/config/schema.js';
import type { Deps } from '../../../src/deps.js';
import { recommendationsFor } from '../../../src/snapshots/recommendations-for.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { FakeEc2 } from '../../fakes/fake-ec2.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { isolateAwsEnv, TEST_AWS_CREDENTIALS } from '../../support/aws-test-env.js';
import { testDeps } from '../../support/deps.js';
import { everyInstanceTo } from '../../support/spot-ports.js';
import { blockActionsBody, postSigned } from '../../support/slack-request.js';
import { startSlackServer } from './slack-harness.js';
import { ADMIN, ALICE, BOB, RESEARCH_CHANNEL as CHANNEL, STRANGER } from '../../support/demo-org.js';

// Demo users: ALICE owns ml-research, BOB approves it, ADMIN holds every role; STRANGER is nobody.
/** The launch template research-train-fra is tagged with (burnrate:launch-template). */
const LT = 'lt-0a3f9c1e7d2b4a6c8';
const T = '2026-11-18T06:00:00Z';

type SlackBlock = { type?: string; text?: { text: string }; elements?: { action_id?: string; value?: string }[] };

let slack: FakeSlackApi;
let ec2: FakeEc2;

beforeEach(async () => {
  isolateAwsEnv();
  slack = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
  ec2 = await FakeEc2.start({
    launchTemplates: [{ id: LT, name: 'research-train-fra', versions: [{ instanceType: 'p4d.24xlarge', spot: false }], defaultVersion: 1 }],
  });
});

afterEach(async () => {
  vi.unstubAllEnvs();
  slack.assertNoUnexpectedCalls();
  ec2.assertNoUnexpectedCalls();
  await slack.close();
  await ec2.close();
});

/** The demo organisation on real Bolt, with spot migrations going to the fake EC2 through the real SDK. */
async function setup(change: (config: Config) => void) {
  const config = demoConfig();
  change(config);
  const { deps } = testDeps(config, T);
  const gpu = buildGpuDeps(deps.config)!;
  const client = new EC2Client({ region: 'eu-central-1', endpoint: ec2.endpoint, credentials: TEST_AWS_CREDENTIALS, maxAttempts: 1 });
  // Every instance's launch template in EC2 eu-central-1, where research-train-fra runs.
  deps.gpu = { ...gpu, spot: everyInstanceTo(new Ec2SpotPort({ region: 'eu-central-1', client })) };
  const h = await startSlackServer(deps, slack);
  const byName = new Map((await gpu.inventory()).instances.map((i) => [i.name, i.instanceId]));
  return { deps, h, id: (name: string) => byName.get(name)! };
}

/** Posts the spot recommendation of an instance to the team's channel, as the review thread does; its ts and Approve value. */
async function postRecommendation(deps: Deps, instanceId: string) {
  const [found] = (await recommendationsFor(deps, [{ resourceId: instanceId }]))[0]!.filter((r) => r.recommendation.kind === 'spot');
  if (!found) throw new Error(`no spot recommendation for ${instanceId}`);
  const { ref } = await deps.chat[0]!.post(CHANNEL, found.message);
  const approve = buttonsOf(slack.callsOf('chat.postMessage').at(-1)!.args.blocks).find((b) => b.action_id === 'spot.approve')!;
  return { ts: ref!, value: approve.value!, recommendation: found.recommendation };
}

function buttonsOf(blocks: SlackBlock[]) {
  return blocks.flatMap((b) => b.elements ?? []);
}

describe('Approve spot migration, in Slack, against EC2 launch templates', () => {
  it('refuses whoever may not or what is not ready, takes two different approvers, moves to spot, posts in the thread, and reverts', async () => {
    const { deps, h, id } = await setup((c) => (c.actions.enabled = true));
    try {
      const fra = id('research-train-fra');
      const posted = await postRecommendation(deps, fra);
      expect(posted.recommendation.monthlySaving).toBeGreaterThan(deps.config.spot.secondApproverAbove);
      const privates: string[] = [];
      const click = async (user: string, action: string, value: string) => {
        const responseId = `r${privates.length}-${slack.responses.length}-${Math.random()}`;
        const res = await postSigned(
          h.url,
          blockActionsBody({
            actionId: action,
            value,
            channel: CHANNEL,
            messageTs: posted.ts,
            user_id: user,
            response_url: slack.responseUrl(responseId),
          }),
        );
        expect(res.status).toBe(200);
        await h.settled();
        const answer = slack.responses.find((r) => r.id === responseId);
        return answer ? String(answer.body.text) : null;
      };
      const approve = (user: string, instanceId: string) => click(user, 'spot.approve', JSON.stringify({ i: instanceId }));
      const writes = () => ec2.calls.filter((c) => c.action !== 'DescribeLaunchTemplateVersions');

      // Refusals, each private and clear; nothing reaches EC2.
      expect(await approve(ALICE, fra)).toContain('Only approvers of ML Research can approve moving research-train-fra to spot');
      expect(await approve(ADMIN, id('cv-batch-labeler'))).toContain('cv-batch-labeler does not declare checkpointing');
      expect(await approve(ADMIN, id('serve-llm-primary'))).toContain('serve-llm-primary is an inference endpoint');
      expect(await approve(ADMIN, id('llm-eval-a100'))).toContain('checkpoints every 1h, longer than the 30 min burnrate allows on spot');
      expect(ec2.calls).toHaveLength(0);

      // First approval: recorded, said in the thread, nothing changed yet.
      expect(await approve(BOB, fra)).toBeNull();
      const firstReply = slack.callsOf('chat.postMessage').at(-1)!;
      expect(firstReply.args).toMatchObject({ channel: CHANNEL, thread_ts: posted.ts });
      expect(firstReply.args.text).toBe('Spot migration of research-train-fra: 1 of 2 approvals');
      expect(JSON.stringify(firstReply.args.blocks)).toContain(
        '(1 of 2); saving $5,296.69 a month. Nobody else of the team may approve it: an admin can.',
      );

      // The same approver again is refused.
      expect(await approve(BOB, fra)).toContain('You already approved moving research-train-fra to spot');
      expect(writes()).toHaveLength(0);

      // A second, different approver: the launch template gets a spot version as its default.
      expect(await approve(ADMIN, fra)).toBeNull();
      expect(ec2.launchTemplates.get(LT)).toMatchObject({ defaultVersion: 2, versions: [{ spot: false }, { spot: true }] });
      expect(ec2.callsOf('CreateLaunchTemplateVersion', { succeeded: true })[0]!.params).toMatchObject({
        SourceVersion: '1',
        'LaunchTemplateData.InstanceMarketOptions.MarketType': 'spot',
      });
      expect(ec2.callsOf('CreateLaunchTemplateVersion')[0]!.params.VersionDescription).toContain(`approved by ${BOB}, ${ADMIN}`);
      const result = slack.callsOf('chat.postMessage').at(-1)!;
      expect(result.args.thread_ts).toBe(posted.ts);
      expect(result.args.text).toMatch(/^research-train-fra moves to spot: saves \$[\d,.]+ a month$/);
      const revert = buttonsOf(result.args.blocks).find((b) => b.action_id === 'spot.revert')!;
      expect(revert.value).toBeTypeOf('string');

      // A third click changes nothing.
      expect(await approve(ADMIN, fra)).toContain('already moved to spot');
      expect(ec2.callsOf('CreateLaunchTemplateVersion')).toHaveLength(1);

      // Revert: not for strangers; the team's owner may; twice does nothing twice.
      expect(await click(STRANGER, 'spot.revert', revert.value!)).toContain(
        'Only owners and approvers of ML Research can revert research-train-fra',
      );
      expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(2);
      expect(await click(ALICE, 'spot.revert', revert.value!)).toBeNull();
      expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(1);
      expect(ec2.callsOf('ModifyLaunchTemplate', { succeeded: true }).map((c) => c.params.SetDefaultVersion)).toEqual(['2', '1']);
      const reverted = slack.callsOf('chat.postMessage').at(-1)!;
      expect(reverted.args).toMatchObject({ thread_ts: posted.ts, text: 'research-train-fra is back on on-demand capacity' });
      // The message clicked: its Revert button gone, a line saying who reverted it.
      const updated = slack.callsOf('chat.update').at(-1)!.args.blocks as SlackBlock[];
      expect(buttonsOf(updated).map((b) => b.action_id)).not.toContain('spot.revert');
      expect(updated.map((b) => b.text?.text ?? '').join('\n')).toMatch(
        new RegExp(`Reverted to on-demand <!date\\^\\d+\\^[^|]+\\|[^>]+ UTC> by <@${ALICE}>`),
      );
      expect(await click(ALICE, 'spot.revert', revert.value!)).toContain(`Already reverted to on-demand by ${ALICE}`);
      expect(ec2.callsOf('ModifyLaunchTemplate')).toHaveLength(2);

      // Everything audited, refusals included, and no error reached a user as a stack trace.
      const audit = (await deps.store.audit.list(50))
        .filter((a) => a.action.startsWith('spot.'))
        .map((a) => `${a.action} ${a.userId} ${a.result}`)
        .reverse();
      expect(audit).toEqual([
        `spot.approve ${ALICE} refused`,
        `spot.approve ${ADMIN} refused`,
        `spot.approve ${ADMIN} refused`,
        `spot.approve ${ADMIN} refused`,
        `spot.approve ${BOB} ok`,
        `spot.approve ${BOB} refused`,
        `spot.approve ${ADMIN} ok`,
        `spot.approve ${ADMIN} duplicate`,
        `spot.revert ${STRANGER} refused`,
        `spot.revert ${ALICE} ok`,
        `spot.revert ${ALICE} duplicate`,
      ]);
      expect(slack.responses.map((r) => String(r.body.text)).join('\n')).not.toMatch(/at .*\.(ts|js):\d+/);
    } finally {
      await h.close();
    }
  });

  it('is a dry run while actions are off: EC2 checks the permission, nothing changes and nothing is recorded', async () => {
    const { deps, h, id } = await setup((c) => (c.spot.secondApproverAbove = 100_000));
    try {
      const fra = id('research-train-fra');
      const posted = await postRecommendation(deps, fra);
      const res = await postSigned(
        h.url,
        blockActionsBody({
          actionId: 'spot.approve',
          value: posted.value,
          channel: CHANNEL,
          messageTs: posted.ts,
          user_id: BOB,
          response_url: slack.responseUrl('dry'),
        }),
      );
      expect(res.status).toBe(200);
      await h.settled();
      expect(slack.responses.find((r) => r.id === 'dry')?.body.text).toContain(
        'Dry run: burnrate would have moved research-train-fra to spot',
      );
      expect(ec2.callsOf('CreateLaunchTemplateVersion', { dryRun: true })).toHaveLength(1);
      expect(ec2.callsOf('CreateLaunchTemplateVersion', { dryRun: false })).toHaveLength(0);
      expect(ec2.callsOf('ModifyLaunchTemplate')).toHaveLength(0);
      expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(1);
      expect(await deps.store.spotMigrations.active(fra)).toBeNull();
      expect((await deps.store.audit.list(5))[0]).toMatchObject({ action: 'spot.approve', userId: BOB, result: 'dry-run' });
    } finally {
      await h.close();
    }
  });
});
