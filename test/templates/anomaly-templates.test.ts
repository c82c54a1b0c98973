import { describe, expect, it } from 'vitest';
import { anomalyAlert, anomalyWhy } from '../../templates/anomaly-alert.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { describeRenderings } from '../support/renderings.js';
import { SAMPLE_ANOMALY } from '../support/anomaly-finding.js';

const CAROL = { id: 'U0DEMOCAROL', name: 'Carol', group: false };
const expected = {
  ...SAMPLE_ANOMALY,
  answer: {
    verdict: 'expected' as const,
    by: CAROL.id,
    at: '2026-11-10T10:00:00Z',
    reason: 'planned launch',
    accepted: { dimension: 'resource' as const, key: 'llm-sweep-17 (i-0abc)', delta: 3300 },
  },
};

/** AWS Cost Anomaly Detection's anomaly as the check shows it, on burnrate's own or alone. */
const AWS_NOTE = {
  source: 'aws:anomalies:0a1b2c3d-services',
  label: 'AWS Cost Anomaly Detection',
  id: 'a-1',
  start: '2026-11-08',
  end: null,
  impact: 4100,
  actual: 6100,
  expected: 2000,
  rootCauses: [
    { service: 'Amazon SageMaker', region: 'us-east-1', account: 'ml-prod', usageType: 'USE1-ml.p5.48xlarge', contribution: 3198 },
    { service: 'Amazon EC2', region: null, account: null, usageType: null, contribution: 902 },
  ],
};
const withAws = { ...SAMPLE_ANOMALY, provider: { ...AWS_NOTE, alone: false } };
const awsAlone = {
  ...SAMPLE_ANOMALY,
  id: 'anomaly:ml:aws:anomalies:0a1b2c3d-services:a-1',
  started: '2026-11-08',
  day: '2026-11-08',
  actual: 6100,
  expected: 2000,
  excess: 4100,
  deviations: 0,
  provisional: false,
  shortHistory: false,
  drivers: [],
  provider: { ...AWS_NOTE, alone: true },
};

describeRenderings({
  'anomaly with AWS Cost Anomaly Detection': anomalyAlert({ teamName: 'ML', finding: withAws, resolved: false }),
  'AWS Cost Anomaly Detection anomaly alone': anomalyAlert({ teamName: 'ML', finding: awsAlone, resolved: false }),
  'anomaly alert': anomalyAlert({ teamName: 'ML', finding: SAMPLE_ANOMALY, resolved: false }),
  'anomaly answered Expected': anomalyAlert({ teamName: 'ML', finding: expected, resolved: false, answeredBy: CAROL }),
  'anomaly resolved': anomalyAlert({ teamName: 'ML', finding: { ...SAMPLE_ANOMALY, provisional: false }, resolved: true }),
});

describe('anomaly alert wording', () => {
  it('says how much above usual, what moved with its share, when it started, and what it was judged on', () => {
    const text = renderPlainText(anomalyAlert({ teamName: 'ML', finding: SAMPLE_ANOMALY, resolved: false }));
    expect(text).toContain('+$4,210.00 vs usual: 78% from resource llm-sweep-17 (i-0abc), 95% from service Amazon SageMaker');
    expect(text).toContain('Started 8 Nov');
    expect(text).toContain('still filling in');
    expect(text).toContain('Judged on 12 days of history only');
  });

  it('an answered anomaly shows the answer and what it accepts, and loses its buttons', () => {
    const message = anomalyAlert({ teamName: 'ML', finding: expected, resolved: false, answeredBy: CAROL });
    expect(renderPlainText(message)).toContain('a rise of up to $3,300.00 a day in resource llm-sweep-17 (i-0abc) is taken as expected');
    expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
  });
});

describe("the clouds' anomalies in the alert", () => {
  it("names AWS's anomaly and its root causes, largest first, on burnrate's own", () => {
    const text = renderPlainText(anomalyAlert({ teamName: 'ML', finding: withAws, resolved: false }));
    expect(text).toContain('AWS Cost Anomaly Detection found it too (since 8 Nov, +$4,100.00).');
    expect(text).toContain(
      'Root causes: service Amazon SageMaker, account ml-prod, region us-east-1, usage type USE1-ml.p5.48xlarge (+$3,198.00); service Amazon EC2 (+$902.00).',
    );
  });

  it("labels one AWS alone found as AWS's, with its figures over its days and the buttons that answer both", () => {
    const message = anomalyAlert({ teamName: 'ML', finding: awsAlone, resolved: false });
    const text = renderPlainText(message);
    expect(message.summary).toBe('🔺 ML: AWS Cost Anomaly Detection: +$4,100.00 vs expected since 8 Nov');
    expect(text).toContain('$6,100.00 spent on 8 Nov against $2,000.00 it expected');
    expect(text).not.toContain('robust deviations');
    // The lists and the review say whose expectation it is.
    expect(anomalyWhy(awsAlone)).toBe('+$4,100.00 vs expected by AWS Cost Anomaly Detection');
    expect(message.blocks.find((b) => b.type === 'actions')).toMatchObject({ buttons: [{ label: 'Expected' }, { label: 'Not expected' }] });
  });
});
