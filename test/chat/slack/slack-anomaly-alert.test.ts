import { afterEach, describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../../src/checks/anomalies/definition.js';
import { runCheck } from '../../../src/jobs/run-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps } from '../../support/deps.js';
import { ALICE, CAROL } from '../../support/demo-org.js';
import { firstSectionWords } from '../../support/first-section.js';
import { importRunawayBill, RUNAWAY_RESOURCE, sweepRow } from '../../support/runaway-bill.js';
import { blockActionsBody, postSigned } from '../../support/slack-request.js';
import { startSlackServer } from './slack-harness.js';

// A runaway sweep's anomaly (test/support/runaway-bill.ts) as Slack shows it: short first, the
// evidence one Details click away, answered to the one who clicked.
const CHANNEL = 'C0ML';
const TEAM = { id: 'ml', name: 'ML Research', owners: [CAROL], slack: { channel: CHANNEL } };

interface SlackButton {
  action_id: string;
  value: string;
}
const buttonsOf = (blocks: { type: string; elements?: SlackButton[] }[]): SlackButton[] =>
  blocks.filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);

describe('an anomaly alert in Slack (real Bolt over HTTP, fake Web API)', () => {
  let fake: FakeSlackApi;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it('says what, how much and who in at most 25 words before its buttons; Details answers the clicker alone with why', async () => {
    fake = await FakeSlackApi.start({ expect: ['chat.postMessage'] });
    const { deps } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    const h = await startSlackServer(deps, fake);
    close = h.close;
    await importRunawayBill(deps, '2026-11-10', [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)]);
    const run = await runCheck(deps, anomalyCheck());
    expect(firstSectionWords(run.queued[0]!.message).lead).toBeLessThanOrEqual(25);
    await deliverOutbox(deps);
    const alert = fake.callsOf('chat.postMessage').find((c) => c.args.channel === CHANNEL)!;
    const blocks = JSON.stringify(alert.args.blocks);
    expect(blocks).toContain(`from resource ${RUNAWAY_RESOURCE}`);
    expect(blocks).not.toContain('robust deviations');

    const details = buttonsOf(alert.args.blocks).find((b) => b.action_id === 'finding.details')!;
    const click = async (user: string, id: string) => {
      const url = fake.responseUrl(id);
      const res = await postSigned(
        h.url,
        blockActionsBody({ actionId: details.action_id, value: details.value, user_id: user, channel: CHANNEL, response_url: url }),
      );
      expect(res.status).toBe(200);
      await h.settled();
      return fake.responses.find((r) => r.id === id)!.body;
    };
    expect(JSON.stringify((await click(ALICE, 'outsider')).text ?? '')).toContain('Only members of ml can see its details.');
    const answer = await click(CAROL, 'details');
    expect(answer.response_type).toBe('ephemeral');
    const said = JSON.stringify(answer.blocks);
    for (const part of ['robust deviations above', 'Started 8 Nov', 'What moved', 'still filling in']) expect(said).toContain(part);
    // It reads only: nothing is audited, nothing else is posted.
    expect(await deps.store.audit.list()).toEqual([]);
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
  });
});
