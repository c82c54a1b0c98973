import type { Correction } from '../src/domain/correction.js';
import { formatMoney } from '../src/domain/money.js';
import { monthName } from './freshness.js';
import type { Message } from './message.js';

/** Told in a posted review's thread: a later invoice corrected this month's charges, so its figures moved. */
export function reviewCorrection(data: { month: string; correction: Correction }): Message {
  const c = data.correction;
  const line = c.resourceId ? `${c.service}, ${c.resourceName ? `${c.resourceName} (${c.resourceId})` : c.resourceId}` : c.service;
  const amount = formatMoney(c.effective, c.currency);
  const text = `The ${monthName(c.billingPeriod)} invoice corrects ${monthName(data.month)}: ${amount} on ${line}. The figures above were posted before it.`;
  return {
    summary: `Correction: ${amount} on ${line}`,
    blocks: [
      { type: 'text', text },
      { type: 'context', text: `billed ${formatMoney(c.billed, c.currency)} · effective ${amount} · ChargeClass Correction` },
    ],
  };
}
