import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostAnomalies } from '../../../src/providers/aws/cost-anomalies.js';
import { providerFeedbackOf } from '../../../src/domain/provider-anomaly.js';
import type { FakeAwsBilling } from '../../fakes/fake-aws-billing.js';
import { costExplorerAnomaly, ec2Cause, startFakeCostExplorer, stopFakeCostExplorer } from '../../support/cost-explorer-anomalies.js';

// AWS Cost Anomaly Detection through the real SDK client, against the fake Cost Explorer speaking
// its JSON protocol on 127.0.0.1: anomalies with their root causes, every page, and the team's
// answer sent back as feedback.

const anomaly = (id: string, start: string, impact: number, extra: Record<string, unknown> = {}) =>
  costExplorerAnomaly(id, start, impact, { expected: 1000, moreCauses: [ec2Cause(impact)], extra });

let fake: FakeAwsBilling;

beforeEach(async () => {
  fake = await startFakeCostExplorer({
    anomalies: [
      anomaly('a-1', '2026-11-08', 4210),
      anomaly('a-2', '2026-11-02', 900, { AnomalyEndDate: '2026-11-03T00:00:00Z' }),
      anomaly('a-0', '2026-10-01', 50),
    ],
    anomaliesPerPage: 1,
  });
});

afterEach(() => stopFakeCostExplorer(fake));

describe('AWS Cost Anomaly Detection', () => {
  it('lists the anomalies that began in the days asked for, every page, with their root causes', async () => {
    const anomalies = await new CostAnomalies({ maxAttempts: 1 }).list('2026-11-01', '2026-12-01');
    expect(anomalies.map((a) => [a.id, a.start, a.end, a.impact, a.actual, a.expected, a.score])).toEqual([
      ['a-1', '2026-11-08', null, 4210, 5210, 1000, 88.2],
      ['a-2', '2026-11-02', '2026-11-03', 900, 1900, 1000, 88.2],
    ]);
    expect(anomalies[0]!.rootCauses[0]).toEqual({
      service: 'Amazon SageMaker',
      region: 'us-east-1',
      account: 'ml-prod',
      usageType: 'USE1-ml.p5.48xlarge',
      contribution: 4210 * 0.78,
    });
    // One page each (the fake pages by one), signed for Cost Explorer in us-east-1.
    expect(fake.callsOf('GetAnomalies').map((c) => c.input.NextPageToken ?? null)).toHaveLength(2);
    expect(fake.callsOf('GetAnomalies')[0]!.input).toMatchObject({
      DateInterval: { StartDate: '2026-11-01', EndDate: '2026-12-01' },
      MaxResults: 100,
    });
    fake.assertNoUnexpectedCalls();
  });

  it("sends a team's answer back as feedback: Expected as planned activity, Not expected as a real anomaly", async () => {
    const aws = new CostAnomalies({ maxAttempts: 1 });
    await aws.feedback('a-1', providerFeedbackOf('expected'));
    await aws.feedback('a-2', providerFeedbackOf('not-expected'));
    expect(fake.callsOf('ProvideAnomalyFeedback').map((c) => c.input)).toEqual([
      { AnomalyId: 'a-1', Feedback: 'PLANNED_ACTIVITY' },
      { AnomalyId: 'a-2', Feedback: 'YES' },
    ]);
    const after = await aws.list('2026-11-01', '2026-12-01');
    expect(after.map((a) => [a.id, a.feedback])).toEqual([
      ['a-1', 'PLANNED_ACTIVITY'],
      ['a-2', 'YES'],
    ]);
    fake.assertNoUnexpectedCalls();
  });

  it('says which permission is missing when AWS refuses', async () => {
    fake.failNext('GetAnomalies', 'AccessDenied');
    await expect(new CostAnomalies({ maxAttempts: 1 }).list('2026-11-01', '2026-12-01')).rejects.toThrow(/ce:GetAnomalies/);
  });
});
