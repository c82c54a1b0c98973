import { checkBudgets, type BudgetSnapshot } from '../checks/budget.js';
import { reconcileFindings, type Alert } from '../checks/reconcile.js';
import { targetOf } from '../chat/chat-port.js';
import type { Deps } from '../deps.js';
import { combinedDataThrough } from '../domain/data-through.js';
import type { Finding, FindingState } from '../domain/finding.js';
import { addDays, dayInZone, isoWeekLabel } from '../domain/period.js';
import type { OutboxDraft } from '../store/store.js';
import { budgetAlert } from '../../templates/budget-alert.js';

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
}

/**
 * The daily budget check, step by step:
 *   1. load the snapshot of daily spend per team
 *   2. run the pure budget checks
 *   3. reconcile with what earlier runs found (new, still open, resolved)
 *   4. render one alert per change, addressed to each team's channel on every running platform
 *   5. record findings and queue alerts in one transaction (skipped on a dry run)
 */
export async function runBudgetCheck(deps: Deps, options: BudgetCheckOptions = {}): Promise<BudgetCheckResult> {
  const now = deps.clock();
  const teams = deps.config.teams.filter((t) => !options.teams || options.teams.includes(t.id));

  const snapshot = await loadSnapshot(deps, teams, now);
  const current = checkBudgets(snapshot, { lookbackDays: deps.config.forecast.lookbackDays }, now);
  const periods = [...new Set(teams.flatMap((t) => periodsOf(t.timezone, now)))];
  const teamIds = new Set(teams.map((t) => t.id));
  const tracked = (await deps.store.findings.listForPeriods(periods)).filter((f) => teamIds.has(f.team));
  const { change, alerts } = reconcileFindings(current, tracked);
  const queued = addressAlerts(deps, alerts, now);
  if (!options.dryRun) await deps.store.recordCheck(change, queued, now);

  const states = new Map<string, FindingState>([
    ...change.opened.map((f) => [f.id, 'new'] as const),
    ...change.stillOpen.map((f) => [f.id, 'open'] as const),
  ]);
  const findings: CheckedFinding[] = [
    ...current.map((f) => ({ ...f, state: states.get(f.id) ?? 'open' })),
    ...tracked.filter((t) => change.resolved.includes(t.id)).map(({ state: _s, firstSeen: _f, lastSeen: _l, resolvedAt: _r, ...f }) => ({ ...f, state: 'resolved' as const })),
  ];
  return { findings, alerts, queued };
}

async function loadSnapshot(deps: Deps, teams: Deps['config']['teams'], now: Date): Promise<BudgetSnapshot> {
  // Enough history for the longest period plus the forecast's lookback window.
  const since = addDays(dayInZone(now, 'UTC'), -(deps.config.forecast.lookbackDays + 40));
  const [rows, freshness] = await Promise.all([deps.store.spend.dailyByTeam(since), deps.store.freshness.list()]);
  const daily = new Map<string, Map<string, number>>();
  for (const row of rows) {
    let days = daily.get(row.team);
    if (!days) daily.set(row.team, (days = new Map()));
    days.set(row.day, row.effective);
  }
  return { teams, daily, dataThrough: combinedDataThrough(freshness) };
}

function periodsOf(timezone: string, now: Date): string[] {
  const today = dayInZone(now, timezone);
  return [today.slice(0, 7), isoWeekLabel(today)];
}

function addressAlerts(deps: Deps, alerts: Alert[], now: Date): OutboxDraft[] {
  const drafts: OutboxDraft[] = [];
  for (const alert of alerts) {
    const team = deps.config.teams.find((t) => t.id === alert.finding.team);
    if (!team) continue;
    const message = budgetAlert({ ...alert, teamName: team.name ?? team.id });
    for (const port of deps.chat) {
      const address = port.addressOf(team);
      if (!address) continue;
      // One message per finding, event and run: a retried run enqueues nothing twice.
      const dedupeKey = `${alert.finding.id}:${alert.event}:${now.toISOString().slice(0, 10)}:${port.platform}`;
      drafts.push({ dedupeKey, target: targetOf(port, address), message });
    }
  }
  return drafts;
}
