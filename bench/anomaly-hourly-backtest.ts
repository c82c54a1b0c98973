// Hourly anomaly backtest: synthetic GPU-fleet hourly cost with labelled injected runaways, every
// hour after eight days of history taken as the latest complete hour. A detector alerts once per
// run of hours it finds anomalous; reported: recall, precision, data hours to detect (complete hours
// of data from the runaway's first hour to the alert, the bill's own delay aside) and false alerts
// per team-month (720 hours judged), for burnrate's hourly rule (src/checks/anomalies/hourly-runaway.ts),
// its daily rule on the same cost summed by day (alerting once a day's data is complete), a z-score
// on the 28-day hourly mean and a mean of the same hour over the week before.

import { HOURLY_PAST_DAYS, hourlyRunaway, type HourAmount } from '../src/checks/anomalies/hourly-runaway.js';
import { judgeDays } from '../src/checks/anomalies/judge-days.js';
import { teamAnomaly } from '../src/checks/anomalies/team-anomaly.js';
import { teamDays } from '../src/checks/anomalies/team-days.js';
import { anomaliesSchema } from '../src/config/anomalies-schema.js';
import { addDays } from '../src/domain/period.js';
import { mulberry32 } from '../src/providers/demo/random.js';
import { sameHourMean, zScoreHourly28 } from './anomaly-baselines.js';

const POLICY = anomaliesSchema.parse({});
const H = 3600;
const START = Date.parse('2026-08-01T00:00:00Z') / 1000;
const DAYS = 60;
/** Hours before the first judged hour: the daily rule's four weeks and a week of lookback. */
const WARM_UP_HOURS = 35 * 24;
const PATHS = 20;
const METHODS = ['burnrate hourly', 'burnrate daily', 'z-score 28d hourly', 'same-hour mean'] as const;
type Method = (typeof METHODS)[number];

interface Label {
  start: number;
  end: number;
}

interface HourlySeries {
  hours: HourAmount[];
  labels: Label[];
}

export interface HourlyBacktestRow {
  shape: string;
  series: number;
  teamMonths: number;
  labelled: number;
  recall: Record<Method, number>;
  precision: Record<Method, number>;
  hoursToDetect: Record<Method, number | null>;
  falsePerTeamMonth: Record<Method, number>;
}

/**
 * A fleet's hourly cost: $60 an hour on weekdays 09:00–19:00 UTC, $15 otherwise, ±10% noise, and
 * jobs that start and stop: each hour a 3% chance of a $40-an-hour job for 1 to 3 hours.
 */
function fleet(seed: number): HourAmount[] {
  const random = mulberry32(seed);
  const amounts = new Array<number>(DAYS * 24).fill(0);
  for (let i = 0; i < amounts.length; i++) {
    const at = new Date((START + i * H) * 1000);
    const busy = at.getUTCDay() !== 0 && at.getUTCDay() !== 6 && at.getUTCHours() >= 9 && at.getUTCHours() < 19;
    amounts[i]! += (busy ? 60 : 15) * (0.9 + 0.2 * random());
    if (random() < 0.03) for (let k = 0, n = 1 + Math.floor(random() * 3); k < n && i + k < amounts.length; k++) amounts[i + k]! += 40;
  }
  return amounts.map((amount, i) => ({ hour: START + i * H, amount }));
}

function inject(hours: HourAmount[], from: number, add: (k: number) => number, length: number): Label {
  for (let k = 0; k < length; k++) {
    const i = (from - START) / H + k;
    if (hours[i]) hours[i]!.amount += add(k);
  }
  return { start: from, end: from + (length - 1) * H };
}

/** A random hour after the warm-up with `room` hours left after it. */
function startHour(random: () => number, room: number): number {
  return START + (WARM_UP_HOURS + Math.floor(random() * (DAYS * 24 - WARM_UP_HOURS - room))) * H;
}

const SHAPES: Record<string, (seed: number) => HourlySeries> = {
  'none (false alerts only)': (seed) => ({ hours: fleet(seed), labels: [] }),
  'runaway sweep growing each hour (+$25 more each hour, 30 h)': (seed) => {
    const hours = fleet(seed);
    return { hours, labels: [inject(hours, startHour(mulberry32(seed + 1), 31), (k) => 25 * (k + 1), 30)] };
  },
  'a p5.48xlarge left running (+$98.32 an hour, 12 h)': (seed) => {
    const hours = fleet(seed);
    return { hours, labels: [inject(hours, startHour(mulberry32(seed + 1), 13), () => 98.32, 12)] };
  },
};

/** The hours each method alerts at (the latest complete hour when a new run is first found), with the run's first hour. */
function alertsOf(method: Method, series: HourlySeries): { at: number; started: number }[] {
  const alerts: { at: number; started: number }[] = [];
  const amountAt = new Map(series.hours.map((h) => [h.hour, h.amount]));
  const judged = series.hours.slice(WARM_UP_HOURS);
  if (method === 'burnrate daily') {
    const daily = new Map<string, number>();
    for (const h of series.hours) {
      const day = new Date(h.hour * 1000).toISOString().slice(0, 10);
      daily.set(day, (daily.get(day) ?? 0) + h.amount);
    }
    let open: string | null = null;
    for (const day of [...daily.keys()].slice(WARM_UP_HOURS / 24)) {
      const anomaly = teamAnomaly({
        team: 't',
        currency: 'USD',
        policy: POLICY,
        judged: judgeDays(teamDays(daily, undefined, day), POLICY, day),
        drivers: new Map(),
        acceptances: [],
        provisional: addDays(day, 1),
      });
      // The day's data is complete at its end: the alert's hour is the day's last.
      if (anomaly && anomaly.id !== open)
        alerts.push({ at: Date.parse(`${day}T23:00:00Z`) / 1000, started: Date.parse(`${anomaly.started}T00:00:00Z`) / 1000 });
      open = anomaly?.id ?? null;
    }
    return alerts;
  }
  let previous: number | null = null;
  for (const { hour } of judged) {
    const started =
      method === 'burnrate hourly'
        ? (hourlyRunaway(series.hours, POLICY, hour)?.started ?? null)
        : runOf(hour, (h) => (method === 'z-score 28d hourly' ? zScoreHourly28 : sameHourMean)(amountAt, h, POLICY.floor));
    if (started !== null && started !== previous) alerts.push({ at: hour, started });
    previous = started;
  }
  return alerts;
}

/** A baseline's run of at least two hours in a row beyond its bar ending at `hour` (as burnrate's hourly rule asks), or null. */
function runOf(hour: number, beyond: (hour: number) => boolean): number | null {
  let started = hour;
  while (beyond(started - H)) started -= H;
  return beyond(hour) && hour - started >= H ? started : null;
}

function measure(shape: string, paths: readonly HourlySeries[]): HourlyBacktestRow {
  const teamMonths = (paths.length * (DAYS * 24 - WARM_UP_HOURS)) / 720;
  const labelled = paths.reduce((n, p) => n + p.labels.length, 0);
  const row: HourlyBacktestRow = {
    shape,
    series: paths.length,
    teamMonths,
    labelled,
    recall: {} as Record<Method, number>,
    precision: {} as Record<Method, number>,
    hoursToDetect: {} as Record<Method, number | null>,
    falsePerTeamMonth: {} as Record<Method, number>,
  };
  for (const method of METHODS) {
    let found = 0;
    let trueAlerts = 0;
    let falseAlerts = 0;
    const delays: number[] = [];
    for (const series of paths) {
      const alerts = alertsOf(method, series);
      // A daily alert starts at its day's midnight: it is the label's when that day holds the label's first hour.
      const isOf = (a: { at: number; started: number }, l: Label) => a.at >= l.start && a.started <= l.end;
      for (const label of series.labels) {
        const hit = alerts.find((a) => isOf(a, label));
        if (!hit) continue;
        found++;
        delays.push((hit.at - label.start) / H + 1);
      }
      for (const alert of alerts) {
        if (series.labels.some((l) => isOf(alert, l))) trueAlerts++;
        else falseAlerts++;
      }
    }
    row.recall[method] = labelled ? found / labelled : NaN;
    row.precision[method] = trueAlerts + falseAlerts ? trueAlerts / (trueAlerts + falseAlerts) : NaN;
    row.hoursToDetect[method] = delays.length ? delays.reduce((a, b) => a + b, 0) / delays.length : null;
    row.falsePerTeamMonth[method] = falseAlerts / teamMonths;
  }
  return row;
}

export function runHourlyAnomalyBacktest(): HourlyBacktestRow[] {
  return Object.entries(SHAPES).map(([shape, make]) =>
    measure(
      shape,
      Array.from({ length: PATHS }, (_, path) => make(2000 + path * 7)),
    ),
  );
}

export function printHourlyAnomalyBacktest(rows: readonly HourlyBacktestRow[]): void {
  const f = (x: number | null, digits = 2) => (x === null || Number.isNaN(x) ? '–' : x.toFixed(digits));
  const all = (g: (m: Method) => string) => METHODS.map(g).join(' / ');
  console.log(
    `\nHourly anomaly backtest (policy: floor ${POLICY.floor}, ${POLICY.deviations} robust deviations; same hours of the ${HOURLY_PAST_DAYS} days before; each hour after ${WARM_UP_HOURS} as the latest):`,
  );
  console.log(
    '| shape | series | team-months | recall h / d / z / s | precision h / d / z / s | data hours to detect h / d / z / s | false alerts per team-month h / d / z / s |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.shape} | ${r.series} | ${r.teamMonths.toFixed(1)} | ${all((m) => f(r.recall[m]))} | ${all((m) => f(r.precision[m]))} | ${all((m) => f(r.hoursToDetect[m], 1))} | ${all((m) => f(r.falsePerTeamMonth[m]))} |`,
    );
  console.log(
    '  h / d / z / s: burnrate hourly / burnrate daily on the same cost by day / z-score on the 28-day hourly mean / mean of the same hour over the week before (same floor as a day at that rate).',
  );
}
