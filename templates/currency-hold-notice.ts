import { fxRatesSetting } from '../src/domain/check-hold.js';
import type { Message } from './message.js';

/**
 * Told to a team whose spend comes in a currency burnrate.yml gives no exchange rate for: its budget
 * checks are held (amounts in two currencies are never added), and the setting to add is right there.
 */
export function currencyHoldNotice(data: {
  teamName: string;
  budgetCurrency: string;
  currencies: readonly string[];
  base: string;
}): Message {
  const list = data.currencies.join(', ');
  return {
    summary: `${data.teamName}: budget alerts on hold, no exchange rate for ${list}`,
    blocks: [
      { type: 'header', text: `Budget alerts on hold: spend in ${list}` },
      {
        type: 'text',
        text: `${data.teamName} has spend in ${list} and its budget is in ${data.budgetCurrency}. burnrate does not add amounts in different currencies, so its budget checks are held.`,
      },
      {
        type: 'context',
        text: `Add the rate${data.currencies.length > 1 ? 's' : ''} to burnrate.yml: \`${fxRatesSetting(data.base, data.currencies)}\`. Checks resume at the next run.`,
      },
    ],
  };
}
