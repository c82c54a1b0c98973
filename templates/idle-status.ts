import { instanceLabel, unpriced, type GpuFinding, type UnmeteredGpu } from '../src/domain/gpu-finding.js';
import { formatMoney } from '../src/domain/money.js';
import type { UnreadInventory } from '../src/domain/inventory-read.js';
import { notCheckedBlocks } from './unread-inventory-notice.js';
import type { Block, Message } from './message.js';

const money = (n: number) => formatMoney(n, 'USD');

/**
 * The answer to `idle`: current idle GPU instances, with how long and what they cost, and the GPU
 * instances that sent no metrics at all (nothing says whether they work).
 */
export function idleStatus(
  findings: readonly GpuFinding[],
  scope: string,
  noMetrics: readonly UnmeteredGpu[] = [],
  unavailable: readonly UnreadInventory[] = [],
): Message {
  const silent = [
    ...notCheckedBlocks(unavailable, 'Its machines are unknown until it answers: their open idle alerts stay as they were.'),
    ...noMetricsBlocks(noMetrics),
  ];
  if (findings.length === 0) {
    const text = `No idle GPUs for ${scope} right now.`;
    return { summary: text, blocks: [{ type: 'text', text }, ...silent] };
  }
  const perDay = findings.reduce((sum, f) => sum + f.perDay, 0);
  const burned = findings.reduce((sum, f) => sum + f.burned, 0);
  const headline = `Idle GPUs of ${scope}: ${findings.length}, ${money(perDay)} per day`;
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: headline },
      {
        type: 'table',
        columns: [
          { label: 'Instance' },
          { label: 'Type' },
          { label: 'Team' },
          { label: 'Idle' },
          { label: 'Burned', align: 'right' },
          { label: 'Per day', align: 'right' },
        ],
        rows: findings.map((f) => [
          instanceLabel(f),
          f.instanceType,
          f.team ?? '(none)',
          f.kind === 'gpu.stalled' ? `stalled, ${f.description.replace(/^idle /, '')}` : f.description.replace(/^idle /, ''),
          // Without a price its amounts are unknown, not zero.
          unpriced(f) ? 'unknown' : money(f.burned),
          unpriced(f) ? 'no price' : money(f.perDay),
        ]),
      },
      { type: 'context', text: `${money(burned)} burned while idle so far. Instances someone chose to keep running are not listed.` },
      ...silent,
    ],
  };
}

/** "No GPU metrics: 2 instances ($12.34 per hour)", with each one; nothing when every GPU reports. */
function noMetricsBlocks(noMetrics: readonly UnmeteredGpu[]): Block[] {
  if (noMetrics.length === 0) return [];
  const perHour = noMetrics.reduce((sum, u) => sum + u.hourlyPrice, 0);
  return [
    {
      type: 'text',
      text: `**No GPU metrics**: ${noMetrics.length} GPU instance${noMetrics.length === 1 ? '' : 's'} (${money(perHour)} per hour) sent none in the lookback, so burnrate cannot say whether they work: ${noMetrics
        .map((u) => `${instanceLabel(u)} (${u.instanceType}, ${u.team ?? 'no team'})`)
        .join(', ')}.`,
    },
    { type: 'context', text: 'Is the DCGM exporter (or the CloudWatch agent) running on them, and does the metrics source scrape it?' },
    ...[...new Set(noMetrics.flatMap((u) => (u.hint ? [u.hint] : [])))].map(
      (hint): Block => ({
        type: 'context',
        text: `${noMetrics
          .filter((u) => u.hint === hint)
          .map((u) => instanceLabel(u))
          .join(', ')}: ${hint}.`,
      }),
    ),
  ];
}

/** The once-a-day notice to a team whose GPU instances send no metrics. */
export function metricsCoverageNotice(teamName: string, noMetrics: readonly UnmeteredGpu[]): Message {
  const headline = `${teamName}: ${noMetrics.length} GPU instance${noMetrics.length === 1 ? '' : 's'} send${noMetrics.length === 1 ? 's' : ''} no GPU metrics`;
  return { summary: headline, blocks: [{ type: 'header', text: headline }, ...noMetricsBlocks(noMetrics)] };
}
