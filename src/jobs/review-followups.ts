import { personOf } from '../ports/people-directory.js';
import { decisionSaving } from '../checks/review/decision-savings.js';
import { fanOutInThread } from '../outbox/fan-out.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { Message } from '../../templates/message.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { reviewClose, reviewReminder } from '../../templates/review-followups.js';
import { reviewCorrection } from '../../templates/review-correction.js';
import { workingDaysPassed } from './review/review-calendar.js';
import { reviewGroup, teamPeople, teamSchedule } from './review/review-people.js';

export interface FollowupReport {
  reminded: string[];
  closed: string[];
  /** Reviews told of a correction of their month (once per corrected line and invoice); absent when none. */
  corrected?: string[];
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
  const corrected: string[] = [];
  for (const review of await deps.store.reviews.listOpen()) {
    const team = deps.config.teams.find((t) => t.id === review.team);
    if (!team || (options.teams && !options.teams.includes(team.id))) continue;
    const lines = await deps.store.reviews.lines(review.team, review.month);
    const group = reviewGroup(review.team, review.month);
    if (await flagCorrections(deps, team, review.month, group, now)) corrected.push(group);
    if (now >= review.closesAt) {
      const decisions = lines.map((line) => ({ line, saving: decisionSaving(line) }));
      const message = reviewClose({
        teamName: review.figures.teamName,
        month: review.month,
        currency: review.figures.currency,
        decisions,
        person: (userId) => personOf(deps, userId),
      });
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
            reviewReminder({
              teamName: review.figures.teamName,
              month: review.month,
              unanswered,
              people: teamPeople(team).map((ref) => personOf(deps, ref)),
            }),
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
  return corrected.length > 0 ? { ...report, corrected } : report;
}

/**
 * A correction billed after the review was posted (FOCUS ChargeClass 'Correction' on charges of the
 * reviewed month) is told in its thread, once per corrected line and invoice: the outbox keeps one
 * message per key, so later runs queue nothing again.
 */
async function flagCorrections(deps: Deps, team: TeamConfig, month: string, group: string, now: Date): Promise<boolean> {
  const drafts: OutboxDraft[] = [];
  for (const correction of await deps.store.spend.corrections(team.id, month)) {
    const key = `correction:${correction.billingPeriod}:${correction.service}:${correction.resourceId ?? ''}:${correction.currency}`;
    drafts.push(...(await threadReplies(deps, team, group, key, reviewCorrection({ month, correction }))));
  }
  return drafts.length > 0 && (await deps.store.outbox.enqueue(drafts, now)) > 0;
}

/** A reply in the review's thread on every platform it was posted to. */
function threadReplies(deps: Deps, team: TeamConfig, group: string, kind: string, message: Message): Promise<OutboxDraft[]> {
  return fanOutInThread(deps, team, group, `${group}:${kind}`, [{ op: 'reply', message }]);
}
