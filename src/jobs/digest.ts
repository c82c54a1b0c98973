import { digestPeriod } from '../checks/digest/digest-period.js';
import type { Deps } from '../deps.js';
import { wallClock } from '../domain/wall-clock.js';
import { groupsOf } from '../ports/people-directory.js';
import { fanOut, toPerson } from '../outbox/fan-out.js';
import { loadDigestContext, loadTeamDigest, type DigestContext } from '../snapshots/team-digest.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { organisationDigest, teamDigest } from '../../templates/digest.js';

/**
 * Each team's digest, for the teams given (the scheduler runs each time zone at `digest.at` there),
 * once that hour has come: yesterday every day, or last week on Mondays, in the team's channels.
 * The dedupe key names the team and the period: one digest per period however often the job runs.
 */
export async function runTeamDigests(deps: Deps, teamIds: readonly string[]): Promise<number> {
  const now = deps.clock();
  // Read only when some team's digest is due: most runs of the day find none.
  let context: DigestContext | undefined;
  const drafts: OutboxDraft[] = [];
  for (const team of deps.config.teams.filter((t) => teamIds.includes(t.id))) {
    // Not before its hour: serve's first run at 03:00 leaves it to the schedule; at 11:00 it catches up.
    const clock = wallClock(now, team.timezone);
    const digest = team.digest === 'off' || clock.time < deps.config.digest.at ? null : digestPeriod(team.digest, clock.day);
    if (!digest) continue;
    drafts.push(
      ...fanOut(
        deps.chat,
        team,
        `digest:${team.id}:${digest.label}`,
        teamDigest(await loadTeamDigest(deps, team, digest, (context ??= await loadDigestContext(deps)))),
      ),
    );
  }
  return drafts.length > 0 ? deps.store.outbox.enqueue(drafts, now) : 0;
}

/**
 * The organisation's digest (`digest.organisation`): every team's line, by direct message to each
 * admin (a group of admins: each member) on every platform that can reach them; days in UTC.
 */
export async function runOrganisationDigest(deps: Deps): Promise<number> {
  const cadence = deps.config.digest.organisation;
  if (cadence === 'off' || deps.config.teams.length === 0) return 0;
  const now = deps.clock();
  const clock = wallClock(now, 'UTC');
  const digest = clock.time < deps.config.digest.at ? null : digestPeriod(cadence, clock.day);
  if (!digest) return 0;
  const context = await loadDigestContext(deps);
  const teams = [];
  for (const team of deps.config.teams) teams.push(await loadTeamDigest(deps, team, digest, context));
  const message = organisationDigest(teams);
  const groups = groupsOf(deps);
  const admins = [...new Set(deps.config.admins.flatMap((ref) => groups(ref) ?? [ref]))];
  const drafts = admins.flatMap((admin) => toPerson(deps.chat, admin, `digest:organisation:${digest.label}:${admin}`, message));
  return drafts.length > 0 ? deps.store.outbox.enqueue(drafts, now) : 0;
}
