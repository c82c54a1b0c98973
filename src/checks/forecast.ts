import type { Forecast } from '../domain/finding.js';
import { addDays, daysBetween, daysOf, type Period } from '../domain/period.js';
import type { CalendarDay } from '../domain/cost-kind.js';
import { MODELS, RECENT_DAYS, type HistoryDay, type UsageModel } from './forecast/usage-models.js';
import type { ForecastErrors, ForecastWorkings } from './forecast/forecast-workings.js';
import { readChargeCalendar } from './forecast/charge-calendar.js';
import { setAsideUnusualDays } from './forecast/unusual-days.js';

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
 *   - what is spent so far, net of credits (the last day counts, but is provisional: providers
 *     revise it for up to a day, so its projection is the larger of what it shows and what the
 *     model expects);
 *   - usage for the remaining days, from usage alone (fees and one-off charges are not a run rate):
 *     the weekday profile at the recent level or a trend, whichever erred less on the last week,
 *     fitted with a day far off its weekday's usual (a runaway job) at the usual amount;
 *   - the charges that are not usage by how they recur (charge-calendar.ts): credits that accrue
 *     daily at their share of usage, charges already on the remaining days, and those of the same
 *     day last period that recur; a charge seen once is never projected;
 *   - an 80% range from the backtest's errors.
 * The forecast is on the same basis as what is spent so far: net of credits.
 */
export function forecastPeriodEnd(input: ForecastInput): Forecast & { actual: number; explain(): ForecastWorkings } {
  const { daily, period, dataEnd, lookbackDays } = input;
  const total = (day: string) => daily.get(day) ?? 0;
  const calendarOf = (day: string) => {
    const c = input.calendar?.get(day);
    return c ? c.recurring + c.oneTime : 0;
  };
  const usage = (day: string) => total(day) - calendarOf(day);
  const spentDays = daysOf({ start: period.start, end: minDay(dataEnd, period.end) });
  const actual = sum(spentDays.map(total));
  const remaining = daysOf({ start: maxDay(dataEnd, period.start), end: period.end });
  // What the forecast is made of, told on demand from its own numbers: a run of the budget check pays nothing for it.
  const workings =
    (parts: Omit<ForecastWorkings['parts'], 'spent'>, fit: Partial<ForecastWorkings> = {}) =>
    (): ForecastWorkings => ({
      spent: {
        read: { start: period.start, end: minDay(dataEnd, period.end) },
        days: spentDays.map((day) => ({ day, amount: total(day) })),
      },
      remainingDays: remaining.length,
      history: null,
      fitted: null,
      errors: null,
      unusual: [],
      ...fit,
      parts: { spent: actual, ...parts },
    });
  const nothingAhead = { usageAhead: 0, provisionalTopUp: 0, creditsWithUsage: 0, chargesAhead: 0 };
  if (remaining.length === 0) return { actual, amount: actual, method: 'period complete: actual spend', explain: workings(nothingAhead) };

  const provisional = addDays(dataEnd, -1);
  const first = firstDay(daily);
  // The lookback's days before the provisional one: whole weeks, so every weekday is seen as often.
  const history = daysOf({ start: addDays(provisional, -lookbackDays), end: provisional }).filter((d) => d >= first);
  const raw: HistoryDay[] = history.map((day, index) => ({ day, index, usage: usage(day) }));
  const after = provisional >= first ? { day: provisional, usage: usage(provisional) } : null;
  const { days, unusual } = setAsideUnusualDays(raw, after);
  const fitted = new Map(days.map((d) => [d.day, d.usage]));
  const charges = readChargeCalendar({ calendar: input.calendar, period, provisional, first, usage: (d) => fitted.get(d) ?? usage(d) });
  const calendarAhead = sum(remaining.map(charges.at));
  const notes = [...(calendarAhead !== 0 ? ['recurring charges as billed or as last period'] : []), ...charges.notes];
  if (unusual.length > 0)
    notes.push(`${unusual.length === 1 ? 'an unusual day' : `${unusual.length} unusual days`} fitted at the usual amount`);
  const items = notes.map((n) => `; ${n}`).join('');
  const excluded = unusual.length > 0 ? { excluded: unusual } : {};
  if (days.length === 0) {
    const amount = actual + calendarAhead;
    const explain = workings({ ...nothingAhead, chargesAhead: calendarAhead });
    return { actual, amount, low: amount, high: amount, method: `no history yet: actual spend only${items}`, explain };
  }
  const { model, name, errors } = days.length < MIN_DAYS_FOR_WEEKDAYS ? straightLine(days) : pickModel(days);
  const indexOf = (day: string) => daysBetween(history[0]!, day);
  // The remaining days follow one another: their positions count on from the first one's.
  const firstAhead = indexOf(remaining[0]!);
  const usageAhead = sum(remaining.map((day, k) => model.predict(day, firstAhead + k)));
  let projected = usageAhead;
  // The provisional last day: completed to what the model expects of it when it shows less than a
  // day of it normally could (below the day's own 80% range), i.e. when it looks partly loaded.
  // Completing it whenever it is below the expectation would add noise's downside every time.
  if (provisional >= period.start && provisional < period.end) {
    const expected = model.predict(provisional, indexOf(provisional));
    if (usage(provisional) < expected - Z80 * errors.spread) projected += expected - usage(provisional);
  }
  // Credits that accrue with usage: the usage to come earns its share of them.
  const net = 1 + charges.runRateShare;
  const provisionalTopUp = projected - usageAhead;
  projected *= net;
  const half = Z80 * (errors.spread * Math.sqrt(remaining.length) + Math.abs(errors.bias) * remaining.length) * Math.abs(net);
  const amount = actual + projected + calendarAhead;
  return {
    actual,
    amount,
    low: actual + calendarAhead + Math.max(0, projected - half),
    high: amount + half,
    method: `${name}${items}; 80% range`,
    ...excluded,
    explain: workings(
      { usageAhead, provisionalTopUp, creditsWithUsage: projected - projected / net, chargesAhead: calendarAhead },
      { history: { start: history[0]!, end: provisional, days: days.length }, fitted: model.fitted, errors, unusual },
    ),
  };
}

type PeriodForecast = ReturnType<typeof forecastPeriodEnd>;

/**
 * forecastPeriodEnd remembered for one run: the budget check and the status block of its alerts
 * ask for the same teams' periods, and each is fitted once. Kept by the days' and charges' maps
 * themselves, so it is for one snapshot, whose maps do not change while it is used.
 */
export function rememberedForecasts(): (input: ForecastInput) => PeriodForecast {
  const byDays = new WeakMap<ReadonlyMap<string, number>, Map<ForecastInput['calendar'], Map<string, PeriodForecast>>>();
  return (input) => {
    let byCalendar = byDays.get(input.daily);
    if (!byCalendar) byDays.set(input.daily, (byCalendar = new Map()));
    let known = byCalendar.get(input.calendar);
    if (!known) byCalendar.set(input.calendar, (known = new Map()));
    const key = `${input.period.start}|${input.period.end}|${input.dataEnd}|${input.lookbackDays}`;
    let forecast = known.get(key);
    if (!forecast) known.set(key, (forecast = forecastPeriodEnd(input)));
    return forecast;
  };
}

type Errors = ForecastErrors;

/** A short history: its average day, its spread the history's own. */
function straightLine(days: readonly HistoryDay[]): { model: UsageModel; name: string; errors: Errors } {
  const perDay = sum(days.map((d) => d.usage)) / days.length;
  const spread = Math.sqrt(sum(days.map((d) => (d.usage - perDay) ** 2)) / days.length);
  return {
    model: { name: 'straight line', predict: () => perDay, fitted: { kind: 'straight line', perDay } },
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
