import { addDays, toDay, weekdayOf, type Period } from '../../domain/period.js';
import { SAVING_WINDOW_DAYS, type SavingEntry, type SavingLine, type SavingsLedger } from '../../domain/saving.js';
import { cents } from '../review/allocate.js';
import { entryHolds } from './entry-holds.js';
import { PROFILE_DAYS, weekdayProfile, weekdayShares } from './weekday-profile.js';

export interface SavingsLedgerInput {
  /** Every entry that may touch the period, oldest first: a later action on a resource ends the one before. */
  entries: readonly SavingEntry[];
  /** The teams whose lines are wanted; null for all. */
  teams?: readonly string[] | null;
  period: Period;
  /** The first day the bill does not cover yet (exclusive); null before any import. */
  billedThrough: string | null;
  /** What the bill charged each resource a day, in `currency`. */
  daily: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** When each resource's GPUs reported (any sample), ascending: seen running again after a stop. */
  seenRunning?: ReadonlyMap<string, readonly Date[]>;
  currency: string;
}

/** What the two figures rest on, said beside them wherever the ledger is shown. */
export const LEDGER_BASIS = {
  expected: `the action's saving a day, for each day from the day after it for ${SAVING_WINDOW_DAYS} days until it was undone (resumed, reverted, restarted or acted on again), each weekday at the share of it the resource ran in the ${PROFILE_DAYS} days before`,
  realised: `for each day the bill covers (its last, provisional day excluded): what the resource cost on that weekday on average in the ${PROFILE_DAYS} days before, less what the bill charged that day, never below 0`,
} as const;

/**
 * The ledger over a period: one line per action and resource, each day of a resource counted by
 * one action at most (entry-holds.ts). Expected: the action's saving a day, weighted by the
 * resource's weekday profile (weekday-profile.ts), over the days it held. Realised: what the bill
 * confirms over those days, against the same profile, never below 0 a day: a stopped instance
 * someone started again saves nothing those days, it does not cost the ledger. The day of the
 * action, and the bill's provisional last day, count for neither. Pure.
 */
export function savingsLedger(input: SavingsLedgerInput): SavingsLedger {
  const holds = entryHolds(input.entries, input.seenRunning ?? new Map());
  // The bill's last day is provisional (providers revise it for up to a day): not yet confirmed.
  const confirmedBefore = input.billedThrough === null ? null : addDays(input.billedThrough, -1);
  const lines = input.entries.flatMap((entry, i): SavingLine[] => {
    if (input.teams && (entry.team === null || !input.teams.includes(entry.team))) return [];
    const hold = holds[i]!;
    const actionDay = toDay(entry.at);
    const from = maxDay(addDays(actionDay, 1), input.period.start);
    let until = minDay(addDays(actionDay, 1 + SAVING_WINDOW_DAYS), input.period.end);
    // The day it was undone ran in part: it counts for neither.
    if (hold.until) until = minDay(until, toDay(hold.until));
    const days = dayRange(from, until);
    if (days.length === 0) return [];
    const charges = input.daily.get(entry.resourceId) ?? new Map<string, number>();
    const profile = weekdayProfile(charges, actionDay);
    const shares = profile ? weekdayShares(profile) : null;
    const expected = cents(days.reduce((s, d) => s + entry.expectedDaily * (shares ? shares[weekdayOf(d)]! : 1), 0));
    const base = { ...entry, expected, days: days.length, endedBy: hold.endedBy };
    const unconfirmed = (note: string): SavingLine[] => [{ ...base, baselineDaily: null, realised: null, confirmedDays: 0, note }];
    if (entry.action === 'spot.approve')
      return unconfirmed('expected only: the relaunched spot instance has a new id, so the bill cannot tie it to this one');
    if (!profile) return unconfirmed(`the bill charged nothing in the ${PROFILE_DAYS} days before`);
    const baselineDaily = profile.reduce((a, b) => a + b, 0) / 7;
    const billed = confirmedBefore === null ? [] : days.filter((d) => d < confirmedBefore);
    const realised =
      billed.length === 0 ? null : cents(billed.reduce((s, d) => s + Math.max(0, profile[weekdayOf(d)]! - (charges.get(d) ?? 0)), 0));
    const plural = billed.length === 1 ? '' : 's';
    return [
      {
        ...base,
        baselineDaily: cents(baselineDaily),
        realised,
        confirmedDays: billed.length,
        note:
          billed.length === 0
            ? 'not billed yet'
            : `${billed.length} billed day${plural} against its weekday profile before the action (${cents(baselineDaily)} a day on average)`,
      },
    ];
  });
  return {
    period: input.period,
    currency: input.currency,
    lines,
    realised: cents(lines.reduce((s, l) => s + (l.realised ?? 0), 0)),
    expected: cents(lines.reduce((s, l) => s + l.expected, 0)),
    billedThrough: input.billedThrough,
    basis: LEDGER_BASIS,
  };
}

/** Days from `start` (included) to `end` (excluded). */
function dayRange(start: string, end: string): string[] {
  const days: string[] = [];
  for (let d = start; d < end; d = addDays(d, 1)) days.push(d);
  return days;
}

const minDay = (a: string, b: string) => (a < b ? a : b);
const maxDay = (a: string, b: string) => (a > b ? a : b);
