import { monthsOf, type DayWindow } from '../../incremental-window.js';

/**
 * Days into a month until which the previous month's bill is read again: AWS finalises a month
 * (its taxes, late credits and refunds, all dated inside that month) in the first days of the next.
 */
export const BILL_FINAL_AFTER_DAYS = 5;

/**
 * The billing periods a pull reads whole: those the incremental window touches, and the previous
 * one while its bill is not final yet. Whole periods, because the export adds lines dated early in
 * a period (tax, a support fee, a credit) until it is final, and reading a billing_period partition
 * whole scans no more than reading a few days of it (the export is not sorted by day).
 */
export function billingPeriodsRead(window: DayWindow): string[] {
  const periods = new Set(monthsOf(window));
  const [year, month, day] = window.end.split('-').map(Number) as [number, number, number];
  if (day <= BILL_FINAL_AFTER_DAYS) {
    const previous = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 7);
    periods.add(previous);
  }
  return [...periods].sort();
}
