import { expectedAnswerLabels } from '../../support/review-answers.js';
import { describe, expect, it } from 'vitest';
import { TEAMS_INLINE_IMAGE_BYTES } from '../../../src/chat/teams/teams-chat.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runMonthlyReview } from '../../../src/jobs/monthly-review.js';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { runReviewFollowups } from '../../../src/jobs/review-followups.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { buildSources } from '../../../src/providers/registry.js';
import { FakeBotConnector, type ConnectorCall } from '../../fakes/fake-bot-connector.js';
import { testDeps } from '../../support/deps.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';
import { cardActionActivity, CONVERSATIONS, installActivity, type Person } from '../../support/teams-activity.js';
import { cardButtons, cardText } from './card-buttons.js';
import { useTeamsTestbed } from './teams-harness.js';
import { ALICE, CAROL, teamsDemoConfig } from './teams-test-config.js';
import { DAN } from '../../support/demo-org.js';

// LLM Training (owner CAROL, approver DAN; Los Angeles) on Tuesday 1 Dec 2026, 09:00 in Los
// Angeles: its first working day of December, the review of November. Its channel is CONVERSATIONS.channel.
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** What Teams takes in one card message, about 28 KB. */
const TEAMS_CARD_LIMIT = 28 * 1024;

type InvokeAnswer = { statusCode: number; type: string; value: any };

describe('the monthly review thread in Teams: a reply chain under the parent card, with its chart, answers, reminder and summary', () => {
  const bed = useTeamsTestbed();

  /** The review of November posted in the channel: the parent card, then its chain. */
  async function reviewed() {
    const t = testDeps(teamsDemoConfig(), '2026-12-01T17:00:00Z');
    t.deps.sources = buildSources(t.deps.config).spend;
    t.deps.gpu = buildGpuDeps(t.deps.config)!;
    await refreshSources(t.deps);
    const h = await bed.start(t.deps);
    await h.send(installActivity(bed.fake.serviceUrl, CAROL));
    const [review] = await runMonthlyReview(t.deps, { teams: ['llm-training'] });
    // The parent, then its reply chain once the parent has an id, in one delivery pass.
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 13, retried: 0, failed: 0 });
    expect(await deliverOutbox(t.deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    const parent = bed.fake.calls[0]!;
    const chain = `${CONVERSATIONS.channel};messageid=${parent.id}`;
    const inChain = () => bed.fake.calls.filter((c) => c.op === 'send' && c.conversationId === chain);
    const [chart, waste, ...lines] = inChain();
    const click = async (who: Person, line: ConnectorCall, verb: string, value: string): Promise<InvokeAnswer> => {
      const res = await h.send(cardActionActivity(bed.fake.serviceUrl, who, line.id, verb, value, parent.id));
      expect(res.status).toBe(200);
      return res.body as InvokeAnswer;
    };
    return { ...t, review: review!, parent, chart: chart!, waste: waste!, lines, chain, inChain, click };
  }

  it('posts the parent card to the channel, the compact chart and the top 10 lines in its chain, once', async () => {
    const { deps, review, parent, chart, waste, lines, inChain } = await reviewed();
    expect(parent).toMatchObject({ op: 'send', conversationId: CONVERSATIONS.channel });
    const parentText = cardText(FakeBotConnector.cardOf(parent));
    expect(parentText).toContain('LLM Training: cost review of November 2026');
    for (const fact of [
      'Spent',
      'Against October 2026',
      'Forecast for December 2026',
      'Idle GPUs',
      'Untagged spend',
      'Showback',
      'Training run',
      'Sweep',
    ])
      expect(parentText).toContain(fact);

    // The chart: drawn by Teams (Chart.VerticalBar, a bar a day adding up to the month's spend), with
    // an Image as its fallback whose data URI is an indexed-colour PNG under the limit, in a card Teams takes.
    const card = FakeBotConnector.cardOf(chart);
    expect(adaptiveCardProblems(card)).toEqual([]);
    const drawn = card.body.find((e: { type: string }) => e.type === 'Chart.VerticalBar');
    expect(drawn.data).toHaveLength(30);
    expect(drawn.data.reduce((sum: number, p: { y: number }) => sum + p.y, 0)).toBeCloseTo(review.figures.spend, 0);
    const image = drawn.fallback;
    expect(image.url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(image.url.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(png.readUInt8(25)).toBe(3); // IHDR colour type: indexed
    expect(png.length).toBeLessThanOrEqual(TEAMS_INLINE_IMAGE_BYTES);
    expect(png.length).toBeLessThan(review.chart.png.length / 2);
    expect(JSON.stringify(chart.activity).length).toBeLessThan(TEAMS_CARD_LIMIT);
    expect(image.altText).toMatch(/^Spent \$[\d,.]+ over 30 days; the most on day \d+, \$[\d,.]+\.$/);

    // The waste diagnosis, its chart inside the card, in a card Teams takes.
    const wasteCard = FakeBotConnector.cardOf(waste);
    expect(adaptiveCardProblems(wasteCard)).toEqual([]);
    expect(waste.activity.summary).toMatch(/^GPU waste: \$[\d,.]+ of \$[\d,.]+ \(/);
    expect(JSON.stringify(waste.activity).length).toBeLessThan(TEAMS_CARD_LIMIT);

    expect(lines).toHaveLength(10);
    lines.forEach((line, i) => {
      const lineCard = FakeBotConnector.cardOf(line);
      expect(line.activity.summary).toMatch(new RegExp(`^#${i + 1} `));
      const buttons = cardButtons(lineCard);
      expect(buttons.filter((b) => b.verb.startsWith('review.answer:')).map((b) => b.title)).toEqual(
        expectedAnswerLabels(review!.lines[i]!),
      );
      expect(buttons.filter((b) => b.verb === 'review.owner').map((b) => b.title)).toEqual([CAROL.aadObjectId, DAN]);
      expect(JSON.stringify(line.activity).length).toBeLessThan(TEAMS_CARD_LIMIT);
    });

    // Again (a retried job, a second review command): nothing new is queued or posted.
    const [again] = await runMonthlyReview(deps, { teams: ['llm-training'] });
    expect(again).toMatchObject({ created: false, queued: 0 });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(inChain()).toHaveLength(12);
  });

  it('an answer refreshes the line card with who and when; someone outside the team is refused privately', async () => {
    const { deps, lines, click } = await reviewed();
    const first = lines[0]!;
    const spot = cardButtons(FakeBotConnector.cardOf(first)).find((b) => b.verb === 'review.answer:spot')!;
    const answered = await click(CAROL, first, spot.verb, spot.value);
    expect(answered.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(adaptiveCardProblems(answered.value)).toEqual([]);
    expect(cardText(answered.value)).toContain(`**Move to spot**: answered by ${CAROL.aadObjectId} at 2026-12-01 17:00 UTC`);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[0]).toMatchObject({
      answer: 'spot',
      answeredBy: CAROL.aadObjectId,
      answeredAt: new Date('2026-12-01T17:00:00Z'),
    });

    const before = bed.fake.calls.length;
    const second = lines[1]!;
    const notOurs = cardButtons(FakeBotConnector.cardOf(second)).find((b) => b.verb === 'review.answer:not-ours')!;
    const refused = await click(ALICE, second, notOurs.verb, notOurs.value);
    expect(refused).toMatchObject({
      type: 'application/vnd.microsoft.activity.message',
      value: expect.stringContaining('Only owners and approvers of llm-training can answer its cost review.'),
    });
    // Said to the clicker only: nothing was posted to or changed in the channel.
    expect(bed.fake.calls).toHaveLength(before);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[1]!.answer).toBeNull();
    expect((await deps.store.audit.list()).map((a) => [a.platform, a.userId, a.action, a.result]).reverse()).toEqual([
      ['msteams', CAROL.aadObjectId, 'review.answer', 'ok'],
      ['msteams', ALICE.aadObjectId, 'review.answer', 'refused'],
    ]);
  });

  it('the owner picker sets an owner from the team, shown on the refreshed card; a forged owner is refused', async () => {
    const { deps, lines, click } = await reviewed();
    const second = lines[1]!;
    const dan = cardButtons(FakeBotConnector.cardOf(second)).find((b) => b.verb === 'review.owner' && b.title === DAN)!;
    const picked = await click(CAROL, second, dan.verb, dan.value);
    expect(picked.type).toBe('application/vnd.microsoft.card.adaptive');
    expect(cardText(picked.value)).toContain(`Owner: ${DAN} (set by ${CAROL.aadObjectId} at 2026-12-01 17:00 UTC)`);
    expect(cardButtons(picked.value).find((b) => b.verb === 'review.owner' && b.value === dan.value)!.title).toBe(`✓ ${DAN}`);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[1]).toMatchObject({ owner: DAN, ownerBy: CAROL.aadObjectId });

    const forged = JSON.stringify({ line: (JSON.parse(dan.value) as { line: number }).line, owner: ALICE.aadObjectId });
    const refused = await click(CAROL, second, 'review.owner', forged);
    expect(refused.type).toBe('application/vnd.microsoft.activity.message');
    expect(refused.value).toContain(`${ALICE.aadObjectId} is not an owner or approver of llm-training`);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[1]!.owner).toBe(DAN);
  });

  it('reminds once in the chain three working days later, and posts the close summary there when December ends', async () => {
    const { deps, setNow, lines, click, chain, inChain } = await reviewed();
    // The first line with spot advice (one node of the demo's multi-node pre-training run has none) is answered Move to spot.
    const stored = await deps.store.reviews.lines('llm-training', '2026-11');
    const spotLine = stored.findIndex((l) => l.spotSaving !== null || l.recommendations.some((r) => r.kind === 'spot'));
    expect(spotLine).toBeGreaterThanOrEqual(0);
    const spot = cardButtons(FakeBotConnector.cardOf(lines[spotLine]!)).find((b) => b.verb === 'review.answer:spot')!;
    await click(CAROL, lines[spotLine]!, spot.verb, spot.value);

    setNow('2026-12-04T16:59:00Z'); // a minute before the third working day is up
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    setNow('2026-12-04T17:00:00Z');
    expect(await runReviewFollowups(deps)).toEqual({ reminded: ['review:llm-training:2026-11'], closed: [] });
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const reminder = bed.fake.calls.at(-1)!;
    expect(reminder).toMatchObject({ op: 'send', conversationId: chain });
    expect(reminder.activity.summary).toMatch(
      new RegExp(`^Reminder: 9 cost lines of the November 2026 review still need an answer: #${spotLine === 0 ? 2 : 1} `),
    );
    setNow('2026-12-09T17:00:00Z');
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });

    setNow('2027-01-01T08:00:00Z'); // midnight in Los Angeles
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: ['review:llm-training:2026-11'] });
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const summary = bed.fake.calls.at(-1)!;
    expect(summary).toMatchObject({ op: 'send', conversationId: chain });
    const first = (await deps.store.reviews.lines('llm-training', '2026-11'))[spotLine];
    // Move to spot saves the line's spot figure, the one the line showed (the waste diagnosis's), else its recommendation's.
    const saving = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      first!.spotSaving ?? first!.recommendations.find((r) => r.kind === 'spot')!.monthlySaving,
    );
    expect(summary.activity.summary).toBe(
      `LLM Training: November 2026 review closed, 1 of 10 lines decided, about ${saving} a month saved`,
    );
    expect(cardText(FakeBotConnector.cardOf(summary))).toContain(`Move to spot (${CAROL.aadObjectId})`);
    expect(inChain()).toHaveLength(14);
  });
});
