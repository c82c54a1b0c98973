import { addDays, toDay, type Period } from '../../domain/period.js';
import { BASELINE_DAYS, SAVING_WINDOW_DAYS, type SavingEntry, type SavingLine, type SavingsLedger } from '../../domain/saving.js';
import { cents } from '../review/allocate.js';

export interface SavingsLedgerInput {
  entries: readonly SavingEntry[];
  period: Period;
  /** The first day the bill does not cover yet; null before any import. */
  billedThrough: string | null;
  /** What the bill charged each resource a day, in `currency`. */
  daily: ReadonlyMap<string, ReadonlyMap<string, number>>;
  currency: string;
}

/**
 * The ledger over a period. Each action counts from the day after it for SAVING_WINDOW_DAYS (or
 * until it was undone), inside the period. Expected: its saving a day as the action saw it, for
 * each of those days. Realised: what the bill confirms, day by day, against the resource's run
 * rate before the action (its average charge a day over the BASELINE_DAYS before), never below 0
 * a day: a stopped instance someone started again saves nothing those days, it does not cost the
 * ledger. The day of the action itself counts for neither. Pure.
 */
export function savingsLedger(input: SavingsLedgerInput): SavingsLedger {
  const lines = input.entries.flatMap((entry): SavingLine[] => {
    const actionDay = toDay(entry.at);
    const from = maxDay(addDays(actionDay, 1), input.period.start);
    let until = minDay(addDays(actionDay, 1 + SAVING_WINDOW_DAYS), input.period.end);
    if (entry.endedAt) until = minDay(until, toDay(entry.endedAt));
    const days = dayRange(from, until);
    if (days.length === 0) return [];
    const expected = cents(entry.expectedDaily * days.length);
    const unconfirmed = (note: string): SavingLine[] => [
      { ...entry, expected, baselineDaily: null, realised: null, confirmedDays: 0, note },
    ];
    if (entry.action === 'spot.approve')
      return unconfirmed('expected only: the relaunched spot instance has a new id, so the bill cannot tie it to this one');
    const charges = input.daily.get(entry.resourceId) ?? new Map<string, number>();
    const before = dayRange(addDays(actionDay, -BASELINE_DAYS), actionDay).reduce((s, d) => s + (charges.get(d) ?? 0), 0);
    if (before <= 0) return unconfirmed(`the bill charged nothing in the ${BASELINE_DAYS} days before`);
    const baselineDaily = before / BASELINE_DAYS;
    const billed = input.billedThrough === null ? [] : days.filter((d) => d < input.billedThrough!);
    const realised = billed.length === 0 ? null : cents(billed.reduce((s, d) => s + Math.max(0, baselineDaily - (charges.get(d) ?? 0)), 0));
    return [
      {
        ...entry,
        expected,
        baselineDaily: cents(baselineDaily),
        realised,
        confirmedDays: billed.length,
        note:
          billed.length === 0
            ? 'not billed yet'
            : `${billed.length} billed day${billed.length === 1 ? '' : 's'} against ${cents(baselineDaily)} a day before the action`,
      },
    ];
  });
  return {
    period: input.period,
    currency: input.currency,
    lines,
    realised: cents(lines.reduce((s, l) => s + (l.realised ?? 0), 0)),
    expected: cents(lines.reduce((s, l) => s + l.expected, 0)),
    billedThrough: input.billedThrough,
  };
}

/** Days from `start` (included) to `end` (excluded). */
function dayRange(start: string, end: string): string[] {
  const days: string[] = [];
  for (let d = start; d < end; d = addDays(d, 1)) days.push(d);
  return days;
}

const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);
