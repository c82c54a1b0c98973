// Anomaly backtest: synthetic team series with labelled injected anomalies of six shapes, and the
// demo organisation's teams with injected spikes. Every day after four weeks of history is taken
// as "today" with its data complete, and each detector says whether the day is an anomaly; runs
// of consecutive anomalous days are one alert (as the check alerts once per run). Reported:
// recall (labelled anomalies alerted on within their days), precision (alerts that fall on a
// labelled anomaly), days to detect (0: on the first day's data), and false alerts per team-month
// (30 days judged), side by side with a z-score on a 28-day mean and a straight weekday mean.

import { acceptedOf, type Acceptance } from '../src/checks/anomalies/acceptances.js';
import { judgeDays } from '../src/checks/anomalies/judge-days.js';
import { teamAnomaly } from '../src/checks/anomalies/team-anomaly.js';
import { teamDays } from '../src/checks/anomalies/team-days.js';
import { anomaliesSchema } from '../src/config/anomalies-schema.js';
import { costKindOf, type CalendarDay } from '../src/domain/cost-kind.js';
import { teamResolver } from '../src/domain/ownership.js';
import { addDays, daysBetween, weekdayOf } from '../src/domain/period.js';
import { demoConfig } from '../src/providers/demo/demo-config.js';
import { demoSpendRows } from '../src/providers/demo/demo-spend.js';
import { mulberry32 } from '../src/providers/demo/random.js';
import { focusExampleBill } from './anomaly-focus-bill.js';
import { weekdayMean, zScore28 } from './anomaly-baselines.js';

const POLICY = anomaliesSchema.parse({});
const START = '2026-08-01';
const DAYS = 120;
/** Days before the first judged day: four weeks of history and a week to fill the run lookback. */
const WARM_UP = 35;
const PATHS = 20;
const METHODS = ['burnrate', 'z-score 28d', 'weekday mean'] as const;
type Method = (typeof METHODS)[number];

/** An injected anomaly: its first and last day, and whether the team answers Expected to its first alert. */
interface Label {
  start: string;
  end: string;
  planned?: boolean;
}

interface Series {
  daily: Map<string, number>;
  calendar: Map<string, CalendarDay>;
  labels: Label[];
}

export interface AnomalyBacktestRow {
  shape: string;
  series: number;
  teamMonths: number;
  labelled: number;
  recall: Record<Method, number>;
  precision: Record<Method, number>;
  /** Mean days from an anomaly's first day to its alert (0: on that day's data). */
  daysToDetect: Record<Method, number | null>;
  falsePerTeamMonth: Record<Method, number>;
  /** Planned launches: alerts after the team answered Expected to the first. */
  afterExpected: Record<Method, number>;
}

/** Weekdays 1,000, weekends 300 (or nothing for a weekday-only team), ±10% noise. */
function base(seed: number, weekend = 300): Map<string, number> {
  const random = mulberry32(seed);
  return new Map(
    Array.from({ length: DAYS }, (_, i) => {
      const day = addDays(START, i);
      const off = weekdayOf(day) === 0 || weekdayOf(day) === 6;
      return [day, (off ? weekend : 1000) * (off && weekend === 0 ? 0 : 0.9 + 0.2 * random())] as const;
    }),
  );
}

function add(daily: Map<string, number>, day: string, amount: number) {
  daily.set(day, (daily.get(day) ?? 0) + amount);
}

/** An injection day after the warm-up, chosen by the path's seed. */
function injectionDay(random: () => number, room: number, weekday?: number): string {
  let day = addDays(START, WARM_UP + 14 + Math.floor(random() * (DAYS - WARM_UP - 14 - room)));
  while (weekday !== undefined && weekdayOf(day) !== weekday) day = addDays(day, 1);
  return day;
}

/** A team's bill without its anomalies: daily spend and the calendar items on it. */
type Bill = Pick<Series, 'daily' | 'calendar'>;
const plainBill = (seed: number): Bill => ({ daily: base(seed), calendar: new Map() });

/** Shapes injected into a bill: the plain series' by default, the FOCUS examples' bill below. */
const INJECTED: Record<string, (seed: number, bill?: (seed: number) => Bill) => Series> = {
  'none (false alerts only)': (seed, bill = plainBill) => ({ ...bill(seed), labels: [] }),
  'one-day spike (+3,000)': (seed, bill = plainBill) => {
    const { daily, calendar } = bill(seed);
    const day = injectionDay(mulberry32(seed + 1), 1);
    add(daily, day, 3000);
    return { daily, calendar, labels: [{ start: day, end: day }] };
  },
  'step up (+60% from a day on)': (seed, bill = plainBill) => {
    const { daily, calendar } = bill(seed);
    const day = injectionDay(mulberry32(seed + 1), 20);
    for (const [d, v] of daily) if (d >= day) daily.set(d, v * 1.6 - 0.6 * oneOffOn(calendar, d));
    return { daily, calendar, labels: [{ start: day, end: addDays(day, 2) }] };
  },
  'runaway growing each hour (from 18:00)': (seed, bill = plainBill) => {
    const { daily, calendar } = bill(seed);
    const day = injectionDay(mulberry32(seed + 1), 3);
    // $25 an hour more each hour from 18:00 until stopped two days later: 6 hours, then 24, then 24.
    const hourly = (h: number) => 25 * h;
    const sum = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => hourly(from + i + 1)).reduce((a, b) => a + b, 0);
    add(daily, day, sum(0, 6));
    add(daily, addDays(day, 1), sum(6, 30));
    add(daily, addDays(day, 2), sum(30, 54));
    return { daily, calendar, labels: [{ start: day, end: addDays(day, 2) }] };
  },
};

/** A step up raises usage: the day's calendar items stay as they were. */
function oneOffOn(calendar: ReadonlyMap<string, CalendarDay>, day: string): number {
  const c = calendar.get(day);
  return c ? c.recurring + c.oneTime : 0;
}

const SHAPES: Record<string, (seed: number) => Series> = {
  ...INJECTED,
  'slow drift (+2% a day for 30 days)': (seed) => {
    const daily = base(seed);
    const day = injectionDay(mulberry32(seed + 1), 31);
    for (const [d, v] of daily) {
      const n = Math.min(Math.max(daysBetween(day, d), 0), 30);
      daily.set(d, v * 1.02 ** n);
    }
    return { daily, calendar: new Map(), labels: [{ start: day, end: addDays(day, 30) }] };
  },
  'weekend spike on a weekday-only team (+800)': (seed) => {
    const daily = base(seed, 0);
    const day = injectionDay(mulberry32(seed + 1), 7, 6);
    add(daily, day, 800);
    return { daily, calendar: new Map(), labels: [{ start: day, end: day }] };
  },
  'planned launch (+2,000 a day for 14 days), answered Expected': (seed) => {
    const daily = base(seed);
    const day = injectionDay(mulberry32(seed + 1), 15);
    for (let i = 0; i < 14; i++) add(daily, addDays(day, i), 2000);
    return { daily, calendar: new Map(), labels: [{ start: day, end: day, planned: true }] };
  },
  'a monthly fee and a first purchase (calendar items)': (seed) => {
    const daily = base(seed);
    const calendar = new Map<string, CalendarDay>();
    // A $1,500 support fee on every 1st: known after the first month, never an anomaly after it.
    for (const d of daily.keys())
      if (d.endsWith('-01')) {
        add(daily, d, 1500);
        calendar.set(d, { recurring: 1500, oneTime: 0 });
      }
    const day = injectionDay(mulberry32(seed + 1), 1);
    const purchase = daily.has(day) && !day.endsWith('-01') ? day : addDays(day, 1);
    add(daily, purchase, 5000);
    calendar.set(purchase, { recurring: 0, oneTime: 5000 });
    return { daily, calendar, labels: [{ start: purchase, end: purchase }] };
  },
};

const focusBill = (seed: number): Bill => focusExampleBill(seed, START, DAYS);

/** The same injections on the FOCUS specification's examples as one team's bill (anomaly-focus-bill.ts). */
const FOCUS_SHAPES: Record<string, (seed: number) => Series> = {
  ...Object.fromEntries(Object.entries(INJECTED).map(([shape, make]) => [shape, (seed: number) => make(seed, focusBill)])),
  // The specification's own one-year commitment bought upfront (purchase scenario 1: 8,760 One-Time), a second time.
  'a new one-year commitment bought upfront (8,760, One-Time)': (seed) => {
    const { daily, calendar } = focusBill(seed);
    const day = injectionDay(mulberry32(seed + 1), 1);
    add(daily, day, 8760);
    const c = calendar.get(day) ?? { recurring: 0, oneTime: 0 };
    calendar.set(day, { ...c, oneTime: c.oneTime + 8760 });
    return { daily, calendar, labels: [{ start: day, end: day }] };
  },
};

/** The days each method alerts on (the first day of each run of anomalous days). */
function alertsOf(method: Method, series: Series): string[] {
  const days = [...series.daily.keys()].sort().slice(WARM_UP);
  const alerts: string[] = [];
  if (method !== 'burnrate') {
    const test = method === 'z-score 28d' ? zScore28 : weekdayMean;
    let previous = false;
    for (const day of days) {
      const now = test(series.daily, day, POLICY.floor);
      if (now && !previous) alerts.push(day);
      previous = now;
    }
    return alerts;
  }
  // burnrate: the check's own rules, each day's data complete, Expected answers taken in.
  const acceptances: Acceptance[] = [];
  let open: string | null = null;
  for (const day of days) {
    const judged = judgeDays(teamDays(series.daily, series.calendar, day), POLICY, day);
    const anomaly = teamAnomaly({
      team: 't',
      currency: 'USD',
      policy: POLICY,
      judged,
      drivers: new Map(),
      acceptances,
      provisional: addDays(day, 1),
    });
    if (anomaly && anomaly.id !== open) {
      alerts.push(anomaly.started);
      if (series.labels.some((l) => l.planned && anomaly.started >= l.start && anomaly.started <= addDays(l.end, 1)))
        acceptances.push(acceptedOf(anomaly));
    }
    open = anomaly?.id ?? null;
  }
  return alerts;
}

function measure(shape: string, paths: readonly Series[]): AnomalyBacktestRow {
  const row: AnomalyBacktestRow = {
    shape,
    series: paths.length,
    teamMonths: (paths.length * (DAYS - WARM_UP)) / 30,
    labelled: paths.reduce((n, p) => n + p.labels.length, 0),
    recall: {} as Record<Method, number>,
    precision: {} as Record<Method, number>,
    daysToDetect: {} as Record<Method, number | null>,
    falsePerTeamMonth: {} as Record<Method, number>,
    afterExpected: {} as Record<Method, number>,
  };
  for (const method of METHODS) {
    let found = 0;
    let trueAlerts = 0;
    let falseAlerts = 0;
    let afterExpected = 0;
    const delays: number[] = [];
    for (const series of paths) {
      const alerts = alertsOf(method, series);
      // A run that began the day before a label's first day (the drift's first small days) still counts as that label's.
      const labelOf = (day: string) => series.labels.find((l) => day >= l.start && day <= l.end);
      for (const label of series.labels) {
        const hit = alerts.find((a) => a >= label.start && a <= label.end);
        if (hit) {
          found++;
          delays.push(daysBetween(label.start, hit));
        }
        if (label.planned) afterExpected += alerts.filter((a) => a > label.end && a <= addDays(label.start, 14)).length;
      }
      for (const alert of alerts) {
        if (labelOf(alert)) trueAlerts++;
        else falseAlerts++;
      }
    }
    row.recall[method] = row.labelled ? found / row.labelled : NaN;
    row.precision[method] = trueAlerts + falseAlerts ? trueAlerts / (trueAlerts + falseAlerts) : NaN;
    row.daysToDetect[method] = delays.length ? delays.reduce((a, b) => a + b, 0) / delays.length : null;
    row.falsePerTeamMonth[method] = falseAlerts / row.teamMonths;
    row.afterExpected[method] = afterExpected;
  }
  return row;
}

/**
 * The demo organisation's teams as its bill has them (in USD at the demo's rate), each with one
 * spike of three of its usual days injected on a weekday: real-shaped fleets that start and stop.
 */
function demoSeries(): Series[] {
  const config = demoConfig();
  const end = addDays(START, DAYS);
  const rows = demoSpendRows({
    seed: 42,
    days: DAYS,
    now: new Date(`${end}T09:00:00Z`),
    tagKeys: config.ownership.tagKeys,
    resolveTeam: teamResolver(config.teams),
  });
  return config.teams.map((team, i) => {
    const daily = new Map<string, number>();
    const calendar = new Map<string, CalendarDay>();
    for (const row of rows.filter((r) => r.team === team.id && r.day < end && r.day >= START)) {
      const usd = row.effective * (row.currency === 'USD' ? 1 : config.fx.rates[row.currency]!);
      add(daily, row.day, usd);
      const kind = costKindOf(row.chargeCategory, row.chargeFrequency);
      if (kind === 'usage') continue;
      const c = calendar.get(row.day) ?? { recurring: 0, oneTime: 0 };
      if (kind === 'recurring') c.recurring += usd;
      else c.oneTime += usd;
      calendar.set(row.day, c);
    }
    const day = injectionDay(mulberry32(100 + i), 1, 3);
    const usual = [...daily.values()].sort((a, b) => a - b)[Math.floor(daily.size / 2)] ?? 0;
    add(daily, day, 3 * usual);
    return { daily, calendar, labels: [{ start: day, end: day }] };
  });
}

export function runAnomalyBacktest(): AnomalyBacktestRow[] {
  const rows = Object.entries(SHAPES).map(([shape, make]) =>
    measure(
      shape,
      Array.from({ length: PATHS }, (_, path) => make(1000 + path * 7)),
    ),
  );
  rows.push(measure('demo teams, one spike of 3 usual days each', demoSeries()));
  for (const [shape, make] of Object.entries(FOCUS_SHAPES))
    rows.push(
      measure(
        `FOCUS examples' bill: ${shape}`,
        Array.from({ length: PATHS }, (_, path) => make(2000 + path * 7)),
      ),
    );
  return rows;
}

export function printAnomalyBacktest(rows: readonly AnomalyBacktestRow[]): void {
  const f = (x: number | null, digits = 2) => (x === null || Number.isNaN(x) ? '–' : x.toFixed(digits));
  const all = (g: (m: Method) => string) => METHODS.map(g).join(' / ');
  console.log(
    `\nAnomaly backtest (policy: floor ${POLICY.floor}, ${POLICY.deviations} robust deviations; each day after ${WARM_UP} as "today"):`,
  );
  console.log(
    '| shape | series | team-months | recall b / z / w | precision b / z / w | days to detect b / z / w | false alerts per team-month b / z / w | alerts after Expected b / z / w |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.shape} | ${r.series} | ${r.teamMonths.toFixed(1)} | ${all((m) => f(r.recall[m]))} | ${all((m) => f(r.precision[m]))} | ${all((m) => f(r.daysToDetect[m], 1))} | ${all((m) => f(r.falsePerTeamMonth[m]))} | ${all((m) => String(r.afterExpected[m]))} |`,
    );
  console.log('  b / z / w: burnrate / z-score on the 28-day mean / straight weekday mean (same floor).');
}
