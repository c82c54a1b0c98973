import { z } from 'zod';
import { currencyCode } from './currency-schema.js';

/**
 * Exchange rates for teams whose spend comes in more than one currency: `rates` says what one unit
 * of each currency is worth in `base`, as of `asOf` (shown beside every converted amount).
 *
 *   fx: { base: USD, asOf: 2026-11-30, rates: { JPY: 0.0067, EUR: 1.08 } }
 */
export const fxSchema = z
  .strictObject({
    base: currencyCode.default('USD'),
    asOf: z
      .string({ error: 'expected the date the rates were taken, e.g. 2026-11-30' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'expected the date the rates were taken as YYYY-MM-DD, e.g. 2026-11-30' })
      .optional(),
    rates: z
      .record(z.string(), z.number({ error: 'expected a rate, e.g. 0.0067' }).positive({ error: 'expected a rate above 0' }))
      .superRefine((rates, ctx) => {
        // Each key is a currency: the same message as a currency anywhere else in burnrate.yml.
        for (const key of Object.keys(rates)) {
          const code = currencyCode.safeParse(key);
          if (!code.success) ctx.addIssue({ code: 'custom', path: [key], message: code.error.issues[0]!.message });
        }
      })
      .default({}),
  })
  .prefault({});
