import { budgetStatus } from '../checks/budget-status.js';
import type { Deps } from '../deps.js';
import { hasRole, rolesOf, visibleTeams } from '../domain/roles.js';
import { loadBudgetSnapshot } from '../snapshots/budget-snapshot.js';
import { appHome } from '../../templates/app-home.js';
import type { Message } from '../../templates/message.js';
import type { Actor } from '../ports/interaction.js';

/** The dashboard of one user (Slack App Home, and any platform with a personal view). */
export async function homeView(deps: Deps, actor: Actor): Promise<Message> {
  const now = deps.clock();
  const roles = rolesOf(deps.config, actor.userId);
  const teamIds = visibleTeams(deps.config, roles);
  const teams = deps.config.teams.filter((t) => teamIds.includes(t.id));
  const [snapshot, open, sources] = await Promise.all([
    loadBudgetSnapshot(deps, teams, now),
    deps.store.findings.listOpen(),
    deps.store.freshness.list(),
  ]);
  return appHome({
    userName: actor.name ?? actor.userId,
    statuses: budgetStatus(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now),
    openFindings: open.filter((f) => teamIds.includes(f.team)),
    sources,
    dataThrough: snapshot.dataThrough,
    stale: snapshot.stale,
    editableTeams: teamIds.filter((t) => hasRole(roles, t, ['approver'])),
  });
}
