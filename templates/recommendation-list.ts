import { formatMoney } from '../src/domain/money.js';
import type { Recommendation } from '../src/domain/recommendation.js';
import type { Block, Message } from './message.js';
import type { UnreadInventory } from '../src/domain/inventory-read.js';
import { notCheckedBlocks } from './unread-inventory-notice.js';

const money = (n: number) => formatMoney(n, 'USD');

/** Every recommendation of a scope in one table, largest saving first; the evidence is in each one's own message. */
export function recommendationList(
  recommendations: readonly Recommendation[],
  scope: string,
  unavailable: readonly UnreadInventory[] = [],
): Message {
  const total = recommendations.reduce((sum, r) => sum + r.monthlySaving, 0);
  const headline =
    recommendations.length === 0
      ? `No right-size or spot recommendations for ${scope}`
      : `${recommendations.length} recommendation${recommendations.length === 1 ? '' : 's'} for ${scope}: up to ${money(total)} a month`;
  const blocks: Block[] = [{ type: 'header', text: headline }];
  if (recommendations.length > 0)
    blocks.push({
      type: 'table',
      columns: [{ label: 'Instance' }, { label: 'Change' }, { label: 'Saving a month', align: 'right' }, { label: 'Confidence' }],
      rows: recommendations.map((r) => [
        r.name ?? r.instanceId,
        r.kind === 'spot' ? `${r.current.instanceType}: on-demand → spot` : `${r.current.instanceType} → ${r.proposed.instanceType}`,
        money(r.monthlySaving),
        r.confidence,
      ]),
    });
  blocks.push({
    type: 'context',
    text:
      recommendations.length === 0
        ? 'Right-size needs GPUs far below their memory and utilisation; spot needs training or sweeps on demand tagged checkpoint=true.'
        : "Each recommendation, with its evidence and the Approve spot migration button, is posted in the team's monthly review thread.",
  });
  blocks.push(...notCheckedBlocks(unavailable, 'Its machines are unknown until it answers: they get no recommendation this time.'));
  return { summary: headline, blocks };
}
