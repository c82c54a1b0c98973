import { addDays } from '../../domain/period.js';
import type { AnomalyPolicy } from './anomaly-policy.js';
import { expectDay } from './expected-spend.js';
import type { TeamDays } from './team-days.js';

/** One day against its expected value. */
export interface JudgedDay {
  day: string;
  actual: number;
  expected: number;
  spread: number;
  /** actual − expected, new calendar charges included. */
  excess: number;
  newCharges: number;
  historyDays: number;
  /** Beyond both the floor and the deviations, before any Expected answer is taken off. */
  beyond: boolean;
}

/** How far back a run of anomalous days is followed to its first day. */
export const RUN_LOOKBACK_DAYS = 14;

/**
 * The last RUN_LOOKBACK_DAYS days through `through` (the data's provisional last day), each against
 * its own expected value drawn from the days before it. A day without enough history is left out. Pure.
 */
export function judgeDays(team: TeamDays, policy: AnomalyPolicy, through: string): JudgedDay[] {
  const out: JudgedDay[] = [];
  const amountOf = new Map(team.usage.map((u) => [u.day, u.amount]));
  for (let day = addDays(through, 1 - RUN_LOOKBACK_DAYS); day <= through; day = addDays(day, 1)) {
    const usage = amountOf.get(day);
    if (usage === undefined) continue;
    const expectation = expectDay(team.usage, day, policy.windowDays, policy.minHistoryDays);
    if (!expectation) continue;
    const newCharges = team.newCharges.get(day) ?? 0;
    const excess = usage + newCharges - expectation.expected;
    out.push({
      day,
      actual: usage + newCharges,
      expected: expectation.expected,
      spread: expectation.spread,
      excess,
      newCharges,
      historyDays: expectation.historyDays,
      beyond: isBeyond(excess, expectation.spread, policy),
    });
  }
  return out;
}

/** Beyond both bars: the amount floor, and `deviations` robust deviations. */
export function isBeyond(excess: number, spread: number, policy: AnomalyPolicy): boolean {
  return excess >= policy.floor && excess >= policy.deviations * spread;
}
