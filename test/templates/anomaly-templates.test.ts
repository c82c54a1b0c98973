import { describe, expect, it } from 'vitest';
import { anomalyAlert } from '../../templates/anomaly-alert.js';
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

describeRenderings({
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
