import { describe, expect, it } from 'vitest';
import { anomalyAlert, anomalyDetails, anomalyWhy } from '../../templates/anomaly-alert.js';
import { firstSectionWords } from '../support/first-section.js';
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
  'anomaly details': anomalyDetails(expected, 'ML'),
});

describe('an anomaly alert on a phone', () => {
  it('says what, how much and who in at most 25 words before its buttons; the evidence is in its Details', () => {
    const hourly = {
      ...SAMPLE_ANOMALY,
      hourly: { startedAt: '2026-11-09T22:00:00Z', through: '2026-11-10T04:00:00Z', hours: 6, perDay: 7_480 },
    };
    const alerts = {
      own: anomalyAlert({ teamName: 'ML Research', finding: SAMPLE_ANOMALY, resolved: false }),
      'with AWS': anomalyAlert({ teamName: 'ML Research', finding: withAws, resolved: false }),
      'AWS alone': anomalyAlert({ teamName: 'ML Research', finding: awsAlone, resolved: false }),
      hourly: anomalyAlert({ teamName: 'ML Research', finding: hourly, resolved: false }),
      answered: anomalyAlert({ teamName: 'ML Research', finding: expected, resolved: false, answeredBy: CAROL }),
      resolved: anomalyAlert({ teamName: 'ML Research', finding: SAMPLE_ANOMALY, resolved: true }),
    };
    for (const [name, alert] of Object.entries(alerts)) {
      expect(firstSectionWords(alert).lead, name).toBeLessThanOrEqual(25);
      expect(
        alert.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.buttons.map((x) => x.label)),
        name,
      ).toContain('Details');
    }
  });
});

describe('anomaly alert wording', () => {
  it('says how much above usual and what moved most; its Details say what else moved, since when, and what it was judged on', () => {
    expect(renderPlainText(anomalyAlert({ teamName: 'ML', finding: SAMPLE_ANOMALY, resolved: false }))).toContain(
      '$5,210.00 so far spent on 9 Nov, $1,000.00 expected; 78% from resource llm-sweep-17 (i-0abc).',
    );
    const text = renderPlainText(anomalyDetails(SAMPLE_ANOMALY, 'ML'));
    expect(text).toContain('+$4,210.00 vs usual: 78% from resource llm-sweep-17 (i-0abc), 95% from service Amazon SageMaker');
    expect(text).toContain('Started 8 Nov');
    expect(text).toContain('still filling in');
    expect(text).toContain('Judged on 12 days of history only');
    expect(text).toContain(`finding ${SAMPLE_ANOMALY.id}`);
  });

  it('an answered anomaly shows who answered and keeps only Details; what the answer accepts is in its Details', () => {
    const message = anomalyAlert({ teamName: 'ML', finding: expected, resolved: false, answeredBy: CAROL });
    expect(renderPlainText(message)).toContain('Answered Expected');
    expect(renderPlainText(anomalyDetails(expected, 'ML'))).toContain(
      'a rise of up to $3,300.00 a day in resource llm-sweep-17 (i-0abc) is taken as expected',
    );
    expect(message.blocks.filter((b) => b.type === 'actions').flatMap((b) => b.buttons.map((x) => x.label))).toEqual(['Details']);
  });
});

describe("the clouds' anomalies in the alert", () => {
  it("names AWS's anomaly and its root causes, largest first, on burnrate's own", () => {
    const text = renderPlainText(anomalyDetails(withAws, 'ML'));
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
    expect(message.blocks.find((b) => b.type === 'actions')).toMatchObject({
      buttons: [{ label: 'Expected' }, { label: 'Not expected' }, { label: 'Details' }],
    });
    expect(renderPlainText(anomalyDetails(awsAlone, 'ML'))).toContain("Found by AWS Cost Anomaly Detection, not by burnrate's own rules");
  });
});
