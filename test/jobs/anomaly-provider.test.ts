import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import { configSchema } from '../../src/config/schema.js';
import { runCheck } from '../../src/jobs/run-check.js';
import { buildSources } from '../../src/providers/registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { anomalyDetails } from '../../templates/anomaly-alert.js';
import type { FakeAwsBilling } from '../fakes/fake-aws-billing.js';
import {
  ANOMALY_MONITOR as MONITOR,
  costExplorerAnomaly,
  startFakeCostExplorer,
  stopFakeCostExplorer,
} from '../support/cost-explorer-anomalies.js';
import { CAROL } from '../support/demo-org.js';
import { testDeps } from '../support/deps.js';
import { dispatchClick } from '../support/dispatch-click.js';
import { importRunawayBill, sweepRow } from '../support/runaway-bill.js';

// AWS Cost Anomaly Detection in the anomaly check, through the real Cost Explorer client against
// the fake speaking its JSON protocol: AWS's anomaly shown to the monitor's team (alone, or on
// burnrate's own anomaly of the same days), the team's answer sent back once as feedback, and a
// Cost Explorer that fails holding nothing else up.

const TEAM = { id: 'ml', name: 'ML', owners: [CAROL] };
const SOURCE = { type: 'aws', maxAttempts: 1, anomalies: { monitors: [{ arn: MONITOR, team: 'ml' }] } };

const awsAnomaly = (id: string, start: string, impact: number, extra: Record<string, unknown> = {}) =>
  costExplorerAnomaly(id, start, impact, { expected: 2000, extra });

let fake: FakeAwsBilling;

beforeEach(async () => {
  fake = await startFakeCostExplorer({
    anomalies: [
      awsAnomaly('a-1', '2026-11-08', 4210),
      // Ended a week ago, and one under the team's $200 floor: neither says anything.
      awsAnomaly('a-old', '2026-11-01', 900, { AnomalyEndDate: '2026-11-02T00:00:00Z' }),
      awsAnomaly('a-small', '2026-11-09', 50),
    ],
  });
});

afterEach(() => stopFakeCostExplorer(fake));

/** The team's deps with the monitor's anomaly source, as runtime builds it from burnrate.yml. */
function depsWithMonitor() {
  const t = testDeps({ teams: [TEAM] }, '2026-11-10T09:00:00Z');
  t.deps.anomalySources = buildSources(configSchema.parse({ teams: [TEAM], sources: [SOURCE] })).anomalies;
  return t;
}

const feedbackCalls = () => fake.callsOf('ProvideAnomalyFeedback').map((c) => c.input);

describe("AWS Cost Anomaly Detection's anomalies in the anomaly check", () => {
  it("imports AWS's anomaly as one alert with its root causes; Expected sends PLANNED_ACTIVITY once", async () => {
    const { deps } = depsWithMonitor();
    // The team's usual bill: burnrate's own rules find nothing.
    await importRunawayBill(deps, '2026-11-10', []);
    const run = await runCheck(deps, anomalyCheck());
    expect(run.findings.map((f) => `${f.state} ${f.id}`)).toEqual(['new anomaly:ml:aws:anomalies:0a1b2c3d-services:a-1']);
    expect(run.findings[0]).toMatchObject({ started: '2026-11-08', excess: 4210, actual: 6210, expected: 2000 });
    expect(run.queued).toHaveLength(1);
    const alert = renderPlainText(run.queued[0]!.message);
    expect(alert).toContain('AWS Cost Anomaly Detection: +$4,210.00 vs expected since 8 Nov');
    // Its root causes are in the alert's Details.
    expect(renderPlainText(anomalyDetails(run.findings[0]!, 'ML'))).toContain(
      'Root causes: service Amazon SageMaker, account ml-prod, region us-east-1, usage type USE1-ml.p5.48xlarge (+$3,283.80).',
    );
    // One window of days, for the configured monitor only.
    expect(fake.callsOf('GetAnomalies').map((c) => c.input)).toEqual([
      { DateInterval: { StartDate: '2026-10-10', EndDate: '2026-11-10' }, MonitorArn: MONITOR, MaxResults: 100 },
    ]);

    const id = run.findings[0]!.id;
    const answered = await dispatchClick(deps, CAROL, 'anomaly.expected', { f: id });
    expect(renderPlainText(answered.updates[0]!)).toContain('Answered Expected');
    await dispatchClick(deps, CAROL, 'anomaly.expected', { f: id });
    await dispatchClick(deps, CAROL, 'anomaly.not-expected', { f: id });
    // One feedback for three clicks: the first answer is the one sent.
    expect(feedbackCalls()).toEqual([{ AnomalyId: 'a-1', Feedback: 'PLANNED_ACTIVITY' }]);
    expect((await deps.store.audit.list()).map((e) => `${e.action} ${e.result}`)).toEqual([
      'anomaly.not-expected duplicate',
      'anomaly.expected duplicate',
      'anomaly.expected ok',
    ]);
    expect((await deps.store.audit.list()).at(-1)!.detail).toBe('expected; AWS Cost Anomaly Detection feedback PLANNED_ACTIVITY on a-1');
    // Accepted at AWS; burnrate has no driver of its own to accept for it.
    expect((await deps.store.anomalyFindings.get(id))!.answer!.accepted).toBeUndefined();
    fake.assertNoUnexpectedCalls();
  });

  it("shows AWS's anomaly on burnrate's own for the same days: one message, and Not expected sends YES", async () => {
    const { deps } = depsWithMonitor();
    await importRunawayBill(deps, '2026-11-10', [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)]);
    const run = await runCheck(deps, anomalyCheck());
    expect(run.findings.map((f) => f.id)).toEqual(['anomaly:ml:2026-11-08']);
    expect(run.findings[0]!.provider).toMatchObject({ id: 'a-1', alone: false, impact: 4210 });
    expect(run.queued).toHaveLength(1);
    const alert = renderPlainText(run.queued[0]!.message);
    expect(alert).toContain('spend anomaly, +$');
    expect(renderPlainText(anomalyDetails(run.findings[0]!, 'ML'))).toContain(
      'AWS Cost Anomaly Detection found it too (since 8 Nov, +$4,210.00).',
    );

    // A double click, both at once: one answer, one feedback.
    await Promise.all([
      dispatchClick(deps, CAROL, 'anomaly.not-expected', { f: run.findings[0]!.id }),
      dispatchClick(deps, CAROL, 'anomaly.not-expected', { f: run.findings[0]!.id }),
    ]);
    expect(feedbackCalls()).toEqual([{ AnomalyId: 'a-1', Feedback: 'YES' }]);
    expect((await deps.store.audit.list()).map((e) => e.result).sort()).toEqual(['duplicate', 'ok']);
    fake.assertNoUnexpectedCalls();
  });

  it('a failing Cost Explorer holds nothing else up: burnrate judges its own data, and AWS’s open anomaly stays', async () => {
    const { deps, setNow } = depsWithMonitor();
    await importRunawayBill(deps, '2026-11-10', []);
    const first = await runCheck(deps, anomalyCheck());
    expect(first.findings.map((f) => f.id)).toEqual(['anomaly:ml:aws:anomalies:0a1b2c3d-services:a-1']);

    // The next day a sweep runs away and Cost Explorer refuses.
    fake.failNext('GetAnomalies', 'AccessDenied');
    await importRunawayBill(deps, '2026-11-11', [sweepRow('2026-11-09', 5000), sweepRow('2026-11-10', 5000)]);
    setNow('2026-11-11T09:00:00Z');
    const next = await runCheck(deps, anomalyCheck());
    expect(next.findings.map((f) => `${f.state} ${f.id}`)).toEqual([
      'new anomaly:ml:2026-11-09',
      'open anomaly:ml:aws:anomalies:0a1b2c3d-services:a-1',
    ]);
    expect(next.resolved).toEqual([]);
    expect(next.queued).toHaveLength(1);
    expect(renderPlainText(next.queued[0]!.message)).not.toContain('AWS Cost Anomaly Detection');
  });
});

describe('anomalies on an aws source in burnrate.yml', () => {
  const issues = (source: unknown) =>
    configSchema.safeParse({ teams: [TEAM], sources: [source] }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('refuses a monitor that is not an ARN, or a team burnrate.yml does not define, saying what to write', () => {
    expect(issues({ type: 'aws', anomalies: { monitors: [{ arn: 'services', team: 'ml' }] } })).toEqual([
      'sources.0.anomalies.monitors.0.arn: expected a Cost Anomaly Detection monitor ARN such as arn:aws:ce::123456789012:anomalymonitor/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
    ]);
    expect(issues({ type: 'aws', anomalies: { monitors: [{ arn: MONITOR, team: 'nlp' }] } })).toEqual([
      'sources.0.anomalies.monitors.0.team: unknown team "nlp"; expected one of ml',
    ]);
    expect(issues({ type: 'aws', anomalies: { monitors: [] } })).toEqual([
      'sources.0.anomalies.monitors: expected at least one monitor: { arn: <monitor ARN>, team: <team id> }',
    ]);
  });
});
