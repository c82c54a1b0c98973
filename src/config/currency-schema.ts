import { z } from 'zod';
import { iso4217Codes } from '../domain/currency-codes.js';

/**
 * A currency in burnrate.yml: an ISO 4217 code in capitals. An enum rather than a pattern, so a
 * typo such as `UDS` fails here and not when amounts in two "currencies" refuse to add up, and so
 * editors complete the codes from the JSON Schema.
 */
export const currencyCode = z.enum(iso4217Codes() as [string, ...string[]], {
  error: (issue) => {
    const input = issue.input;
    if (typeof input === 'string' && input !== input.toUpperCase() && iso4217Codes().includes(input.toUpperCase())) {
      return `expected the ISO 4217 code in capitals: ${input.toUpperCase()}`;
    }
    return 'expected an ISO 4217 currency code such as USD, EUR or GBP';
  },
});
