import { iso4217Codes } from '../../domain/currency-codes.js';

/**
 * SQL that is true when `expression` is an ISO 4217 code, exactly (upper case, no spaces): a typo
 * such as EURO would otherwise become a currency of its own in every report.
 */
export function isoCurrencySql(expression: string): string {
  return `${expression} IN (${iso4217Codes()
    .map((code) => `'${code}'`)
    .join(', ')})`;
}
