import { formatMoney } from '../src/domain/money.js';
import type { Mention, Message } from './message.js';

export interface BudgetChangedData {
  teamName: string;
  cadence: 'monthly' | 'weekly';
  amount: number;
  /** The budget in force before; null when the team had none for this cadence. */
  previous: number | null;
  currency: string;
  by: Mention;
}

/** The channel is told when its budget changes, by whom, and that its open alerts now use it. */
export function budgetChanged(d: BudgetChangedData): Message {
  const money = (n: number) => formatMoney(n, d.currency);
  const text = `${d.teamName}'s ${d.cadence} budget is now **${money(d.amount)}**${d.previous === null ? '' : ` (was ${money(d.previous)})`}.`;
  return {
    summary: text.replace(/\*\*/g, ''),
    blocks: [
      { type: 'text', text },
      { type: 'mentions', lead: 'Changed by', people: [d.by] },
      { type: 'context', text: 'The budget check ran again with it: open alerts show the new budget.' },
    ],
  };
}
