import { expectedAnswerLabels } from '../support/review-answers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { DemoSpotPort } from '../../src/providers/demo/demo-spot-port.js';
import type { Deps } from '../../src/deps.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runMonthlyReview } from '../../src/jobs/monthly-review.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { runReviewFollowups } from '../../src/jobs/review-followups.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { buildSources } from '../../src/providers/registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { FakeSlackApi, type SlackApiCall } from '../fakes/fake-slack-api.js';
import { checkSlackLimits, type SlackBlock } from '../support/platform-limits.js';
import { blockActionsBody, postSigned } from '../support/slack-request.js';
import { startSlackServer, waitFor } from '../chat/slack/slack-harness.js';
import { ADMIN, ALICE, BOB, CAROL, DAN, LLM_CHANNEL as CHANNEL, RESEARCH_CHANNEL as RESEARCH } from '../support/demo-org.js';

// The demo organisation's LLM Training team (owner CAROL, approver DAN; Los Angeles) on Tuesday
// 1 Dec 2026, 09:00 in Los Angeles: its first working day of December, review of November.
const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

describe('the monthly review thread on Slack (demo organisation, real Bolt, fake Web API)', () => {
  let fake: FakeSlackApi;
  let harness: Awaited<ReturnType<typeof startSlackServer>>;
  let deps: Deps;
  const clock = { now: new Date('2026-12-01T17:00:00Z') };
  const at = (iso: string) => (clock.now = new Date(iso));
  let parentTs: string;
  let lineCalls: SlackApiCall[];
  /** The index of the first line with a spot recommendation: the one answered "Move to spot". */
  let spotLine: number;

  beforeAll(async () => {
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'chat.update'],
    });
    const config = demoConfig();
    deps = {
      config,
      store: openStore(':memory:'),
      sources: buildSources(config).spend,
      chat: [],
      clock: () => clock.now,
      log: pino({ level: process.env.TEST_LOG ?? 'silent' }),
      gpu: buildGpuDeps(config)!,
    };
    await refreshSources(deps);
    harness = await startSlackServer(deps, fake);
  });
  afterAll(async () => {
    await harness.close();
    fake.assertNoUnexpectedCalls();
    fake.assertDone();
    await fake.close();
    await deps.store.close();
  });

  /** The answer buttons' and the owner picker's values of a posted line. */
  const elementsOf = (call: SlackApiCall) =>
    (call.args.blocks as SlackBlock[]).filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []) as Record<string, any>[];
  const click = (userId: string, call: SlackApiCall, actionId: string, extra: { selected?: string; value?: string } = {}) => {
    const element = elementsOf(call).find((e) => e.action_id === actionId);
    return postSigned(
      harness.url,
      blockActionsBody({
        actionId,
        user_id: userId,
        channel: CHANNEL,
        messageTs: lineTs(call),
        response_url: fake.responseUrl(),
        ...(extra.selected !== undefined ? { selected: extra.selected } : { value: extra.value ?? element!.value }),
      }),
    );
  };
  const lineTs = (call: SlackApiCall) => call.answer!.ts as string;

  it('posts the parent, the chart Slack draws into its thread and the top 10 lines there, once', async () => {
    // Each metrics window (the month's idle cost, the week behind the recommendations) is read once
    // per source for the whole review, not once per line.
    const windows: string[] = [];
    for (const source of deps.gpu!.metrics) {
      const fetch = source.fetch.bind(source);
      source.fetch = (range) => (windows.push(`${source.id} ${JSON.stringify(range)}`), fetch(range));
    }
    const [review] = await runMonthlyReview(deps, { teams: ['llm-training'] });
    expect(windows.length).toBeGreaterThan(0);
    expect(new Set(windows).size).toBe(windows.length);
    expect(review).toMatchObject({ team: 'llm-training', month: '2026-11', created: true });
    // The parent first, then its thread once it has a ts, in the same delivery pass; nothing left after.
    expect(await deliverOutbox(deps)).toEqual({ sent: 13, retried: 0, failed: 0 });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    // The parent, the chart, the waste diagnosis, the ten lines.
    const posts = fake.callsOf('chat.postMessage');
    expect(posts).toHaveLength(13);
    const parent = posts[0]!;
    expect(parent.args).toMatchObject({ channel: CHANNEL });
    expect(parent.args.thread_ts).toBeUndefined();
    expect(parent.args.text).toContain('LLM Training: cost review of November 2026');
    const parentText = JSON.stringify(parent.args.blocks);
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
    checkSlackLimits(parent.args.blocks as SlackBlock[]);
    parentTs = parent.answer!.ts as string;

    // The chart: drawn by Slack from its numbers (a data_visualization block), in the parent's thread,
    // one bar a day of November whose days add up to the month the PNG draws; no file goes.
    expect(fake.uploads.size).toBe(0);
    const chart = posts[1]!;
    expect(chart.args.thread_ts).toBe(parentTs);
    checkSlackLimits(chart.args.blocks as SlackBlock[]);
    const [drawn] = (chart.args.blocks as Record<string, any>[]).filter((b) => b.type === 'data_visualization');
    expect(drawn).toMatchObject({ title: 'LLM Training: daily spend, November 2026', chart: { type: 'bar' } });
    const bars = drawn!.chart.series[0].data as { label: string; value: number }[];
    expect(bars.length).toBeLessThanOrEqual(20);
    expect(bars.reduce((sum, b) => sum + b.value, 0)).toBeCloseTo(review!.figures.spend, 0);

    const waste = posts[2]!;
    expect(waste.args.thread_ts).toBe(parentTs);
    expect(waste.args.text).toMatch(/^GPU waste: \$[\d,.]+ of \$[\d,.]+ \(/);
    checkSlackLimits(waste.args.blocks as SlackBlock[]);
    lineCalls = posts.slice(3);
    lineCalls.forEach((call, i) => {
      expect(call.args.thread_ts).toBe(parentTs);
      expect(call.args.text).toMatch(new RegExp(`^#${i + 1} `));
      const elements = elementsOf(call);
      const line = review!.lines[i]!;
      const expected = expectedAnswerLabels(line);
      expect(elements.filter((e) => e.action_id.startsWith('review.answer:')).map((e) => e.text.text)).toEqual(expected);
      // A line whose instance has a spot recommendation ready to pass its checks carries its Approve button, and only such a line.
      const spot = line.recommendations.find((r) => r.kind === 'spot');
      const approve = elements.filter((e) => e.action_id === 'spot.approve');
      expect(approve.map((e) => e.value)).toEqual(spot && !spot.blocker ? [JSON.stringify({ i: spot.instanceId, l: line.id })] : []);
      // One spot figure per line: the month's, as the waste report has it, where the diagnosis gives one.
      if (spot)
        expect(JSON.stringify(call.args.blocks)).toContain(
          line.spotSaving !== null ? `about ${usd(line.spotSaving)} less this month` : `Saves about ${usd(spot.monthlySaving)} a month.`,
        );
      const picker = elements.find((e) => e.type === 'static_select')!;
      expect(picker.options.map((o: { text: { text: string } }) => o.text.text)).toEqual([CAROL, DAN]);
      checkSlackLimits(call.args.blocks as SlackBlock[]);
    });
    // The pre-training run's on-demand node is the top line, but one node of a multi-node run (its
    // siblings share its run tag) is never spot advice: a reclaim would stop the whole run. Its two
    // siblings run under a Savings Plan: no spot advice either.
    expect(review!.lines[0]).toMatchObject({ label: 'llm-pretrain-node-0', recommendations: [] });
    for (const line of review!.lines.filter((l) => l.label.startsWith('llm-pretrain-node-')))
      expect(line.recommendations.filter((r) => r.kind === 'spot')).toEqual([]);
    // A line with a spot recommendation shows the recommendation's saving instead of the catalog estimate.
    spotLine = review!.lines.findIndex((l) => l.recommendations.some((r) => r.kind === 'spot'));
    expect(spotLine).toBeGreaterThan(0);
    expect(JSON.stringify(lineCalls[spotLine]!.args.blocks)).not.toContain('catalog spot price');
    const committed = review!.lines.filter((l) => l.pricing === 'Committed');
    expect(committed.length).toBeGreaterThan(0);
    for (const line of committed) expect(line.recommendations.filter((r) => r.kind === 'spot')).toEqual([]);
    const costs = review!.lines.map((l) => l.cost);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));

    // Again (a retried job, a second /burnrate review): nothing new is queued or posted.
    const [again] = await runMonthlyReview(deps, { teams: ['llm-training'] });
    expect(again).toMatchObject({ created: false, queued: 0 });
    expect(again!.lines.map((l) => l.id)).toEqual(review!.lines.map((l) => l.id));
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(13);
  });

  it('records an answer with who and when and updates the line; refuses someone outside the team', async () => {
    const first = lineCalls[spotLine]!;
    expect((await click(CAROL, first, 'review.answer:spot')).status).toBe(200);
    await waitFor(() => fake.callsOf('chat.update').length === 1, 'the line updated');
    await harness.settled();
    const update = fake.callsOf('chat.update')[0]!;
    expect(update.args).toMatchObject({ channel: CHANNEL, ts: lineTs(first) });
    expect(JSON.stringify(update.args.blocks)).toContain(`*Move to spot*: answered by <@${CAROL}> at 2026-12-01 17:00 UTC`);
    const line = (await deps.store.reviews.lines('llm-training', '2026-11'))[spotLine];
    expect(line).toMatchObject({ answer: 'spot', answeredBy: CAROL, answeredAt: new Date('2026-12-01T17:00:00Z') });

    const before = fake.responses.length;
    const other = spotLine === 1 ? 2 : 1;
    expect((await click(ALICE, lineCalls[other]!, 'review.answer:not-ours')).status).toBe(200);
    await waitFor(() => fake.responses.length === before + 1, 'the refusal');
    await harness.settled();
    expect(fake.responses.at(-1)!.body.text).toBe('Only owners and approvers of llm-training can answer its cost review.');
    expect(fake.callsOf('chat.update')).toHaveLength(1);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[other]!.answer).toBeNull();
    // Move to spot on a storage line (a click from a crafted or older message): refused, saying why.
    const lines = await deps.store.reviews.lines('llm-training', '2026-11');
    const storage = lines.findIndex((l) => !expectedAnswerLabels(l).includes('Right-size'));
    const beforeStorage = fake.responses.length;
    const value = JSON.stringify({ line: lines[storage]!.id, answer: 'spot' });
    expect((await click(CAROL, lineCalls[storage]!, 'review.answer:spot', { value })).status).toBe(200);
    await waitFor(() => fake.responses.length === beforeStorage + 1, 'the refusal');
    await harness.settled();
    expect(fake.responses.at(-1)!.body.text).toContain(`"Move to spot" does not apply to ${lines[storage]!.label}`);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[storage]!.answer).toBeNull();
    const audit = await deps.store.audit.list();
    expect(audit.sort((a, b) => a.id - b.id).map((a) => [a.userId, a.action, a.result])).toEqual([
      [CAROL, 'review.answer', 'ok'],
      [ALICE, 'review.answer', 'refused'],
      [CAROL, 'review.answer', 'refused'],
    ]);
  });

  it('sets an owner from the picker, and only someone of the team', async () => {
    const second = lineCalls[1]!;
    const picker = elementsOf(second).find((e) => e.type === 'static_select')!;
    const danOption = picker.options.find((o: { text: { text: string } }) => o.text.text === DAN).value as string;
    expect((await click(CAROL, second, 'review.owner', { selected: danOption })).status).toBe(200);
    await waitFor(() => fake.callsOf('chat.update').length === 2, 'the owner shown');
    await harness.settled();
    expect(JSON.stringify(fake.callsOf('chat.update')[1]!.args.blocks)).toContain(`Owner: <@${DAN}> (set by <@${CAROL}>`);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[1]).toMatchObject({ owner: DAN, ownerBy: CAROL });

    // A forged option naming someone outside the team is refused and changes nothing.
    const forged = JSON.stringify({ line: JSON.parse(danOption).line, owner: ALICE });
    const before = fake.responses.length;
    await click(CAROL, second, 'review.owner', { selected: forged });
    await waitFor(() => fake.responses.length === before + 1, 'the refusal');
    await harness.settled();
    expect(fake.responses.at(-1)!.body.text).toContain(`${ALICE} is not an owner or approver of llm-training`);
    expect((await deps.store.reviews.lines('llm-training', '2026-11'))[1]!.owner).toBe(DAN);
  });

  it('reminds once, three working days later, of the lines nobody answered', async () => {
    const postsBefore = fake.callsOf('chat.postMessage').length;
    at('2026-12-03T17:30:00Z'); // Thursday: two working days
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    at('2026-12-04T16:59:00Z'); // Friday, a minute before the third working day is up
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    at('2026-12-04T17:00:00Z');
    expect(await runReviewFollowups(deps)).toEqual({ reminded: ['review:llm-training:2026-11'], closed: [] });
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const reminder = fake.callsOf('chat.postMessage').at(-1)!;
    expect(reminder.args.thread_ts).toBe(parentTs);
    expect(reminder.args.text).toMatch(/^Reminder: 9 cost lines of the November 2026 review still need an answer: #1 /);
    expect(reminder.args.text).not.toContain(`#${spotLine + 1} `);

    at('2026-12-09T17:00:00Z');
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(postsBefore + 1);
  });

  it('posts the summary of decisions and savings in the thread when December closes, once', async () => {
    at('2026-12-31T23:59:00Z'); // still 31 Dec in Los Angeles
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    at('2027-01-01T08:00:00Z'); // midnight in Los Angeles
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: ['review:llm-training:2026-11'] });
    expect(await deliverOutbox(deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    const summary = fake.callsOf('chat.postMessage').at(-1)!;
    expect(summary.args.thread_ts).toBe(parentTs);
    // Move to spot saves the line's spot figure, the one the line showed (the waste diagnosis's), else its recommendation's.
    const first = (await deps.store.reviews.lines('llm-training', '2026-11'))[spotLine];
    const saving = usd(first!.spotSaving ?? first!.recommendations.find((r) => r.kind === 'spot')!.monthlySaving);
    expect(summary.args.text).toBe(`LLM Training: November 2026 review closed, 1 of 10 lines decided, about ${saving} a month saved`);
    expect(JSON.stringify(summary.args.blocks)).toContain(`Move to spot (${CAROL})`);
    checkSlackLimits(summary.args.blocks as SlackBlock[]);

    at('2027-01-02T08:00:00Z');
    expect(await runReviewFollowups(deps)).toEqual({ reminded: [], closed: [] });
    expect(await deliverOutbox(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
  });
});

describe('Approve spot migration from a line of the review thread (demo organisation, real Bolt, fake Web API)', () => {
  // ML Research: owner ALICE, approver BOB; ADMIN holds every role. Cloud actions on (the demo's launch templates).
  const LT = 'lt-0a3f9c1e7d2b4a6c8'; // research-train-fra's launch template in the demo
  let fake: FakeSlackApi;
  let harness: Awaited<ReturnType<typeof startSlackServer>>;
  let deps: Deps;

  beforeAll(async () => {
    fake = await FakeSlackApi.start({
      expect: ['chat.postMessage', 'chat.update'],
    });
    const config = demoConfig();
    config.actions.enabled = true;
    deps = {
      config,
      store: openStore(':memory:'),
      sources: buildSources(config).spend,
      chat: [],
      clock: () => new Date('2026-12-01T17:00:00Z'),
      log: pino({ level: process.env.TEST_LOG ?? 'silent' }),
      gpu: buildGpuDeps(config)!,
    };
    await refreshSources(deps);
    harness = await startSlackServer(deps, fake);
  });
  afterAll(async () => {
    await harness.close();
    fake.assertNoUnexpectedCalls();
    await fake.close();
    await deps.store.close();
  });

  it('the button on a line runs the approval: approvers only, readiness, two approvers, the result and Revert in the thread', async () => {
    const [review] = await runMonthlyReview(deps, { teams: ['ml-research'], month: '2026-11' });
    await deliverOutbox(deps);
    await deliverOutbox(deps);
    const posts = fake.callsOf('chat.postMessage');
    expect(posts).toHaveLength(13);
    const parentTs = posts[0]!.answer!.ts as string;
    // The parent, the chart, the waste diagnosis, then the lines.
    const lineOf = (label: string) => {
      const index = review!.lines.findIndex((l) => l.label === label);
      return { line: review!.lines[index]!, call: posts[3 + index]! };
    };
    const fra = lineOf('research-train-fra');
    const a2 = lineOf('research-a2-8g'); // checkpoints every 2h: recommended, but not ready for spot
    const approveOf = (call: SlackApiCall) =>
      (call.args.blocks as SlackBlock[])
        .flatMap((b) => (b.elements ?? []) as Record<string, any>[])
        .find((e) => e.action_id === 'spot.approve')!;
    expect(approveOf(fra.call).value).toBe(JSON.stringify({ i: fra.line.resourceId, l: fra.line.id }));

    let n = 0;
    /** Clicks the line's Approve (or any button) as Slack sends it from a reply in the thread; the private answer, if any. */
    const click = async (user: string, call: SlackApiCall, actionId: string, value: string) => {
      const id = `click-${++n}`;
      const body = blockActionsBody({
        actionId,
        value,
        user_id: user,
        channel: RESEARCH,
        messageTs: call.answer!.ts as string,
        threadTs: parentTs,
        response_url: fake.responseUrl(id),
      });
      expect((await postSigned(harness.url, body)).status).toBe(200);
      await harness.settled();
      const answer = fake.responses.find((r) => r.id === id);
      return answer ? String(answer.body.text) : null;
    };
    const approve = (user: string, line: { call: SlackApiCall }) => click(user, line.call, 'spot.approve', approveOf(line.call).value);
    const demoSpot = (await deps.gpu!.spot!.at('demo')) as DemoSpotPort;

    // Refused, privately: the owner is no approver; an interval longer than spot.maxCheckpointMinutes.
    expect(await approve(ALICE, fra)).toContain('Only approvers of ML Research can approve moving research-train-fra to spot');
    // The a2 line offers no Approve (it would be refused) and says what to change first; a click
    // from an older message is still refused.
    expect(approveOf(a2.call)).toBeUndefined();
    expect(JSON.stringify(a2.call.args.blocks)).toContain('Not ready for spot yet: research-a2-8g checkpoints every 2h');
    expect(await click(BOB, a2.call, 'spot.approve', JSON.stringify({ i: a2.line.resourceId }))).toContain(
      'checkpoints every 2h, longer than the 30 min burnrate allows on spot',
    );
    expect(await deps.store.spotMigrations.active(fra.line.resourceId!)).toBeNull();

    // The first approver: recorded, and said in the review's thread (the parent's, not the line's own ts).
    expect(await approve(BOB, fra)).toBeNull();
    const pending = fake.callsOf('chat.postMessage').at(-1)!;
    expect(pending.args).toMatchObject({
      channel: RESEARCH,
      thread_ts: parentTs,
      text: 'Spot migration of research-train-fra: 1 of 2 approvals',
    });
    // ML Research has one approver: the thread says so, and who can give the second approval.
    expect(JSON.stringify(pending.args.blocks)).toContain(`approved by <@${BOB}> (1 of 2)`);
    expect(JSON.stringify(pending.args.blocks)).toContain('Nobody else of the team may approve it: an admin can.');
    expect((await deps.store.spotMigrations.active(fra.line.resourceId!))!.approvals.map((a) => a.approver)).toEqual([BOB]);
    expect(await approve(BOB, fra)).toContain('You already approved moving research-train-fra to spot');
    expect(demoSpot.defaultsToSpot(LT)).toBe(false);

    // A second, different approver: the demo's launch template requests spot; the result and Revert in the thread.
    expect(await approve(ADMIN, fra)).toBeNull();
    expect(demoSpot.defaultsToSpot(LT)).toBe(true);
    const migrated = fake.callsOf('chat.postMessage').at(-1)!;
    expect(migrated.args.thread_ts).toBe(parentTs);
    expect(migrated.args.text).toMatch(/^research-train-fra moves to spot: saves \$[\d,.]+ a month$/);
    // The line clicked loses its Approve button: the migration is made, Revert is in the thread.
    const line = fake.callsOf('chat.update').at(-1)!;
    expect(line.args.ts).toBe(fra.call.answer!.ts);
    expect(JSON.stringify(line.args.blocks)).not.toContain('spot.approve');
    expect(JSON.stringify(line.args.blocks)).toContain('Moved to spot');
    const revert = (migrated.args.blocks as SlackBlock[])
      .flatMap((b) => (b.elements ?? []) as Record<string, any>[])
      .find((e) => e.action_id === 'spot.revert')!;
    expect(await click(ALICE, migrated, 'spot.revert', revert.value)).toBeNull();
    expect(demoSpot.defaultsToSpot(LT)).toBe(false);
    expect(fake.callsOf('chat.postMessage').at(-1)!.args).toMatchObject({
      thread_ts: parentTs,
      text: 'research-train-fra is back on on-demand capacity',
    });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(13 + 3);

    const audit = (await deps.store.audit.list(20))
      .filter((a) => a.action.startsWith('spot.'))
      .map((a) => `${a.action} ${a.userId} ${a.result}`)
      .reverse();
    expect(audit).toEqual([
      `spot.approve ${ALICE} refused`,
      `spot.approve ${BOB} refused`,
      `spot.approve ${BOB} ok`,
      `spot.approve ${BOB} refused`,
      `spot.approve ${ADMIN} ok`,
      `spot.revert ${ALICE} ok`,
    ]);
  });
});
