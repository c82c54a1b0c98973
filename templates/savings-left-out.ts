import { leftOutNote } from '../src/domain/left-out-currencies.js';
import type { SavingsSummary } from '../src/domain/saving.js';

/**
 * What follows a savings figure whose bill had a currency without a rate: `separator` and the
 * note naming it; nothing otherwise, so a ledger in one currency reads as it always did.
 */
export function leftOutSuffix(savings: Pick<SavingsSummary, 'currency' | 'missing'>, separator = ' '): string {
  const note = leftOutNote(savings.missing ?? [], savings.currency);
  return note ? `${separator}${note}` : '';
}
