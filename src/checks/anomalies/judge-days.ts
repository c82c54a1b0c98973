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

/** Days within range in a row that end a run looking back: more than the one-day gap a run spans. */
const CALM_DAYS = 3;

/**
 * The days through `through` (the data's provisional last day), newest first back to CALM_DAYS days
 * in a row within range (at most RUN_LOOKBACK_DAYS), each against its own expected value drawn from
 * the days before it, returned oldest first: all a run going on now can reach, and no more (a calm
 * team costs three judgements, not fourteen). A day without enough history is left out. Pure.
 */
export function judgeDays(team: TeamDays, policy: AnomalyPolicy, through: string): JudgedDay[] {
  const out: JudgedDay[] = [];
  const amountOf = new Map(team.usage.map((u) => [u.day, u.amount]));
  let calm = 0;
  for (let back = 0; back < RUN_LOOKBACK_DAYS && calm < CALM_DAYS; back++) {
    const day = addDays(through, -back);
    const judged = judgeDay(team, policy, day, amountOf.get(day));
    if (judged) out.push(judged);
    calm = judged?.beyond ? 0 : calm + 1;
  }
  return out.reverse();
}

function judgeDay(team: TeamDays, policy: AnomalyPolicy, day: string, usage: number | undefined): JudgedDay | null {
  if (usage === undefined) return null;
  const expectation = expectDay(team.usage, day, policy.windowDays, policy.minHistoryDays);
  if (!expectation) return null;
  const newCharges = team.newCharges.get(day) ?? 0;
  const excess = usage + newCharges - expectation.expected;
  return {
    day,
    actual: usage + newCharges,
    expected: expectation.expected,
    spread: expectation.spread,
    excess,
    newCharges,
    historyDays: expectation.historyDays,
    beyond: isBeyond(excess, expectation.spread, policy),
  };
}

/** Beyond both bars: the amount floor, and `deviations` robust deviations. */
export function isBeyond(excess: number, spread: number, policy: AnomalyPolicy): boolean {
  return excess >= policy.floor && excess >= policy.deviations * spread;
}
