/**
 * How a charge behaves over time, which is what a forecast needs to know of it:
 *   usage      the run rate: metered usage (and its taxes, credits and discounts as they accrue)
 *   recurring  a fee billed every period (support, a commitment's monthly fee): a known calendar item
 *   one-time   billed once (an upfront purchase, a one-off credit or refund): never projected forward
 */
export type CostKind = 'usage' | 'recurring' | 'one-time';

/**
 * The kind of a charge from FOCUS ChargeFrequency, or from its ChargeCategory when the source does
 * not give the frequency (Cost Explorer, FOCUS 1.0 files without it): purchases, credits,
 * adjustments and taxes are kept apart from usage as one-time, everything else is usage. Kept apart
 * is what matters: the forecast then judges them by how they recur in the data (a credit on every
 * day is a run rate, a tax on the 1st of each month comes again), where a tax taken for usage would
 * have raised one weekday's average by a month's tax.
 */
export function costKindOf(chargeCategory: string, chargeFrequency: string | null | undefined): CostKind {
  switch ((chargeFrequency ?? '').toLowerCase()) {
    case 'recurring':
      return 'recurring';
    case 'one-time':
      return 'one-time';
    case 'usage-based':
      return 'usage';
  }
  return ['purchase', 'credit', 'adjustment', 'tax'].includes(chargeCategory.toLowerCase()) ? 'one-time' : 'usage';
}

/** A day's charges that are not usage (in one currency): what a forecast adds as calendar items. */
export interface CalendarDay {
  recurring: number;
  oneTime: number;
}
