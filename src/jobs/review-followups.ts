import { decisionSaving } from '../checks/review/decision-savings.js';
import { fanOutInThread } from '../snapshots/fan-out.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { Message } from '../../templates/message.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { reviewClose, reviewReminder } from '../../templates/review-followups.js';
import { workingDaysPassed } from './review/review-calendar.js';
import { reviewGroup, teamPeople, teamSchedule } from './review/review-people.js';

export interface FollowupReport {
  reminded: string[];
  closed: string[];
}

/**
 * What open reviews need next, step by step, per review:
 *   1. its month of decisions is over: post the summary of decisions and savings, and close it
 *   2. else, `review.reminderAfterWorkingDays` working days after it was posted: one reminder of the
 *      lines nobody answered (never a second: the review is marked reminded in the same transaction)
 */
export async function runReviewFollowups(deps: Deps, options: { teams?: readonly string[] } = {}): Promise<FollowupReport> {
  const now = deps.clock();
  const report: FollowupReport = { reminded: [], closed: [] };
  for (const review of await deps.store.reviews.listOpen()) {
    const team = deps.config.teams.find((t) => t.id === review.team);
    if (!team || (options.teams && !options.teams.includes(team.id))) continue;
    const lines = await deps.store.reviews.lines(review.team, review.month);
    const group = reviewGroup(review.team, review.month);
    if (now >= review.closesAt) {
      const decisions = lines.map((line) => ({ line, saving: decisionSaving(line) }));
      const message = reviewClose({ teamName: review.figures.teamName, month: review.month, currency: review.figures.currency, decisions });
      if (await deps.store.reviews.close(review.team, review.month, await threadReplies(deps, team, group, 'close', message), now))
        report.closed.push(group);
      continue;
    }
    if (
      review.remindedAt ||
      !workingDaysPassed(review.createdAt, now, deps.config.review.reminderAfterWorkingDays, teamSchedule(deps.config, team))
    )
      continue;
    const unanswered = lines.filter((l) => l.answer === null);
    // Everything answered: marked reminded with nothing to say, so the step never looks again.
    const drafts =
      unanswered.length === 0
        ? []
        : await threadReplies(
            deps,
            team,
            group,
            'reminder',
            reviewReminder({ teamName: review.figures.teamName, month: review.month, unanswered, people: teamPeople(team) }),
          );
    if (
      (await deps.store.reviews.remind(
        review.team,
        review.month,
        unanswered.map((l) => l.id),
        drafts,
        now,
      )) &&
      drafts.length > 0
    )
      report.reminded.push(group);
  }
  return report;
}

/** A reply in the review's thread on every platform it was posted to. */
function threadReplies(deps: Deps, team: TeamConfig, group: string, kind: string, message: Message): Promise<OutboxDraft[]> {
  return fanOutInThread(deps, team, group, `${group}:${kind}`, [{ op: 'reply', message }]);
}
