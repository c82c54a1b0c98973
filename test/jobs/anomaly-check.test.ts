import { describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import type { Deps } from '../../src/deps.js';
import { daysOf, weekdayOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { runCheck } from '../../src/jobs/run-check.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import type { Message } from '../../templates/message.js';
import { testDeps, spendRow } from '../support/deps.js';
import { dispatchClick } from '../support/dispatch-click.js';
import { ALICE, CAROL } from '../support/demo-org.js';

// A hand-written bill: five weeks of a training team's usual spend (weekdays about $1,000 on its
// base machines, weekends about $400), then a sweep that runs away on llm-sweep-17 for two days.

const TEAM = { id: 'ml', name: 'ML', owners: [CAROL] };
const SWEEP = 'i-llm-sweep-17';

/** The team's usual day: deterministic wiggle of a few percent around the weekday's level. */
function usualRow(day: string, i: number): SpendRow {
  const weekend = [0, 6].includes(weekdayOf(day));
  const amount = (weekend ? 400 : 1000) * (1 + (((i * 37) % 11) - 5) / 100);
  return { ...spendRow('ml', day, Math.round(amount * 100) / 100), resourceId: 'i-base' };
}

function sweepRow(day: string, amount: number): SpendRow {
  return { ...spendRow('ml', day, amount), resourceId: SWEEP, service: 'Amazon SageMaker' };
}

async function importDays(deps: Deps, rows: SpendRow[], through: string) {
  await deps.store.importBatches([
    {
      scope: { source: 'test', billingPeriods: [...new Set(rows.map((r) => r.billingPeriod))] },
      rows,
      dataThrough: `${through}T00:00:00Z`,
    },
  ]);
}

const text = (m: Message) => renderPlainText(m);

describe('the anomaly check on a bill with a runaway sweep', () => {
  it('alerts once with its drivers; answered Expected, the same level for that driver raises nothing', async () => {
    const { deps, setNow } = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
    const usual = daysOf({ start: '2026-10-01', end: '2026-11-12' }).map(usualRow);
    const runaway = [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)];
    // Data through 9 Nov: the 9th is the provisional day.
    await importDays(deps, [...usual.filter((r) => r.day < '2026-11-10'), ...runaway], '2026-11-10');

    const first = await runCheck(deps, anomalyCheck());
    expect(first.findings.map((f) => `${f.state} ${f.id}`)).toEqual(['new anomaly:ml:2026-11-08']);
    const finding = first.findings[0]!;
    expect(finding.day).toBe('2026-11-09');
    expect(finding.provisional).toBe(true);
    // Independent: what the test wrote for the 9th.
    const written = [...usual, ...runaway].filter((r) => r.day === '2026-11-09').reduce((s, r) => s + r.effective, 0);
    expect(finding.actual).toBeCloseTo(written, 2);
    // The 9th is a Monday: about 1,000 expected, so the excess is about the sweep's 5,000.
    expect(finding.expected).toBeGreaterThan(900);
    expect(finding.expected).toBeLessThan(1100);
    expect(finding.excess).toBeCloseTo(written - finding.expected, 2);
    const topResource = finding.drivers.find((d) => d.dimension === 'resource')!;
    expect(topResource).toMatchObject({ key: SWEEP, amount: 5000, usual: 0, delta: 5000 });
    const topService = finding.drivers.find((d) => d.dimension === 'service')!;
    expect(topService).toMatchObject({ key: 'Amazon SageMaker', amount: 5000 });
    // One message to the team's channel, with why and the three answers.
    expect(first.queued).toHaveLength(1);
    const alert = text(first.queued[0]!.message);
    expect(alert).toContain('from resource i-llm-sweep-17');
    expect(alert).toContain('Started');
    expect(first.queued[0]!.message.blocks.find((b) => b.type === 'actions')).toMatchObject({
      buttons: [{ label: 'Expected' }, { label: 'Not expected' }],
      select: { placeholder: 'Snooze…' },
    });

    // Another team's member may not answer; the owner may, once.
    const refused = await dispatchClick(deps, ALICE, 'anomaly.expected', { f: finding.id });
    expect(refused.text()).toContain('Only owners and approvers of ml can answer its anomalies.');
    const answered = await dispatchClick(deps, CAROL, 'anomaly.expected', { f: finding.id });
    expect(answered.updates).toHaveLength(1);
    expect(text(answered.updates[0]!)).toContain('Answered Expected');
    expect(text(answered.updates[0]!)).toContain('i-llm-sweep-17');
    const again = await dispatchClick(deps, CAROL, 'anomaly.not-expected', { f: finding.id });
    expect(again.text()).toContain(`Already answered Expected by ${CAROL}`);
    expect((await deps.store.audit.list()).map((e) => `${e.action} ${e.result}`)).toEqual([
      'anomaly.not-expected duplicate',
      'anomaly.expected ok',
      'anomaly.expected refused',
    ]);

    // The next day the sweep runs at the same level: accepted, so no new anomaly, and the open one resolves.
    await importDays(deps, [...usual.filter((r) => r.day <= '2026-11-10'), ...runaway, sweepRow('2026-11-10', 5000)], '2026-11-11');
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
    const usual = daysOf({ start: '2026-10-01', end: '2026-11-12' }).map(usualRow);
    const runaway = [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)];
    await importDays(deps, [...usual.filter((r) => r.day < '2026-11-10'), ...runaway], '2026-11-10');
    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    await dispatchClick(deps, CAROL, 'anomaly.expected', { f: finding!.id });
    await importDays(deps, [...usual.filter((r) => r.day <= '2026-11-10'), ...runaway, sweepRow('2026-11-10', 12_000)], '2026-11-11');
    setNow('2026-11-11T09:00:00Z');
    const next = await runCheck(deps, anomalyCheck());
    // The 10th's 12,000 is more than the 5,000 a day accepted: a new anomaly, from that day.
    expect(next.findings.map((f) => f.id)).toEqual(['anomaly:ml:2026-11-10']);
    expect(next.findings[0]!.drivers.find((d) => d.dimension === 'resource')).toMatchObject({ key: SWEEP, amount: 12_000 });
  });
});
