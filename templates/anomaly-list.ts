import type { TrackedAnomalyFinding } from '../src/domain/anomaly-finding.js';
import { formatMoney } from '../src/domain/money.js';
import { anomalyWhy } from './anomaly-alert.js';
import { shortDate } from './freshness.js';
import type { Message } from './message.js';

export interface AnomalyListData {
  /** Whose: a team's name, or "your teams". */
  scope: string;
  days: number;
  anomalies: readonly TrackedAnomalyFinding[];
}

/** How an anomaly stands: open or resolved, and how the team answered it. */
export function anomalyStanding(f: Pick<TrackedAnomalyFinding, 'state' | 'answer'>): string {
  const answered = f.answer ? (f.answer.verdict === 'expected' ? 'answered Expected' : 'answered Not expected') : 'unanswered';
  return `${f.state === 'resolved' ? 'resolved' : 'open'}, ${answered}`;
}

/** The spend anomalies of the last days, newest first, each with why it moved and how it stands. */
export function anomalyList(data: AnomalyListData): Message {
  const headline = `Spend anomalies of ${data.scope}, last ${data.days} days`;
  if (data.anomalies.length === 0)
    return {
      summary: headline,
      blocks: [
        { type: 'header', text: headline },
        { type: 'text', text: 'None: every day was within its expected range.' },
      ],
    };
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: headline },
      {
        type: 'table',
        columns: [
          { label: 'Team' },
          { label: 'Started' },
          { label: 'Spent', align: 'right' },
          { label: 'Expected', align: 'right' },
          { label: 'Why' },
          { label: 'Now' },
        ],
        rows: data.anomalies.map((f) => [
          f.team,
          shortDate(f.started),
          formatMoney(f.actual, f.currency),
          formatMoney(f.expected, f.currency),
          anomalyWhy(f),
          anomalyStanding(f),
        ]),
      },
    ],
  };
}
