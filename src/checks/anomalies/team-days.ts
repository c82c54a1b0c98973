import type { CalendarDay } from '../../domain/cost-kind.js';
import { addDays } from '../../domain/period.js';
import type { DayAmount } from './expected-spend.js';

/** A team's days as the anomaly check reads them: usage, and the one-off and monthly charges that are new. */
export interface TeamDays {
  /** Usage of every day from the first with spend through the last, missing days at 0. */
  usage: DayAmount[];
  /** day -> one-off or monthly charges of that day with no like charge in the 35 days before. */
  newCharges: Map<string, number>;
}

/** A calendar charge has a precedent when one at least half its size was billed within this many days before. */
const PRECEDENT_DAYS = 35;

/**
 * Splits a team's daily spend into usage (what the expected value is fitted to) and calendar
 * charges (purchases, fees: labelled by ChargeCategory and ChargeFrequency on import). A calendar
 * charge like one billed in the month before (a monthly fee, a fee spread over the days) is known
 * and never an anomaly; one without a precedent is new, and counts. Pure.
 */
export function teamDays(
  daily: ReadonlyMap<string, number>,
  calendar: ReadonlyMap<string, CalendarDay> | undefined,
  through: string,
): TeamDays {
  const days = [...daily.keys()].filter((d) => d <= through).sort();
  if (days.length === 0) return { usage: [], newCharges: new Map() };
  const charges = (day: string) => {
    const c = calendar?.get(day);
    return c ? c.recurring + c.oneTime : 0;
  };
  const usage: DayAmount[] = [];
  const newCharges = new Map<string, number>();
  for (let day = days[0]!; day <= through; day = addDays(day, 1)) {
    const charge = charges(day);
    usage.push({ day, amount: (daily.get(day) ?? 0) - charge });
    if (charge <= 0) continue;
    let known = false;
    for (let back = 1; back <= PRECEDENT_DAYS && !known; back++) known = charges(addDays(day, -back)) >= charge / 2;
    if (!known) newCharges.set(day, charge);
  }
  return { usage, newCharges };
}
