// The methods burnrate's forecast is measured against in the backtest (forecast-backtest.ts). Each
// takes what the data shows before `dataEnd` (net daily spend, no labels) and returns the period's
// total: spent so far plus a projection of the remaining days.

import { addDays, daysOf, weekdayOf, type Period } from '../src/domain/period.js';

/** Month-to-date spend per day, times the days of the period: the simplest run rate. */
export function straightLine(daily: ReadonlyMap<string, number>, period: Period, dataEnd: string): number {
  const elapsed = daysOf({ start: period.start, end: dataEnd });
  return (spentSoFar(daily, period, dataEnd) / elapsed.length) * daysOf(period).length;
}

/** burnrate's method before this one: weekday averages of the last `lookback` days, the last day included, no calendar items. */
export function weekdayAverages(daily: ReadonlyMap<string, number>, period: Period, dataEnd: string, lookback: number): number {
  const slots = Array.from({ length: 7 }, () => ({ total: 0, days: 0 }));
  for (const day of daysOf({ start: addDays(dataEnd, -lookback), end: dataEnd })) {
    const slot = slots[weekdayOf(day)]!;
    slot.total += daily.get(day) ?? 0;
    slot.days += 1;
  }
  const ahead = daysOf({ start: dataEnd, end: period.end }).map((d) => {
    const slot = slots[weekdayOf(d)]!;
    return slot.days ? slot.total / slot.days : 0;
  });
  return spentSoFar(daily, period, dataEnd) + ahead.reduce((a, b) => a + b, 0);
}

/**
 * What AWS Cost Explorer's forecast amounts to: a regression of daily net cost on a linear trend
 * and the day of the week, fitted by least squares over the whole history before `dataEnd` (from
 * `historyStart`), every day as billed (spikes and credits included), extended over the remaining days.
 */
export function weekdayTrendRegression(daily: ReadonlyMap<string, number>, period: Period, dataEnd: string, historyStart: string): number {
  const history = daysOf({ start: historyStart, end: dataEnd });
  // Columns: intercept, trend (day index), Monday..Saturday against Sunday.
  const features = (index: number, day: string) => [1, index, ...[1, 2, 3, 4, 5, 6].map((w) => (weekdayOf(day) === w ? 1 : 0))];
  const rows = history.map((day, i) => ({ x: features(i, day), y: daily.get(day) ?? 0 }));
  const coefficients = leastSquares(rows);
  const ahead = daysOf({ start: dataEnd, end: period.end }).map((day, i) =>
    features(history.length + i, day).reduce((s, x, j) => s + x * coefficients[j]!, 0),
  );
  return spentSoFar(daily, period, dataEnd) + ahead.reduce((a, b) => a + b, 0);
}

function spentSoFar(daily: ReadonlyMap<string, number>, period: Period, dataEnd: string): number {
  return daysOf({ start: period.start, end: dataEnd }).reduce((s, d) => s + (daily.get(d) ?? 0), 0);
}

/** Ordinary least squares through the normal equations (a few columns; Gaussian elimination with pivoting). */
function leastSquares(rows: readonly { x: readonly number[]; y: number }[]): number[] {
  const k = rows[0]!.x.length;
  const a = Array.from({ length: k }, (_, i) => [
    ...Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + r.x[i]! * r.x[j]!, 0)),
    rows.reduce((s, r) => s + r.x[i]! * r.y, 0),
  ]);
  for (let col = 0; col < k; col++) {
    const pivot = a.slice(col).reduce((best, row, i) => (Math.abs(row[col]!) > Math.abs(a[best]![col]!) ? col + i : best), col);
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    if (Math.abs(p) < 1e-12) continue; // a weekday not in the history yet: its column stays 0
    for (let row = 0; row < k; row++) {
      if (row === col) continue;
      const f = a[row]![col]! / p;
      for (let j = col; j <= k; j++) a[row]![j] = a[row]![j]! - f * a[col]![j]!;
    }
  }
  return a.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[k]! / row[i]!));
}
