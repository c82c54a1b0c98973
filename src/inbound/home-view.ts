import { groupsOf } from '../ports/people-directory.js';
import { budgetStatus } from '../checks/budget/budget-status.js';
import type { Deps } from '../deps.js';
import { hasRole, rolesOf, visibleTeams } from '../domain/roles.js';
import { loadBudgetSnapshot } from '../snapshots/budget-snapshot.js';
import { openAlertsByTeam } from '../snapshots/open-alerts.js';
import { recentWaste, wasteRows } from '../snapshots/waste-snapshot.js';
import { loadSavingsLedger, savingsSummary } from '../snapshots/savings-ledger.js';
import { monthOf, toDay } from '../domain/period.js';
import { appHome } from '../../templates/app-home.js';
import type { Message } from '../../templates/message.js';
import type { Actor } from '../ports/interaction.js';

/** The dashboard of one user (Slack App Home, and any platform with a personal view). */
export async function homeView(deps: Deps, actor: Actor): Promise<Message> {
  const now = deps.clock();
  const roles = rolesOf(deps.config, actor.userId, groupsOf(deps));
  const teamIds = visibleTeams(deps.config, roles);
  const teams = deps.config.teams.filter((t) => teamIds.includes(t.id));
  const [snapshot, open, alertCounts, sources, waste, savings] = await Promise.all([
    loadBudgetSnapshot(deps, teams, now),
    deps.store.findings.listOpen(),
    // Every kind of alert open for a team (budget, idle GPUs, runaway sweeps, spend anomalies): "Alerts" counts them all.
    openAlertsByTeam(deps, teamIds),
    deps.store.freshness.list(),
    // The dashboard shows without its waste card rather than not at all when metrics are down.
    recentWaste(deps).catch((error: unknown) => {
      deps.log.warn({ err: (error as Error).message }, 'waste diagnosis failed; App Home shows without it');
      return null;
    }),
    loadSavingsLedger(deps, monthOf(toDay(now)), teamIds),
  ]);
  return appHome({
    userName: actor.name ?? actor.userId,
    statuses: budgetStatus(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now),
    openFindings: open.filter((f) => teamIds.includes(f.team)),
    alertCounts,
    sources,
    dataThrough: snapshot.dataThrough,
    stale: snapshot.stale,
    editableTeams: teamIds.filter((t) => hasRole(roles, t, ['approver'])),
    savings: savingsSummary(savings),
    waste: waste ? { period: waste.period, currency: waste.currency, notes: waste.notes, rows: wasteRows(waste, teamIds) } : null,
  });
}
