import { instanceLabel, type GpuFinding } from '../src/domain/gpu-finding.js';
import { formatMoney } from '../src/domain/money.js';
import type { Message } from './message.js';

const money = (n: number) => formatMoney(n, 'USD');

/** The answer to `idle`: current idle GPU instances, with how long and what they cost. */
export function idleStatus(findings: readonly GpuFinding[], scope: string): Message {
  if (findings.length === 0) {
    const text = `No idle GPUs for ${scope} right now.`;
    return { summary: text, blocks: [{ type: 'text', text }] };
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
          money(f.burned),
          money(f.perDay),
        ]),
      },
      { type: 'context', text: `${money(burned)} burned while idle so far. Instances someone chose to keep running are not listed.` },
    ],
  };
}
