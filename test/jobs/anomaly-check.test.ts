import { describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import { runCheck } from '../../src/jobs/run-check.js';
import { loadReviewFigures } from '../../src/jobs/review/review-figures.js';
import { reviewSummary } from '../../templates/review-summary.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import type { Message } from '../../templates/message.js';
import { testDeps } from '../support/deps.js';
import { dispatchClick } from '../support/dispatch-click.js';
import { ALICE, CAROL } from '../support/demo-org.js';
import { importRunawayBill, RUNAWAY_RESOURCE, sweepRow } from '../support/runaway-bill.js';

// From the bill to the alert and back: five weeks of a team's usual spend, then a sweep that runs
// away on one resource for two days (test/support/runaway-bill.ts).

const TEAM = { id: 'ml', name: 'ML', owners: [CAROL] };
const RUNAWAY = [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)];

const text = (m: Message) => renderPlainText(m);

describe('the anomaly check on a bill with a runaway sweep', () => {
  it('alerts once with its drivers; answered Expected, the same level for that driver raises nothing', async () => {
    const { deps, setNow } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    // Data through 9 Nov: the 9th is the provisional day.
    const rows = await importRunawayBill(deps, '2026-11-10', RUNAWAY);

    const first = await runCheck(deps, anomalyCheck());
    expect(first.findings.map((f) => `${f.state} ${f.id}`)).toEqual(['new anomaly:ml:2026-11-08']);
    const finding = first.findings[0]!;
    expect(finding.day).toBe('2026-11-09');
    expect(finding.provisional).toBe(true);
    // Independent: what the test wrote for the 9th.
    const written = rows.filter((r) => r.day === '2026-11-09').reduce((s, r) => s + r.effective, 0);
    expect(finding.actual).toBeCloseTo(written, 2);
    // The 9th is a Monday: about 1,000 expected, so the excess is about the sweep's 5,000.
    expect(finding.expected).toBeGreaterThan(900);
    expect(finding.expected).toBeLessThan(1100);
    expect(finding.excess).toBeCloseTo(written - finding.expected, 2);
    // What moved, against the days before the anomaly began (the sweep had none).
    expect(finding.drivers.find((d) => d.dimension === 'resource')).toMatchObject({
      key: RUNAWAY_RESOURCE,
      amount: 5000,
      usual: 0,
      delta: 5000,
    });
    expect(finding.drivers.find((d) => d.dimension === 'service')).toMatchObject({ key: 'Amazon SageMaker', amount: 5000 });
    // One message to the team's channel, with why and the answers.
    expect(first.queued).toHaveLength(1);
    const alert = text(first.queued[0]!.message);
    expect(alert).toContain('vs usual on 9 Nov');
    expect(first.queued[0]!.message.blocks.find((b) => b.type === 'actions')).toMatchObject({
      buttons: [{ label: 'Expected' }, { label: 'Not expected' }, { label: 'Details' }],
      select: { placeholder: 'Snooze…' },
    });
    // Why, and since when, one Details click away: answered to the one who clicked, nothing changed.
    const details = await dispatchClick(deps, CAROL, 'finding.details', { f: finding.id });
    expect(details.privates).toHaveLength(1);
    expect(details.updates).toHaveLength(0);
    expect(text(details.privates[0]!)).toContain(`from resource ${RUNAWAY_RESOURCE}`);
    expect(text(details.privates[0]!)).toContain('Started 8 Nov');

    // Another team's member may not answer; the owner may, once.
    const refused = await dispatchClick(deps, ALICE, 'anomaly.expected', { f: finding.id });
    expect(refused.text()).toContain('Only owners and approvers of ml can answer its anomalies.');
    const answered = await dispatchClick(deps, CAROL, 'anomaly.expected', { f: finding.id });
    expect(answered.updates).toHaveLength(1);
    expect(text(answered.updates[0]!)).toContain('Answered Expected');
    const accepted = await dispatchClick(deps, CAROL, 'finding.details', { f: finding.id });
    expect(text(accepted.privates[0]!)).toContain(`a rise of up to $5,000.00 a day in resource ${RUNAWAY_RESOURCE}`);
    const again = await dispatchClick(deps, CAROL, 'anomaly.not-expected', { f: finding.id });
    expect(again.text()).toContain(`Already answered Expected by ${CAROL}`);
    expect((await deps.store.audit.list()).map((e) => `${e.action} ${e.result}`)).toEqual([
      'anomaly.not-expected duplicate',
      'anomaly.expected ok',
      'anomaly.expected refused',
    ]);

    // The next day the sweep runs at the same level: accepted, so no new anomaly, and the open one resolves.
    await importRunawayBill(deps, '2026-11-11', [...RUNAWAY, sweepRow('2026-11-10', 5000)]);
    setNow('2026-11-11T09:00:00Z');
    const next = await runCheck(deps, anomalyCheck());
    expect(next.findings).toEqual([]);
    expect(next.resolved).toEqual([finding.id]);
    // The resolution updates the first message in place and says so; nothing new is posted.
    expect(next.queued.map((d) => d.op ?? 'post')).toEqual(['update']);
    expect(next.queued[0]!.parentKey).toBe(first.queued[0]!.dedupeKey);
    expect(text(next.queued[0]!.message)).toContain('resolved');
    expect(text(next.queued[0]!.message)).toContain('Accepted as expected.');
  });

  it('a level well above the accepted one is an anomaly again', async () => {
    const { deps, setNow } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    await importRunawayBill(deps, '2026-11-10', RUNAWAY);
    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    await dispatchClick(deps, CAROL, 'anomaly.expected', { f: finding!.id });
    await importRunawayBill(deps, '2026-11-11', [...RUNAWAY, sweepRow('2026-11-10', 12_000)]);
    setNow('2026-11-11T09:00:00Z');
    const next = await runCheck(deps, anomalyCheck());
    // The 10th's 12,000 is more than the 5,000 a day accepted: a new anomaly, from that day.
    expect(next.findings.map((f) => f.id)).toEqual(['anomaly:ml:2026-11-10']);
    expect(next.findings[0]!.drivers.find((d) => d.dimension === 'resource')).toMatchObject({ key: RUNAWAY_RESOURCE, amount: 12_000 });
  });

  it('a rising anomaly updates its message; a snoozed one says nothing', async () => {
    const { deps, setNow } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    await importRunawayBill(deps, '2026-11-10', RUNAWAY);
    const first = await runCheck(deps, anomalyCheck());
    await importRunawayBill(deps, '2026-11-11', [...RUNAWAY, sweepRow('2026-11-10', 9000)]);
    setNow('2026-11-11T09:00:00Z');
    const rising = await runCheck(deps, anomalyCheck());
    expect(rising.findings.map((f) => `${f.state} ${f.id} ${f.day}`)).toEqual(['open anomaly:ml:2026-11-08 2026-11-10']);
    expect(rising.queued.map((d) => [d.op, d.parentKey])).toEqual([['update', first.queued[0]!.dedupeKey]]);
    expect(text(rising.queued[0]!.message)).toContain('10 Nov');

    await dispatchClick(deps, CAROL, 'budget.snooze', { f: first.findings[0]!.id, for: '7d' });
    await importRunawayBill(deps, '2026-11-12', [...RUNAWAY, sweepRow('2026-11-10', 9000), sweepRow('2026-11-11', 15_000)]);
    setNow('2026-11-12T09:00:00Z');
    const snoozed = await runCheck(deps, anomalyCheck());
    expect(snoozed.findings.map((f) => f.day)).toEqual(['2026-11-11']);
    expect(snoozed.queued).toEqual([]);
  });

  it("the month's review lists the anomalies that began in it, with how each was answered", async () => {
    const { deps, setNow } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    await importRunawayBill(deps, '2026-11-10', RUNAWAY);
    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    await dispatchClick(deps, CAROL, 'anomaly.expected', { f: finding!.id });
    setNow('2026-12-01T09:00:00Z');
    const figures = await loadReviewFigures(deps, deps.config.teams[0]!, '2026-11', null);
    expect(figures.anomalies!.map((a) => [a.id, a.excess, a.answer?.verdict])).toEqual([[finding!.id, finding!.excess, 'expected']]);
    const text = renderPlainText(reviewSummary(figures, 0));
    expect(text).toContain(`Anomalies this month`);
    expect(text).toContain(`1: from 8 Nov, +$${finding!.excess.toLocaleString('en-US', { minimumFractionDigits: 2 })} vs usual`);
    expect(text).toContain('(answered Expected)');
    // October had none.
    expect((await loadReviewFigures(deps, deps.config.teams[0]!, '2026-10', null)).anomalies).toEqual([]);
  });

  it('names an open sweep finding on the resource that moved, with its Stop sweep', async () => {
    const { deps } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    await importRunawayBill(deps, '2026-11-10', RUNAWAY);
    const instance = {
      instanceId: RUNAWAY_RESOURCE,
      name: 'llm-sweep-17',
      instanceType: 'p5.48xlarge',
      gpuCount: 8,
      hourlyPrice: 98.32,
      protected: false,
      running: true,
      runningHours: 40,
      spend: 3932.8,
      gpuHours: 320,
    };
    const sweep = {
      id: 'sweep.spend:ml:lr-warmup',
      kind: 'sweep.spend' as const,
      team: 'ml',
      sweep: 'lr-warmup',
      cap: 2000,
      value: 3932.8,
      spend: 3932.8,
      gpuHours: 320,
      windowHours: 168,
      perHour: 98.32,
      instances: [instance],
    };
    await deps.store.recordRun('sweepFindings', { opened: [sweep], stillOpen: [], resolved: [] }, [], new Date('2026-11-10T08:00:00Z'));
    const run = await runCheck(deps, anomalyCheck());
    const [finding] = run.findings;
    expect(finding!.matches).toEqual([{ kind: 'sweep', findingId: sweep.id, label: 'sweep lr-warmup' }]);
    // The message queued for the team's channel.
    const message = run.queued[0]!.message;
    const details = await dispatchClick(deps, TEAM.owners[0]!, 'finding.details', { f: finding!.id });
    expect(text(details.privates[0]!)).toContain('On the resources that moved: sweep lr-warmup.');
    const stop = message.blocks
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.buttons)
      .find((b) => b.label === 'Stop sweep lr-warmup');
    expect(stop).toMatchObject({ action: `sweep.stop:${sweep.id}`, value: JSON.stringify({ f: sweep.id }) });
  });

  it('holds a team whose bill has a currency without a rate: its open anomaly stays as it was', async () => {
    const { deps, setNow } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    await importRunawayBill(deps, '2026-11-10', RUNAWAY);
    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    // A day in reais, which burnrate.yml gives no rate for: the team's figures cannot be added up.
    const brl = { ...sweepRow('2026-11-10', 100), currency: 'BRL', resourceId: 'i-brl' };
    await importRunawayBill(deps, '2026-11-11', [...RUNAWAY, brl]);
    setNow('2026-11-11T09:00:00Z');
    const held = await runCheck(deps, anomalyCheck());
    expect(held.held).toEqual(['ml']);
    expect(held.findings.map((f) => `${f.state} ${f.id}`)).toEqual([`open ${finding!.id}`]);
    expect(held.resolved).toEqual([]);
    expect(held.queued).toEqual([]);
  });

  it("a run for another team's time zone leaves this team's open anomaly as it is", async () => {
    const { deps } = testDeps({ teams: [TEAM, { id: 'vision', name: 'Vision', timezone: 'Asia/Tokyo' }] }, '2026-11-10T09:00:00Z');
    await importRunawayBill(deps, '2026-11-10', RUNAWAY);
    const [finding] = (await runCheck(deps, anomalyCheck(['ml']))).findings;
    const other = await runCheck(deps, anomalyCheck(['vision']));
    expect(other.resolved).toEqual([]);
    expect((await deps.store.anomalyFindings.get(finding!.id))!.state).toBe('open');
  });
});
