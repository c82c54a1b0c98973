// Forecast backtest: for synthetic months shaped like real bills, every day of November is taken
// as "today" and the month's end is forecast from the data before it, by burnrate's method, by the
// previous method (weekday averages over everything, kept here only as the baseline), by a
// straight line and by a Cost Explorer-style weekday + trend regression (forecast-baselines.ts). Reported: mean absolute percentage error (MAPE) by day-of-month band, and the days
// a forecast alert would fire wrongly (a month that ends at 91% of its budget) or be missed (one
// that ends at 110%).

import { forecastPeriodEnd } from '../src/checks/forecast.js';
import { costKindOf, type CalendarDay } from '../src/domain/cost-kind.js';
import { teamResolver } from '../src/domain/ownership.js';
import { addDays, daysBetween, daysOf, monthOf, weekdayOf } from '../src/domain/period.js';
import { demoConfig } from '../src/providers/demo/demo-config.js';
import { demoSpendRows } from '../src/providers/demo/demo-spend.js';
import { mulberry32 } from '../src/providers/demo/random.js';
import { straightLine, weekdayAverages, weekdayTrendRegression } from './forecast-baselines.js';

const MONTH = monthOf('2026-11-01');
const HISTORY_START = '2026-09-01';
const LOOKBACK = 28;
const METHODS = ['burnrate', 'previous', 'straight line', 'CE-style'] as const;
type Method = (typeof METHODS)[number];
const BANDS = [
  { label: '1–7', from: 1, to: 7 },
  { label: '8–14', from: 8, to: 14 },
  { label: '15–21', from: 15, to: 21 },
  { label: '22–30', from: 22, to: 30 },
] as const;

interface Series {
  name: string;
  /** True spend per day (usage and calendar items). */
  daily: Map<string, number>;
  calendar: Map<string, CalendarDay>;
  /** The share of the last day's spend already in the data on the day after (1: complete). */
  lastDayShare: number;
}

export interface BacktestRow {
  series: string;
  mape: Record<Method, Record<string, number>>;
  falseAlertDays: Record<Method, number>;
  missedAlertDays: Record<Method, number>;
}

/** Weekdays 1,000, weekends 300, ±`noise` (10%): the weekly shape of ML spend. */
function usage(seed: number, scale: (day: string, i: number) => number, noise = 0.1, shape = weekdayShape): Map<string, number> {
  const random = mulberry32(seed);
  return new Map(
    daysOf({ start: HISTORY_START, end: MONTH.end }).map((day, i) => [
      day,
      shape(weekdayOf(day)) * scale(day, i) * (1 - noise + 2 * noise * random()),
    ]),
  );
}

function weekdayShape(weekday: number): number {
  return weekday === 0 || weekday === 6 ? 300 : 1000;
}

/** A week that tapers: Monday's launches to Friday's wind-down, little at weekends (Sunday first). */
const SEASONAL = [200, 1200, 1100, 1000, 1000, 800, 250];

function withCharge(
  daily: Map<string, number>,
  day: string,
  amount: number,
  kind: keyof CalendarDay = 'oneTime',
  calendar = new Map<string, CalendarDay>(),
) {
  daily.set(day, (daily.get(day) ?? 0) + amount);
  const before = calendar.get(day) ?? { recurring: 0, oneTime: 0 };
  calendar.set(day, { ...before, [kind]: before[kind] + amount });
  return calendar;
}

/** How many random paths each synthetic series is run on: one path's luck is not a method's error. */
export const RUNS = 20;

/** The synthetic series of one run (`run` picks the noise). */
function syntheticSeries(run: number): Series[] {
  const seed = (n: number) => n + 1000 * run;
  const plain = (name: string, daily: Map<string, number>): Series => ({ name, daily, calendar: new Map(), lastDayShare: 1 });
  const oneOff = usage(seed(3), () => 1);
  // A credit on the 28th of every month (a monthly programme credit): billed as recurring.
  const credit = usage(seed(4), () => 1);
  const creditCalendar = new Map<string, CalendarDay>();
  for (const day of ['2026-09-28', '2026-10-28', '2026-11-28']) withCharge(credit, day, -5_000, 'recurring', creditCalendar);
  return [
    plain(
      'flat, weekly shape',
      usage(seed(1), () => 1),
    ),
    plain(
      '+30% a month',
      usage(seed(2), (_d, i) => Math.pow(1.3, i / 30)),
    ),
    plain(
      'step up ×1.5 on the 10th',
      usage(seed(5), (d) => (d >= '2026-11-10' ? 1.5 : 1)),
    ),
    plain(
      'step down ×0.6 on the 10th',
      usage(seed(6), (d) => (d >= '2026-11-10' ? 0.6 : 1)),
    ),
    { name: 'day-1 one-off (20,000)', daily: oneOff, calendar: withCharge(oneOff, '2026-11-01', 20_000), lastDayShare: 1 },
    { name: 'monthly credit (−5,000 on the 28th)', daily: credit, calendar: creditCalendar, lastDayShare: 1 },
    {
      ...plain(
        'partial last day (40% in)',
        usage(seed(7), () => 1),
      ),
      lastDayShare: 0.4,
    },
    ...auditSeries(seed),
  ];
}

/** The audit's cases: usage spikes nobody labelled, credits labelled One-Time, a tax without frequency, a noisy weekly season. */
function auditSeries(seed: (n: number) => number): Series[] {
  const spiked = (n: number, day: string) => {
    const daily = usage(seed(n), () => 1);
    daily.set(day, daily.get(day)! + 20_000);
    return { daily, calendar: new Map<string, CalendarDay>(), lastDayShare: 1 };
  };
  // A promotional credit since 15 October, 80% of each day's usage, labelled One-Time as AWS does.
  const promo = usage(seed(10), () => 1);
  const promoCalendar = new Map<string, CalendarDay>();
  for (const day of daysOf({ start: '2026-10-15', end: MONTH.end }))
    withCharge(promo, day, -0.8 * promo.get(day)!, 'oneTime', promoCalendar);
  // A month-end credit labelled One-Time, every month.
  const monthEnd = usage(seed(11), () => 1);
  const monthEndCalendar = new Map<string, CalendarDay>();
  for (const day of ['2026-09-30', '2026-10-31', '2026-11-30']) withCharge(monthEnd, day, -5_000, 'oneTime', monthEndCalendar);
  // A tax of 8% of the month before, on each 1st, from a source without ChargeFrequency: its kind is
  // whatever costKindOf makes of it.
  const taxed = usage(seed(12), () => 1);
  const taxKind = costKindOf('Tax', null) === 'recurring' ? 'recurring' : 'oneTime';
  const taxCalendar = new Map<string, CalendarDay>();
  for (const [day, before] of [
    ['2026-09-01', '2026-09'],
    ['2026-10-01', '2026-09'],
    ['2026-11-01', '2026-10'],
  ] as const) {
    const month = [...taxed].filter(([d]) => d.startsWith(before)).reduce((s, [, v]) => s + v, 0);
    if (costKindOf('Tax', null) === 'usage') taxed.set(day, taxed.get(day)! + 0.08 * month);
    else withCharge(taxed, day, 0.08 * month, taxKind, taxCalendar);
  }
  return [
    { name: 'usage spike on the 1st, unlabelled (+20,000)', ...spiked(8, '2026-11-01') },
    { name: 'usage spike on the 16th, unlabelled (+20,000)', ...spiked(9, '2026-11-16') },
    { name: 'daily credit labelled One-Time (−80%)', daily: promo, calendar: promoCalendar, lastDayShare: 1 },
    { name: 'month-end credit labelled One-Time (−5,000)', daily: monthEnd, calendar: monthEndCalendar, lastDayShare: 1 },
    { name: 'tax without ChargeFrequency (8%, on the 1st)', daily: taxed, calendar: taxCalendar, lastDayShare: 1 },
    {
      name: 'weekly season, ±25% noise',
      daily: usage(
        seed(13),
        () => 1,
        0.25,
        (w) => SEASONAL[w]!,
      ),
      calendar: new Map(),
      lastDayShare: 1,
    },
  ];
}

/**
 * The demo organisation's teams, as its bill has them on 1 December (in USD at the demo's rate):
 * GPU fleets that start and stop, storage that grows, a credit on the 1st, recurring fees.
 */
function demoSeries(): Series[] {
  const config = demoConfig();
  const rows = demoSpendRows({
    seed: 42,
    days: daysBetween(HISTORY_START, MONTH.end),
    now: new Date(`${MONTH.end}T09:00:00Z`),
    tagKeys: config.ownership.tagKeys,
    resolveTeam: teamResolver(config.teams),
  });
  return config.teams.map((team) => {
    const daily = new Map<string, number>();
    const calendar = new Map<string, CalendarDay>();
    for (const row of rows.filter((r) => r.team === team.id && r.day < MONTH.end)) {
      const usd = row.effective * (row.currency === 'USD' ? 1 : config.fx.rates[row.currency]!);
      const kind = costKindOf(row.chargeCategory, row.chargeFrequency);
      if (kind === 'usage') daily.set(row.day, (daily.get(row.day) ?? 0) + usd);
      else withCharge(daily, row.day, usd, kind === 'recurring' ? 'recurring' : 'oneTime', calendar);
    }
    return { name: `demo: ${team.id}`, daily, calendar, lastDayShare: 1 };
  });
}

function forecastOf(method: Method, series: Series, dataEnd: string): number {
  // What the data shows on that day: everything before it, the last day only in part.
  const seen = new Map([...series.daily].filter(([d]) => d < dataEnd));
  const last = addDays(dataEnd, -1);
  seen.set(last, (seen.get(last) ?? 0) * series.lastDayShare);
  const calendar = new Map([...series.calendar].filter(([d]) => d < dataEnd));
  switch (method) {
    case 'burnrate':
      return forecastPeriodEnd({ daily: seen, calendar, period: MONTH, dataEnd, lookbackDays: LOOKBACK }).amount;
    case 'previous':
      return weekdayAverages(seen, MONTH, dataEnd, LOOKBACK);
    case 'straight line':
      return straightLine(seen, MONTH, dataEnd);
    case 'CE-style':
      return weekdayTrendRegression(seen, MONTH, dataEnd, HISTORY_START);
  }
}

/** Every series: the synthetic ones over RUNS random paths each, then the demo teams. */
function seriesGroups(): Series[][] {
  const runs = Array.from({ length: RUNS }, (_, run) => syntheticSeries(run));
  return [...runs[0]!.map((_, i) => runs.map((set) => set[i]!)), ...demoSeries().map((series) => [series])];
}

export function runForecastBacktest(): BacktestRow[] {
  return seriesGroups().map((paths) => {
    const row: BacktestRow = {
      series: paths[0]!.name,
      mape: Object.fromEntries(METHODS.map((m) => [m, {}])) as BacktestRow['mape'],
      falseAlertDays: Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<Method, number>,
      missedAlertDays: Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<Method, number>,
    };
    for (const method of METHODS) {
      const errors: { day: number; ape: number }[] = [];
      for (const series of paths) {
        const truth = daysOf(MONTH).reduce((s, d) => s + (series.daily.get(d) ?? 0), 0);
        // "Today" is the 2nd to the 30th: data through the day before.
        for (const dataEnd of daysOf({ start: addDays(MONTH.start, 1), end: MONTH.end })) {
          const forecast = forecastOf(method, series, dataEnd);
          errors.push({ day: Number(addDays(dataEnd, -1).slice(8)), ape: Math.abs(forecast - truth) / Math.abs(truth) });
          // Alert days per month: averaged over the paths.
          if (forecast >= truth / 0.91) row.falseAlertDays[method] += 1 / paths.length;
          if (forecast < truth / 1.1) row.missedAlertDays[method] += 1 / paths.length;
        }
      }
      const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
      row.mape[method]['all'] = mean(errors.map((e) => e.ape));
      for (const band of BANDS)
        row.mape[method][band.label] = mean(errors.filter((e) => e.day >= band.from && e.day <= band.to).map((e) => e.ape));
    }
    return row;
  });
}

export function printForecastBacktest(rows: readonly BacktestRow[]): void {
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
  const all = (f: (m: Method) => string) => METHODS.map(f).join(' / ');
  console.log('\nForecast backtest, November 2026, each day as "today" (MAPE of the month-end forecast; alert days):');
  console.log('| series | MAPE b / p / s / c | MAPE days 1–7 b / p / s / c | false alert days b / p / s / c | missed b / p / s / c |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.series} | ${all((m) => pct(r.mape[m]['all']!))} | ${all((m) => pct(r.mape[m]['1–7']!))} | ${all((m) => r.falseAlertDays[m].toFixed(1))} | ${all((m) => r.missedAlertDays[m].toFixed(1))} |`,
    );
  }
  console.log('  b / p / s / c: burnrate / previous (weekday averages) / straight line / CE-style weekday + trend regression.');
  console.log('  False: forecast ≥ budget for a month ending at 91%; missed: forecast < budget for a month ending at 110%.');
  console.log(`  29 days per series; synthetic series: means over ${RUNS} random paths.`);
}
