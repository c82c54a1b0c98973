import { checkBudgets } from '../checks/budget.js';
import { loadBudgetSnapshot } from '../snapshots/budget-snapshot.js';
import { alertGroup, reconcileFindings, type Alert } from '../checks/reconcile.js';
import { targetOf } from '../ports/chat-port.js';
import type { Deps } from '../deps.js';
import type { Finding, FindingState } from '../domain/finding.js';
import { dayInZone, isoWeekLabel } from '../domain/period.js';
import type { OutboxDraft } from '../store/outbox-records.js';
import { budgetAlert, budgetAlertChange } from '../../templates/budget-alert.js';
import type { TeamConfig } from '../config/schema.js';
import type { StaleSource } from '../domain/staleness.js';
import { staleDataNotice } from '../../templates/stale-data-notice.js';

export interface BudgetCheckOptions {
  /** Evaluate and report, but record nothing and queue no alert. */
  dryRun?: boolean;
  /** Only these teams (the scheduler runs each time zone at its own hour). */
  teams?: readonly string[];
}

export interface CheckedFinding extends Finding {
  state: FindingState;
}

export interface BudgetCheckResult {
  findings: CheckedFinding[];
  alerts: Alert[];
  queued: OutboxDraft[];
  /** Spend sources whose last refresh failed, behind the teams held. */
  held: StaleSource[];
  /** Teams whose check was held (nothing opened or resolved) because a source of their spend failed. */
  heldTeams: string[];
}

/**
 * The daily budget check, step by step:
 *   1. load the snapshot of daily spend per team
 *   2. run the pure budget checks
 *   3. reconcile with what earlier runs found (new, still open, resolved)
 *   4. render one alert per change, addressed to each team's channel on every running platform
 *   5. record findings and queue alerts in one transaction (skipped on a dry run)
 * A team with spend from a source whose last refresh failed is held out of steps 2 to 4: its
 * numbers stop short, so none of its findings opens or resolves, and it is told once a day why
 * (a stale-data notice naming the source, its age and the error to fix).
 */
export async function runBudgetCheck(deps: Deps, options: BudgetCheckOptions = {}): Promise<BudgetCheckResult> {
  const now = deps.clock();
  const snapshot = await loadBudgetSnapshot(deps, deps.config.teams.filter((t) => !options.teams || options.teams.includes(t.id)), now);
  // Teams fed by a source whose refresh failed are held: their numbers stop short of the truth.
  const held = snapshot.teams.filter((t) => snapshot.staleTeams.has(t.id));
  const teams = snapshot.teams.filter((t) => !snapshot.staleTeams.has(t.id));
  const current = checkBudgets({ ...snapshot, teams }, { lookbackDays: deps.config.forecast.lookbackDays }, now);
  const periods = [...new Set(teams.flatMap((t) => periodsOf(t.timezone, now)))];
  const teamIds = new Set(teams.map((t) => t.id));
  const tracked = (await deps.store.findings.listForPeriods(periods)).filter((f) => teamIds.has(f.team));
  const { change, alerts } = reconcileFindings(current, tracked);
  const queued = [...(await addressAlerts(deps, teams, alerts, current, now)), ...staleNotices(deps, held, snapshot.staleTeams, now)];
  if (!options.dryRun) await deps.store.recordCheck(change, queued, now);

  const states = new Map<string, FindingState>([
    ...change.opened.map((f) => [f.id, 'new'] as const),
    ...change.stillOpen.map((f) => [f.id, 'open'] as const),
  ]);
  const findings: CheckedFinding[] = [
    ...current.map((f) => ({ ...f, state: states.get(f.id) ?? 'open' })),
    ...tracked.filter((t) => change.resolved.includes(t.id)).map(({ state: _s, firstSeen: _f, lastSeen: _l, resolvedAt: _r, ...f }) => ({ ...f, state: 'resolved' as const })),
  ];
  const heldSources = [...new Map(held.flatMap((t) => snapshot.staleTeams.get(t.id) ?? []).map((s) => [s.source, s])).values()];
  return { findings, alerts, queued, held: heldSources, heldTeams: held.map((t) => t.id) };
}

/** One notice per team, platform and day while data is stale: a retried or repeated check says it once. */
function staleNotices(deps: Deps, teams: readonly TeamConfig[], staleTeams: ReadonlyMap<string, StaleSource[]>, now: Date): OutboxDraft[] {
  const day = now.toISOString().slice(0, 10);
  const drafts: OutboxDraft[] = [];
  for (const team of teams) {
    for (const port of deps.chat) {
      const address = port.addressOf(team);
      if (!address) continue;
      drafts.push({ dedupeKey: `stale:${team.id}:${day}:${port.platform}`, target: targetOf(port, address), message: staleDataNotice({ teamName: team.name ?? team.id, stale: staleTeams.get(team.id) ?? [] }) });
    }
  }
  return drafts;
}

function periodsOf(timezone: string, now: Date): string[] {
  const today = dayInZone(now, timezone);
  return [today.slice(0, 7), isoWeekLabel(today)];
}

/**
 * What to send, per platform. The first message of an alert group (team, kind, period) starts a
 * thread; an escalation or resolution updates that message and says what changed in its thread.
 * A group that is open but has no message yet on a platform (one added since, or a check run from
 * the command line before the platform was up) gets its current state posted, once. Snoozed
 * groups are recorded as usual but post nothing.
 */
async function addressAlerts(deps: Deps, teams: readonly TeamConfig[], alerts: Alert[], current: readonly Finding[], now: Date): Promise<OutboxDraft[]> {
  if (deps.chat.length === 0) return [];
  const snoozed = new Set((await deps.store.snoozes.active(now)).map((s) => s.groupKey));
  const changes = new Map(alerts.map((a) => [alertGroup(a.finding), a]));
  const open = new Map<string, Finding>();
  for (const f of current) {
    const seen = open.get(alertGroup(f));
    if (!seen || f.threshold > seen.threshold) open.set(alertGroup(f), f);
  }
  const drafts: OutboxDraft[] = [];
  for (const group of new Set([...changes.keys(), ...open.keys()])) {
    const change = changes.get(group);
    const finding = change?.finding ?? open.get(group)!;
    const team = teams.find((t) => t.id === finding.team);
    if (!team || snoozed.has(group)) continue;
    const data = { finding, event: change?.event ?? 'new', previousThreshold: change?.previousThreshold ?? null, teamName: team.name ?? team.id };
    for (const port of deps.chat) {
      const address = port.addressOf(team);
      if (!address) continue;
      const target = targetOf(port, address);
      const root = await deps.store.outbox.threadRoot(group, port.platform);
      if (!root) {
        // Nothing to resolve where nothing was said; otherwise the group's first message, once.
        if (data.event !== 'resolved') drafts.push({ dedupeKey: `${group}:root:${port.platform}`, target, message: budgetAlert(data), threadOf: group });
        continue;
      }
      if (!change) continue;
      // One change per finding, event, day and platform: a retried run enqueues nothing twice.
      const key = `${finding.id}:${change.event}:${now.toISOString().slice(0, 10)}:${port.platform}`;
      drafts.push({ dedupeKey: `${key}:update`, target, message: budgetAlert(data), op: 'update', parentKey: root });
      drafts.push({ dedupeKey: `${key}:reply`, target, message: budgetAlertChange(data), op: 'reply', parentKey: root });
    }
  }
  return drafts;
}
