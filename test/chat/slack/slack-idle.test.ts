import { afterEach, describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../../src/jobs/deliver-outbox.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { ALICE, gpuDemo } from '../../support/gpu-demo.js';
import { blockActionsBody, postSigned } from '../../support/slack-request.js';
import { startSlackServer } from './slack-harness.js';

const RESEARCH = 'C0DEMORSRCH';
const LLM = 'C0DEMOLLMTR';

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
    expect(JSON.stringify(update.args.blocks)).toContain(`Handed to LLM Training by ${ALICE}`);

    // 3. The receiving team's alert goes out through the outbox.
    await deliverOutbox(deps);
    const handed = fake
      .callsOf('chat.postMessage')
      .filter((c) => c.args.channel === LLM)
      .at(-1)!;
    expect(JSON.stringify(handed.args.blocks)).toMatch(/alice-notebook|research-shared-notebook/);
  });
});
