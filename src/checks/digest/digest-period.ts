import { addDays, daysOf, monthOf, weekdayOf, type Period } from '../../domain/period.js';
import type { DigestCadence, DigestPeriod, Mover } from '../../domain/digest.js';
import type { SpendTotal } from '../../domain/spend-totals.js';

/**
 * The period a digest sent on `today` (the team's day) covers: yesterday for a daily digest; the
 * ISO week before for a weekly one, sent on Mondays only (null on other days).
 */
export function digestPeriod(cadence: DigestCadence, today: string): DigestPeriod | null {
  if (cadence === 'daily') {
    const day = addDays(today, -1);
    return { cadence, period: { start: day, end: today }, previous: { start: addDays(day, -1), end: day }, label: day };
  }
  if (weekdayOf(today) !== 1) return null;
  const start = addDays(today, -7);
  return { cadence, period: { start, end: today }, previous: { start: addDays(start, -7), end: start }, label: `week-${start}` };
}

/**
 * The share of a budget a period should have used at an even pace: a monthly budget spread over
 * its month's days (a week across two months takes each day from its own month), a weekly budget
 * over its 7 days. Null without a budget.
 */
export function budgetPace(
  budget: { monthly?: number | undefined; weekly?: number | undefined } | undefined,
  period: Period,
): number | null {
  if (budget?.monthly !== undefined) return daysOf(period).reduce((sum, day) => sum + budget.monthly! / daysOf(monthOf(day)).length, 0);
  if (budget?.weekly !== undefined) return (budget.weekly / 7) * daysOf(period).length;
  return null;
}

/** The keys (services) whose effective spend changed most between two periods, largest change first. */
export function biggestMovers(now: readonly SpendTotal[], before: readonly SpendTotal[], limit = 3): Mover[] {
  const keys = new Set([...now.map((t) => t.key), ...before.map((t) => t.key)]);
  const sum = (totals: readonly SpendTotal[], key: string) => totals.filter((t) => t.key === key).reduce((s, t) => s + t.effective, 0);
  return [...keys]
    .map((key) => {
      const a = sum(now, key);
      const b = sum(before, key);
      return { key, now: a, before: b, change: a - b };
    })
    .filter((m) => Math.abs(m.change) >= 0.005)
    .sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.key.localeCompare(y.key))
    .slice(0, limit);
}
