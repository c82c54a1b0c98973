import type { TeamConfig } from '../../config/schema.js';
import type { TeamSchedule } from '../../checks/idle/team-schedule.js';
import type { Config } from '../../config/schema.js';

/** Who can own a review line: the team's owners and approvers, once each. */
export function teamPeople(team: TeamConfig): string[] {
  return [...new Set([...team.owners, ...team.approvers])];
}

/** The team's clock and working week (the same working hours the idle checks use). */
export function teamSchedule(config: Config, team: TeamConfig): TeamSchedule {
  return { timezone: team.timezone, workingHours: team.gpu.workingHours ?? config.gpu.workingHours };
}

/** The key of a review's thread in the outbox (alert_threads), per team and month. */
export function reviewGroup(team: string, month: string): string {
  return `review:${team}:${month}`;
}
