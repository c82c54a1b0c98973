import type { CalendarDay } from '../../domain/cost-kind.js';
import { addDays, daysBetween, type Period } from '../../domain/period.js';
import { RECENT_DAYS } from './usage-models.js';

// The charges of a bill that are not usage (fees, credits, purchases, taxes), judged by how they
// recur in the data rather than by their label alone: AWS labels a promotional credit that accrues
// with usage every day One-Time, and a source without ChargeFrequency says nothing at all.
//   - present on most recent days: a run rate, projected with usage (as a share of it);
//   - on the same day of each of the last two periods, or labelled recurring: a calendar item that
//     comes again on that day;
//   - seen once: spent, never projected.

/** A day with less than this is no charge: rounding of a credit does not make it recur. */
const CENT = 0.005;
/** A stream is a run rate when it was on at least this share of the recent days since it began. */
const MOST = 0.8;

export interface ChargeCalendar {
  /** Charges that accrue with usage, as a share of usage (negative: a credit); 0 when there are none. */
  runRateShare: number;
  /** The known charges of a remaining day: billed already, or recurring from earlier periods. */
  at(day: string): number;
  /** What a user should know of how the calendar was read, for the forecast's method. */
  notes: string[];
}

export interface CalendarInput {
  calendar: ReadonlyMap<string, CalendarDay> | undefined;
  period: Period;
  /** The last day with data (provisional): the recent window ends on it. */
  provisional: string;
  /** The first day with data: days before it are unknown, not free of charges. */
  first: string;
  /** Usage of a day, with unusual days at their usual amount (what a share is taken of). */
  usage: (day: string) => number;
}

export function readChargeCalendar(input: CalendarInput): ChargeCalendar {
  // Usage alone (most teams): nothing recurs, nothing is billed ahead, and no day needs its match in the last period.
  if (!input.calendar || input.calendar.size === 0) return { runRateShare: 0, at: () => 0, notes: [] };
  const calendar = input.calendar;
  const oneTime = (day: string) => calendar.get(day)?.oneTime ?? 0;
  const recurring = (day: string) => calendar.get(day)?.recurring ?? 0;
  const share = runRateShare(input, oneTime);
  const lastPeriodDay = sameDayIn(input.period);
  // A one-time-labelled charge on the same day of the last two periods comes again (a month-end
  // credit, a tax billed on the 1st); once is not enough, a refund would be projected every month.
  const again = (day: string) => {
    if (share !== null || Math.abs(oneTime(day)) < CENT) return 0;
    const before = lastPeriodDay(day);
    return before !== null && before >= input.first && Math.abs(oneTime(before)) >= CENT ? oneTime(day) : 0;
  };
  const at = (day: string) => {
    const billed = calendar.get(day);
    if (billed && (billed.recurring !== 0 || billed.oneTime !== 0)) return billed.recurring + billed.oneTime;
    const before = lastPeriodDay(day);
    return before ? recurring(before) + again(before) : 0;
  };
  const notes =
    share === null ? [] : [`charges labelled one-time that recur daily taken as a run rate (${Math.round(share * 100)}% of usage)`];
  return { runRateShare: share ?? 0, at, notes };
}

/**
 * The share of usage the one-time stream runs at, when it recurs daily: on at least two of the
 * recent days (the last RECENT_DAYS through the provisional one), on most of them since it began,
 * and still on the last day or the one before. Null when it does not.
 */
function runRateShare(input: CalendarInput, oneTime: (day: string) => number): number | null {
  const window: string[] = [];
  for (let day = addDays(input.provisional, 1 - RECENT_DAYS); day <= input.provisional; day = addDays(day, 1))
    if (day >= input.first) window.push(day);
  const on = window.filter((day) => Math.abs(oneTime(day)) >= CENT);
  if (on.length < 2) return null;
  const since = window.length - window.indexOf(on[0]!);
  const lastTwo = window.slice(-2);
  if (on.length < MOST * since || !lastTwo.some((day) => on.includes(day))) return null;
  const usage = on.reduce((s, day) => s + input.usage(day), 0);
  return usage > 0 ? on.reduce((s, day) => s + oneTime(day), 0) / usage : null;
}

/** The same day of the previous period: a week before for a week, the same day of month for a month, month end for month end. */
export function sameDayLastPeriod(period: Period, day: string): string | null {
  return sameDayIn(period)(day);
}

/** sameDayLastPeriod for one period, its length worked out once (a forecast asks for every remaining day). */
function sameDayIn(period: Period): (day: string) => string | null {
  return daysBetween(period.start, period.end) <= 7 ? (day) => addDays(day, -7) : sameDayLastMonth;
}

function sameDayLastMonth(day: string): string | null {
  const [y, m] = day.slice(0, 7).split('-').map(Number) as [number, number];
  const month = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  const daysInPrevious = daysBetween(`${month}-01`, `${day.slice(0, 7)}-01`);
  // A month's last day stands for the previous month's last day (a month-end credit on 31 October
  // comes again on 30 November); the previous month's last day is taken by it, not by its date.
  if (addDays(day, 1).endsWith('-01')) return `${month}-${String(daysInPrevious).padStart(2, '0')}`;
  return Number(day.slice(8)) < daysInPrevious ? `${month}-${day.slice(8)}` : null;
}
