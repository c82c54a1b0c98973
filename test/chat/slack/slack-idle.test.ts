import { afterEach, describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { ALICE, CAROL, gpuDemo } from '../../support/gpu-demo.js';
import { blockActionsBody, postSigned } from '../../support/slack-request.js';
import { startSlackServer } from './slack-harness.js';
import { LLM_CHANNEL as LLM, RESEARCH_CHANNEL as RESEARCH } from '../../support/demo-org.js';

interface SlackButton {
  action_id: string;
  value: string;
  text: { text: string };
}
const buttonsOf = (blocks: { type: string; elements?: SlackButton[] }[]): SlackButton[] =>
  blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);

describe('the idle-GPU alert in Slack (real Bolt over HTTP, fake Web API)', () => {
  let fake: FakeSlackApi;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it('"Not ours" answers with a private team picker; the pick updates the alert and posts it to the other team', async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
    const { deps } = gpuDemo();
    const h = await startSlackServer(deps, fake);
    close = h.close;
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const alert = fake.callsOf('chat.postMessage').find((c) => c.args.channel === RESEARCH)!;
    const alertTs = String(alert.answer?.ts);
    const notOurs = buttonsOf(alert.args.blocks).find((b) => b.action_id === 'instance.reroute')!;

    // 1. The click: a private picker at response_url, one button per other team.
    const pick = fake.responseUrl('pick');
    expect(
      (
        await postSigned(
          h.url,
          blockActionsBody({
            actionId: notOurs.action_id,
            value: notOurs.value,
            user_id: ALICE,
            channel: RESEARCH,
            messageTs: alertTs,
            response_url: pick,
          }),
        )
      ).status,
    ).toBe(200);
    await h.settled();
    const picker = fake.responses.find((r) => r.id === 'pick')!.body;
    expect(picker.response_type).toBe('ephemeral');
    const llm = buttonsOf(picker.blocks).find((b) => b.text.text === 'LLM Training')!;
    expect(llm.action_id).toBe('instance.reroute:llm-training');

    // 2. The pick, from the ephemeral picker: the picker is replaced, the original alert updated.
    const done = fake.responseUrl('done');
    expect(
      (
        await postSigned(
          h.url,
          blockActionsBody({
            actionId: llm.action_id,
            value: llm.value,
            user_id: ALICE,
            channel: RESEARCH,
            messageTs: '1700000099.000001',
            ephemeral: true,
            response_url: done,
          }),
        )
      ).status,
    ).toBe(200);
    await h.settled();
    expect(fake.responses.find((r) => r.id === 'done')!.body).toMatchObject({
      replace_original: true,
      text: expect.stringContaining('Handed'),
    });
    const update = fake.callsOf('chat.update').at(-1)!;
    expect(update.args).toMatchObject({ channel: RESEARCH, ts: alertTs });
    expect(JSON.stringify(update.args.blocks)).toContain(`Handed to LLM Training by <@${ALICE}>`);

    // 3. The receiving team's alert goes out through the outbox.
    await deliverOutbox(deps);
    const handed = fake
      .callsOf('chat.postMessage')
      .filter((c) => c.args.channel === LLM)
      .at(-1)!;
    expect(JSON.stringify(handed.args.blocks)).toMatch(/alice-notebook|research-shared-notebook/);
  });

  it("sends each newly idle instance's alert to the person its burnrate:owner tag names, whose click there counts as an owner's", async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage', 'chat.update'] });
    // Carol owns llm-training's instances by tag only: the team's owners are someone else.
    const { deps } = gpuDemo((config) => {
      config.teams.find((t) => t.id === 'llm-training')!.owners = ['U0DEMODAN'];
    });
    const h = await startSlackServer(deps, fake);
    close = h.close;
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const toCarol = fake.callsOf('chat.postMessage').filter((c) => c.args.channel === CAROL);
    expect(toCarol).toHaveLength(1);
    expect(toCarol[0]!.args.text).toMatch(/^Your GPU instance is idle: LLM Training: \d+ idle GPU instance/);
    // Only Carol's instances, with the same buttons as the channel's copy.
    const channelCopy = fake.callsOf('chat.postMessage').find((c) => c.args.channel === LLM)!;
    const keepOf = (blocks: { type: string; elements?: SlackButton[] }[]) =>
      buttonsOf(blocks).filter((b) => b.action_id === 'instance.keep:4h');
    expect(keepOf(toCarol[0]!.args.blocks).length).toBeGreaterThan(0);
    expect(keepOf(toCarol[0]!.args.blocks).length).toBeLessThanOrEqual(keepOf(channelCopy.args.blocks).length);

    // Carol keeps one running from her DM: allowed as the instance's owner, audited under her id.
    const keep = keepOf(toCarol[0]!.args.blocks)[0]!;
    const res = await postSigned(
      h.url,
      blockActionsBody({
        actionId: keep.action_id,
        value: keep.value,
        user_id: CAROL,
        channel: CAROL,
        messageTs: String(toCarol[0]!.answer?.ts),
        response_url: fake.responseUrl('keep'),
      }),
    );
    expect(res.status).toBe(200);
    await h.settled();
    const audit = (await deps.store.audit.list()).filter((a) => a.action.startsWith('instance.keep'));
    expect(audit.map((a) => [a.userId, a.result])).toEqual([[CAROL, 'ok']]);
    // A second run while nothing new is idle sends nobody anything more.
    const before = fake.callsOf('chat.postMessage').length;
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    expect(fake.callsOf('chat.postMessage').filter((c) => c.args.channel === CAROL).length).toBe(1);
    expect(fake.callsOf('chat.postMessage').length).toBeGreaterThanOrEqual(before);
  });

  it('links each idle instance to its AWS console page and its GPU dashboard; a click on a link is only acknowledged', async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage'] });
    const { deps } = gpuDemo((config) => {
      config.links.grafana = 'https://grafana.example.com/d/dcgm?var-instance={instance}';
    });
    const h = await startSlackServer(deps, fake);
    close = h.close;
    await runGpuCheck(deps);
    await deliverOutbox(deps);
    const alert = fake.callsOf('chat.postMessage').find((c) => c.args.channel === RESEARCH)!;
    const links = (alert.args.blocks as { type: string; elements?: (SlackButton & { url?: string })[] }[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .filter((e) => e.url);
    const [consoleLink, dashboard] = links;
    expect(consoleLink?.text.text).toBe('Open in AWS console');
    expect(consoleLink?.url).toMatch(
      /^https:\/\/[a-z0-9-]+\.console\.aws\.amazon\.com\/ec2\/home\?region=[a-z0-9-]+#InstanceDetails:instanceId=i-[0-9a-f]+$/,
    );
    expect(dashboard?.text.text).toBe('GPU dashboard');
    expect(dashboard?.url).toMatch(/^https:\/\/grafana\.example\.com\/d\/dcgm\?var-instance=i-[0-9a-f]+$/);

    // Slack opens the page and tells the app of the click: it is acknowledged, and nothing runs.
    const res = await postSigned(
      h.url,
      blockActionsBody({
        actionId: consoleLink!.action_id,
        value: '',
        user_id: ALICE,
        channel: RESEARCH,
        response_url: fake.responseUrl('link'),
      }),
    );
    expect(res.status).toBe(200);
    expect(h.dispatched).toHaveLength(0);
    expect(await deps.store.audit.list()).toEqual([]);

    // Details answers the one who clicked with the figures behind "idle", from the metrics over its idle period.
    const details = buttonsOf(alert.args.blocks).find((b) => b.action_id === 'finding.details')!;
    expect(JSON.stringify(alert.args.blocks)).not.toContain('GPUs while idle');
    const answer = fake.responseUrl('details');
    await postSigned(
      h.url,
      blockActionsBody({ actionId: details.action_id, value: details.value, user_id: ALICE, channel: RESEARCH, response_url: answer }),
    );
    await h.settled();
    const body = fake.responses.find((r) => r.id === 'details')!.body;
    expect(body.response_type).toBe('ephemeral');
    expect(JSON.stringify(body.blocks)).toMatch(/GPUs while idle: \d+(\.\d)?% busy on average \(at most \d+(\.\d)?%\)/);
    // It reads only: nothing is audited, and the alert is left as it was.
    expect(await deps.store.audit.list()).toEqual([]);
    expect(fake.callsOf('chat.update')).toHaveLength(0);
  });
});
