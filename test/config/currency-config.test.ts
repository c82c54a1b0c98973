import { describe, expect, it } from 'vitest';
import { configJsonSchema, parseConfigText } from '../support/config.js';
import { iso4217Codes, isIso4217 } from '../../src/domain/currency-codes.js';
import { errorOf } from '../support/error-of.js';

const withCurrency = (currency: string) => `teams:\n  - id: ml\n    budget: { monthly: 1000, currency: ${currency} }\n`;

describe('ISO 4217 currency codes', () => {
  it('knows current codes, including the newest, and refuses look-alikes', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'INR', 'XCG', 'ZWG', 'SLE']) expect(isIso4217(code), code).toBe(true);
    for (const code of ['usd', 'UDS', 'ABC', 'EURO', 'US', '', 'XAU', 'XXX', 'XTS']) expect(isIso4217(code), code).toBe(false);
    expect(isIso4217(840)).toBe(false);
    expect(isIso4217(null)).toBe(false);
  });

  it('accepts every currency the runtime (ICU) knows', () => {
    // An independent list: ICU's, shipped with Node, besides the one kept in the repository.
    const missing = Intl.supportedValuesOf('currency').filter((code) => !isIso4217(code));
    expect(missing).toEqual([]);
    expect(iso4217Codes().length).toBeGreaterThanOrEqual(160);
  });
});

describe('currency in burnrate.yml', () => {
  it('accepts an ISO 4217 code and defaults to USD', () => {
    expect(parseConfigText(withCurrency('EUR')).teams[0]?.budget?.currency).toBe('EUR');
    expect(parseConfigText('teams:\n  - id: ml\n    budget: { monthly: 1 }\n').teams[0]?.budget?.currency).toBe('USD');
  });

  it('refuses three capitals that are no currency, with the path', () => {
    const error = errorOf(() => parseConfigText(withCurrency('UDS')));
    expect(error.code).toBe('burnrate_config_invalid');
    expect(error.message).toContain('teams[0].budget.currency: expected an ISO 4217 currency code such as USD, EUR or GBP, got "UDS"');
  });

  it('suggests capitals for a code written in lower case', () => {
    expect(errorOf(() => parseConfigText(withCurrency('usd'))).message).toContain(
      'teams[0].budget.currency: expected the ISO 4217 code in capitals: USD, got "usd"',
    );
  });

  it('checks every currency key the schema has against the list', () => {
    const found: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [key, child] of Object.entries(node)) {
        if (key === 'currency' && path.endsWith('.properties')) {
          found.push(path);
          expect((child as { enum?: string[] }).enum, path).toEqual(iso4217Codes());
        }
        visit(child, `${path}.${key}`);
      }
    };
    visit(configJsonSchema(), '');
    expect(found.length).toBeGreaterThan(0);
  });
});
