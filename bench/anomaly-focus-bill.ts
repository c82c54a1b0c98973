// A team's bill made of the FOCUS specification's worked examples (v1.2, CC BY 4.0; copied in
// test/fixtures/focus/spec_examples_v1.2, see test/fixtures/SOURCES.md): every row of the 26
// examples, with its charge category, frequency, service and effective cost as the specification
// writes them, repeated at its own cadence over the backtest's days. What is real: the rows, their
// amounts and their mix (hourly commitment-covered usage and purchases, daily SaaS usage, monthly
// usage and fees, upfront purchases). What is constructed: the repetition itself (the examples
// cover an hour, a day or a month each) and ±10% noise on each day's usage.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { costKindOf, type CalendarDay, type CostKind } from '../src/domain/cost-kind.js';
import { addDays } from '../src/domain/period.js';
import { mulberry32 } from '../src/providers/demo/random.js';

/** Read from the built bench (dist/bench), as the other benches find their files. */
const EXAMPLES = fileURLToPath(new URL('../../test/fixtures/focus/spec_examples_v1.2/', import.meta.url));
const DAY_HOURS = 24;
const MONTH_HOURS = 28 * DAY_HOURS;

/** One example row: how it recurs and what it costs each time. */
interface ExampleCharge {
  kind: CostKind;
  /** Its charge period in hours: an hour, a day, a month or a year. */
  hours: number;
  cost: number;
}

/** A CSV line split on commas outside double quotes (the SaaS examples quote "$10,000.00"). */
function cells(line: string): string[] {
  return [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => (m[2] ?? m[1] ?? '').trim());
}

/** ISO times, or the SaaS examples' M/D/YY dates. NaN for what is neither (one example writes 30:00). */
function timeOf(text: string): number {
  const us = /^(\d+)\/(\d+)\/(\d+)$/.exec(text);
  return us ? Date.UTC(2000 + Number(us[3]), Number(us[1]) - 1, Number(us[2])) : Date.parse(text);
}

function hoursBetween(start: string | undefined, end: string | undefined): number {
  return (timeOf(end ?? '') - timeOf(start ?? '')) / 3_600_000;
}

/** Every row of every example, read as the team's spend reads a bill: EffectiveCost (BilledCost where the example has none). */
export function exampleCharges(): ExampleCharge[] {
  return readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .flatMap((file) => {
      const [header, ...lines] = readFileSync(EXAMPLES + file, 'utf8')
        .split(/\r?\n/)
        .filter(Boolean);
      const names = cells(header!);
      return lines.map((line) => {
        const row = Object.fromEntries(cells(line).map((v, i) => [names[i], v]));
        const charge = hoursBetween(row.ChargePeriodStart, row.ChargePeriodEnd);
        const hours = Number.isFinite(charge) ? charge : hoursBetween(row.BillingPeriodStart, row.BillingPeriodEnd);
        const cost = Number((row.EffectiveCost || row.BilledCost || '0').replace(/[$,]/g, ''));
        return { kind: costKindOf(row.ChargeCategory ?? '', row.ChargeFrequency), hours, cost: Number.isFinite(cost) ? cost : 0 };
      });
    });
}

/**
 * The examples as one team's daily bill from `start` for `days` days: a charge of an hour or a
 * day is usage on every day (an hourly one 24 times); a month's usage is spread over its days; a
 * month's fee (Recurring or One-Time) falls on every 1st as a calendar item; a year's upfront
 * purchase falls on the first day.
 */
export function focusExampleBill(
  seed: number,
  start: string,
  days: number,
): { daily: Map<string, number>; calendar: Map<string, CalendarDay> } {
  const random = mulberry32(seed);
  const charges = exampleCharges().filter((c) => c.cost !== 0 && c.hours > 0);
  const daily = new Map<string, number>();
  const calendar = new Map<string, CalendarDay>();
  for (let i = 0; i < days; i++) {
    const day = addDays(start, i);
    let total = 0;
    const items: CalendarDay = { recurring: 0, oneTime: 0 };
    // The day's usage moves as one: a team busier one day is busier on every line.
    const noise = 0.9 + 0.2 * random();
    for (const c of charges) {
      if (c.hours <= DAY_HOURS) total += (c.cost * DAY_HOURS * noise) / c.hours;
      else if (c.hours < MONTH_HOURS * 2 && c.kind === 'usage') total += (c.cost * DAY_HOURS * noise) / c.hours;
      else if ((c.hours < MONTH_HOURS * 2 && day.endsWith('-01')) || i === 0) {
        total += c.cost;
        if (c.kind === 'recurring') items.recurring += c.cost;
        else items.oneTime += c.cost;
      }
    }
    daily.set(day, total);
    if (items.recurring || items.oneTime) calendar.set(day, items);
  }
  return { daily, calendar };
}
