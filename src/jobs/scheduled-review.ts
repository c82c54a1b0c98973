import type { Deps } from '../deps.js';
import { runMonthlyReview } from './monthly-review.js';
import { isFirstWorkingDay } from './review/review-calendar.js';
import { teamSchedule } from './review/review-people.js';
import { runReviewFollowups, type FollowupReport } from './review-followups.js';

/**
 * The daily review tick of a time zone's teams (at `review.at`, their local time):
 *   1. teams on their first working day of the month get last month's review
 *   2. open reviews get their one reminder or, once their month is over, their summary
 */
export async function runScheduledReview(deps: Deps, teams: readonly string[]): Promise<{ posted: string[] } & FollowupReport> {
  const now = deps.clock();
  const due = deps.config.teams
    .filter((t) => teams.includes(t.id) && isFirstWorkingDay(now, teamSchedule(deps.config, t)))
    .map((t) => t.id);
  const posted =
    due.length > 0 ? (await runMonthlyReview(deps, { teams: due })).filter((r) => r.queued > 0).map((r) => `${r.team}:${r.month}`) : [];
  const followups = await runReviewFollowups(deps, { teams });
  return { posted, ...followups };
}
