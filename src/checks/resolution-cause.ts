import type { Finding } from '../domain/finding.js';
import type { CalendarDay } from '../domain/cost-kind.js';
import { daysOf, type Period } from '../domain/period.js';

/**
 * Why a budget alert no longer holds, as far as the data can tell, checked in this order:
 *   budget-raised  someone raised the budget above what the alert measured against;
 *   credit         spend so far fell and the bill has a credit (a day whose one-time charges are
 *                  negative) in the period: the largest one is named;
 *   revised        spend so far fell with no credit: the bill for earlier days was revised down;
 *   slowed         spend so far did not fall, but the forecast did: recent days cost less.
 * Null when none of these shows (the figures moved by less than a cent).
 */
export type ResolutionCause =
  | { kind: 'budget-raised'; from: number; to: number }
  | { kind: 'credit'; amount: number; day: string }
  | { kind: 'revised'; by: number }
  | { kind: 'slowed'; from: number; to: number };

/** Where the team stands now against the same budget and period. */
export interface StandingNow {
  budget: number;
  actual: number;
  forecast: number | null;
}

const CENT = 0.005;

/**
 * The cause of a resolution: `before` is the finding as the alert last measured it, `now` the
 * same budget's standing with the latest data, `calendar` the team's non-usage charges per day.
 */
export function resolutionCause(
  before: Finding,
  now: StandingNow,
  calendar: ReadonlyMap<string, CalendarDay> | undefined,
): ResolutionCause | null {
  if (now.budget > before.budget + CENT) return { kind: 'budget-raised', from: before.budget, to: now.budget };
  if (now.actual < before.actual - CENT) {
    const credit = largestCredit(before.range, calendar);
    return credit ?? { kind: 'revised', by: before.actual - now.actual };
  }
  const forecastBefore = before.forecast?.amount;
  if (forecastBefore !== undefined && now.forecast !== null && now.forecast < forecastBefore - CENT)
    return { kind: 'slowed', from: forecastBefore, to: now.forecast };
  return null;
}

function largestCredit(range: Period, calendar: ReadonlyMap<string, CalendarDay> | undefined): ResolutionCause | null {
  let found: { amount: number; day: string } | null = null;
  for (const day of daysOf(range)) {
    const oneTime = calendar?.get(day)?.oneTime ?? 0;
    if (oneTime < -CENT && (!found || oneTime < -found.amount)) found = { amount: -oneTime, day };
  }
  return found && { kind: 'credit', ...found };
}
