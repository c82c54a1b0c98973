import { leftOutNote } from '../src/domain/left-out-currencies.js';
import { formatMoney } from '../src/domain/money.js';
import type { SavingsLedger } from '../src/domain/saving.js';
import { personIn, timeOf, type Mention, type Message } from './message.js';

/** Rows shown in chat; the CLI's `savings` and `--json` list every one. */
const MAX_ROWS = 20;

/**
 * `/burnrate savings`: what actions taken through burnrate saved in a month, confirmed by the bill,
 * beside what they were expected to save; one row per action, who took it named.
 */
export function savingsLedgerMessage(ledger: SavingsLedger, scope: string, person: (userId: string) => Mention): Message {
  const money = (n: number) => formatMoney(n, ledger.currency);
  const month = ledger.period.start.slice(0, 7);
  const headline = `Savings ${month} for ${scope}: ${money(ledger.realised)} confirmed, ${money(ledger.expected)} expected`;
  const through = ledger.billedThrough ? ` (the bill is read up to ${ledger.billedThrough})` : '';
  const leftOut = leftOutNote(ledger.missing ?? [], ledger.currency);
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: headline },
      ledger.lines.length === 0
        ? { type: 'text', text: 'No action taken through burnrate counts in this month yet.' }
        : {
            type: 'table',
            columns: [
              { label: 'Resource' },
              { label: 'Action' },
              { label: 'By' },
              { label: 'Expected', align: 'right' },
              { label: 'Confirmed', align: 'right' },
            ],
            rows: ledger.lines
              .slice(0, MAX_ROWS)
              .map((l) => [
                l.name ? `${l.name} (${l.resourceId})` : l.resourceId,
                `${l.action} ${timeOf(l.at)}`,
                personIn(person(l.byUser)),
                money(l.expected),
                l.realised === null ? '—' : money(l.realised),
              ]),
          },
      ...(ledger.lines.length > MAX_ROWS
        ? [
            {
              type: 'context' as const,
              text: `${ledger.lines.length - MAX_ROWS} more: \`burnrate savings --month ${month}\` lists them all.`,
            },
          ]
        : []),
      {
        type: 'context',
        text: `Confirmed: ${ledger.basis.realised}${through}. Expected: ${ledger.basis.expected}.${leftOut ? ` ${leftOut}` : ''}`,
      },
    ],
  };
}
