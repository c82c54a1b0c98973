// spend_team_days holds each team's spend per day, summed from spend_daily: what budget checks,
// `/burnrate budget` and the App Home read, a few hundred rows instead of every cost line of two
// months. Every import rebuilds it over the days it touched, in the import's own transaction, so
// it never disagrees with spend_daily.

import type { SpendRow } from '../domain/spend.js';

/** A span of days, both ends included (YYYY-MM-DD). */
export interface DaySpan {
  first: string;
  last: string;
}

/** The days some rows fall on; null for none. */
export function spanOfRows(rows: readonly SpendRow[]): DaySpan | null {
  return spanOfDays(rows.map((r) => r.day));
}

/** From the first to the last of some days; null for none. */
export function spanOfDays(days: readonly string[]): DaySpan | null {
  let span: DaySpan | null = null;
  for (const day of days) span = widen(span, { first: day, last: day });
  return span;
}

export function widen(a: DaySpan | null, b: DaySpan | null): DaySpan | null {
  if (!a || !b) return a ?? b;
  return { first: a.first < b.first ? a.first : b.first, last: a.last > b.last ? a.last : b.last };
}
