import { z } from 'zod';
import { currencyCode } from './currency-schema.js';
import { FIRST_DAY, isWithinYears, LAST_DAY } from '../domain/calendar-range.js';

/** What one unit of each currency is worth in `base`: `{ JPY: 0.0067, EUR: 1.08 }`. */
const rateTable = z
  .record(z.string(), z.number({ error: 'expected a rate, e.g. 0.0067' }).positive({ error: 'expected a rate above 0' }))
  .superRefine((rates, ctx) => {
    // Each key is a currency: the same message as a currency anywhere else in burnrate.yml.
    for (const key of Object.keys(rates)) {
      const code = currencyCode.safeParse(key);
      if (!code.success) ctx.addIssue({ code: 'custom', path: [key], message: code.error.issues[0]!.message });
    }
  });

/**
 * Exchange rates for teams whose spend comes in more than one currency: `rates` says what one unit
 * of each currency is worth in `base`, as of `asOf` (shown beside every converted amount), for
 * every billing period; `periods` gives a billing period (YYYY-MM) rates of its own, so that each
 * month's spend is converted at the rate of its own invoice.
 *
 *   fx: { base: USD, asOf: 2026-11-30, rates: { JPY: 0.0067, EUR: 1.08 }, periods: { 2026-10: { JPY: 0.0069 } } }
 */
export const fxSchema = z
  .strictObject({
    base: currencyCode.default('USD'),
    asOf: z
      .string({ error: 'expected the date the rates were taken, e.g. 2026-11-30' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'expected the date the rates were taken as YYYY-MM-DD, e.g. 2026-11-30' })
      .refine((day) => !/^\d{4}/.test(day) || isWithinYears(day), {
        error: `expected the date the rates were taken from ${FIRST_DAY} to ${LAST_DAY}, e.g. 2026-11-30`,
      })
      .optional(),
    rates: rateTable.default({}),
    periods: z
      .record(
        z.string().regex(/^(20\d\d|2100)-(0[1-9]|1[0-2])$/, { error: 'expected a billing period as YYYY-MM, e.g. 2026-10' }),
        rateTable,
      )
      .optional(),
  })
  .prefault({});
