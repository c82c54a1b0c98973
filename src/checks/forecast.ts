import type { Forecast } from '../domain/finding.js';
import { addDays, daysBetween, daysOf, type Period } from '../domain/period.js';
import type { CalendarDay } from '../domain/cost-kind.js';
import { MODELS, RECENT_DAYS, type HistoryDay, type UsageModel } from './forecast/usage-models.js';

export interface ForecastInput {
  /** Daily spend by day (YYYY-MM-DD); days without a row spent nothing. */
  daily: ReadonlyMap<string, number>;
  /** Of `daily`, the recurring and one-time charges per day; absent: all of it is usage. */
  calendar?: ReadonlyMap<string, CalendarDay> | undefined;
  period: Period;
  /** First day with no data yet: everything before it is actual. */
  dataEnd: string;
  lookbackDays: number;
}

/** Below this many days of history a weekday profile is noise; a straight line is more honest. */
const MIN_DAYS_FOR_WEEKDAYS = 14;
/** The z-score of an 80% two-sided interval. */
const Z80 = 1.2816;

/**
 * Projects spend to the end of a period, as a FinOps practitioner would:
 *   - what is spent so far (the last day counts, but is provisional: providers revise it for up to
 *     a day, so its projection is the larger of what it shows and what the model expects);
 *   - usage for the remaining days, from usage alone (fees and one-off charges are not a run rate):
 *     the weekday profile at the recent level or a trend, whichever erred less on the last week;
 *   - known calendar items: charges already on the remaining days (a monthly fee spread over its
 *     month) and, where none is billed yet, the recurring charges of the same day last period;
 *     one-time charges are never projected;
 *   - an 80% range from the backtest's errors.
 */
export function forecastPeriodEnd(input: ForecastInput): Forecast & { actual: number } {
  const { daily, period, dataEnd, lookbackDays } = input;
  const total = (day: string) => daily.get(day) ?? 0;
  const calendarOf = (day: string) => {
    const c = input.calendar?.get(day);
    return c ? c.recurring + c.oneTime : 0;
  };
  const usage = (day: string) => total(day) - calendarOf(day);
  const actual = sum(daysOf({ start: period.start, end: minDay(dataEnd, period.end) }).map(total));
  const remaining = daysOf({ start: maxDay(dataEnd, period.start), end: period.end });
  if (remaining.length === 0) return { actual, amount: actual, method: 'period complete: actual spend' };

  const calendarAhead = sum(remaining.map((day) => calendarAt(input, day)));
  const items = calendarAhead !== 0 ? '; recurring charges as billed or as last period' : '';
  const provisional = addDays(dataEnd, -1);
  const first = firstDay(daily);
  // The lookback's days before the provisional one: whole weeks, so every weekday is seen as often.
  const history = daysOf({ start: addDays(provisional, -lookbackDays), end: provisional }).filter((d) => d >= first);
  if (history.length === 0) {
    const amount = actual + calendarAhead;
    return { actual, amount, low: amount, high: amount, method: `no history yet: actual spend only${items}` };
  }
  const days: HistoryDay[] = history.map((day, index) => ({ day, index, usage: usage(day) }));
  const { model, name, errors } = days.length < MIN_DAYS_FOR_WEEKDAYS ? straightLine(days) : pickModel(days);
  const indexOf = (day: string) => daysBetween(history[0]!, day);
  let projected = sum(remaining.map((day) => model.predict(day, indexOf(day))));
  // The provisional last day: completed to what the model expects of it when it shows less than a
  // day of it normally could (below the day's own 80% range), i.e. when it looks partly loaded.
  // Completing it whenever it is below the expectation would add noise's downside every time.
  if (provisional >= period.start && provisional < period.end) {
    const expected = model.predict(provisional, indexOf(provisional));
    if (usage(provisional) < expected - Z80 * errors.spread) projected += expected - usage(provisional);
  }
  const half = Z80 * (errors.spread * Math.sqrt(remaining.length) + Math.abs(errors.bias) * remaining.length);
  const amount = actual + projected + calendarAhead;
  return {
    actual,
    amount,
    low: actual + calendarAhead + Math.max(0, projected - half),
    high: amount + half,
    method: `${name}${items}; 80% range`,
  };
}

/** A known calendar item on a remaining day: what is billed on it, else last period's recurring charge on the same day. */
function calendarAt(input: ForecastInput, day: string): number {
  const billed = input.calendar?.get(day);
  if (billed && (billed.recurring !== 0 || billed.oneTime !== 0)) return billed.recurring + billed.oneTime;
  const before = sameDayLastPeriod(input.period, day);
  return before ? (input.calendar?.get(before)?.recurring ?? 0) : 0;
}

/** The same day of the previous period: a week before for a week, the same day of month for a month, month end for month end. */
function sameDayLastPeriod(period: Period, day: string): string | null {
  if (daysBetween(period.start, period.end) <= 7) return addDays(day, -7);
  const [y, m] = day.slice(0, 7).split('-').map(Number) as [number, number];
  const month = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  const daysInPrevious = daysBetween(`${month}-01`, `${day.slice(0, 7)}-01`);
  // A month's last day stands for the previous month's last day (a month-end credit on 31 October
  // comes again on 30 November); the previous month's last day is taken by it, not by its date.
  if (addDays(day, 1).endsWith('-01')) return `${month}-${String(daysInPrevious).padStart(2, '0')}`;
  return Number(day.slice(8)) < daysInPrevious ? `${month}-${day.slice(8)}` : null;
}

interface Errors {
  /** Root mean square of the daily errors. */
  spread: number;
  /** Mean daily error: a model that is off in one direction is off every remaining day. */
  bias: number;
}

/** A short history: its average day, its spread the history's own. */
function straightLine(days: readonly HistoryDay[]): { model: UsageModel; name: string; errors: Errors } {
  const perDay = sum(days.map((d) => d.usage)) / days.length;
  const spread = Math.sqrt(sum(days.map((d) => (d.usage - perDay) ** 2)) / days.length);
  return {
    model: { name: 'straight line', predict: () => perDay },
    name: `straight line from the last ${days.length === 1 ? 'day' : `${days.length} days`}`,
    errors: { spread, bias: 0 },
  };
}

/** Fits each model on the history without its last week, keeps the one closest on that week, refits it on all of it. */
function pickModel(days: readonly HistoryDay[]): { model: UsageModel; name: string; errors: Errors } {
  const train = days.slice(0, -RECENT_DAYS);
  const test = days.slice(-RECENT_DAYS);
  const observed = sum(test.map((d) => d.usage));
  const scored = MODELS.map((make) => {
    const fitted = make(train);
    const residuals = test.map((d) => d.usage - fitted.predict(d.day, d.index));
    const error = Math.abs(sum(residuals)) / Math.max(Math.abs(observed), 1e-9);
    return { make, error, residuals };
  });
  const best = scored.reduce((a, b) => (b.error < a.error ? b : a));
  const model = best.make(days);
  const errors = {
    spread: Math.sqrt(sum(best.residuals.map((r) => r * r)) / best.residuals.length),
    bias: sum(best.residuals) / best.residuals.length,
  };
  const percent = Math.round(best.error * 100);
  return { model, name: `${model.name}, of usage only (backtest error ${percent}%)`, errors };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}

/** Earliest day with data; days before it are unknown rather than zero-spend. */
function firstDay(daily: ReadonlyMap<string, number>): string {
  let first = '9999-12-31';
  for (const day of daily.keys()) if (day < first) first = day;
  return first;
}
