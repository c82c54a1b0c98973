import { checkBudgets } from './check-budgets.js';
import { resolutionCause } from '../resolution-cause.js';
import { budgetStatus, type BudgetStatus } from './budget-status.js';
import { loadBudgetSnapshot, type LoadedBudgetSnapshot } from '../../snapshots/budget-snapshot.js';
import type { BudgetPolicy, BudgetSnapshot } from './check-budgets.js';
import { rememberedForecasts } from '../forecast.js';
import { alertGroup, reconcileFindings, type Alert, type Reconciliation } from '../reconcile.js';
import { channelsOf, fanOut, inThreadOn, postOn } from '../../outbox/fan-out.js';
import type { Deps } from '../../deps.js';
import type { Finding, FindingState, TrackedFinding } from '../../domain/finding.js';
import { dayInZone, isoWeekLabel } from '../../domain/period.js';
import type { OutboxDraft } from '../../store/outbox-records.js';
import { budgetAlert, budgetAlertChange, budgetAlertDetails } from '../../../templates/budget-alert.js';
import type { TeamConfig } from '../../config/schema.js';
import type { ChatPort } from '../../ports/chat-port.js';
import { mentionOf } from '../../ports/people-directory.js';
import type { Mention } from '../../../templates/message.js';
import type { StaleSource } from '../../domain/staleness.js';
import { rateHold, staleHold, type CheckHold } from '../../domain/check-hold.js';
import { currencyHoldNotice } from '../../../templates/currency-hold-notice.js';
import { staleDataNotice } from '../../../templates/stale-data-notice.js';
import type { CheckDefinition, FindingFace } from '../definition.js';
import { budgetAlertChart, budgetChartOn } from './definition/alert-chart.js';
import { currentAlertMessage } from './definition/current-alert.js';

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
  /** Teams whose check was held (nothing opened or resolved): a source of their spend failed, or a rate is missing. */
  heldTeams: string[];
  /** Each held team with why, and what to do about it. */
  holds: CheckHold[];
}

interface BudgetInput {
  snapshot: LoadedBudgetSnapshot;
  /** Teams fed by a source whose refresh failed: their numbers stop short of the truth. */
  held: TeamConfig[];
  /** The teams checked: all but those held. */
  teams: TeamConfig[];
  tracked: TrackedFinding[];
  /** The forecast settings, with one remembered forecast per team and period for the whole run. */
  policy: BudgetPolicy;
}

interface BudgetRun extends Reconciliation {
  input: BudgetInput;
  current: Finding[];
}

/**
 * The daily budget check (run by runCheck):
 *   1. collect: the snapshot of daily spend per team, and the findings of this period's earlier runs
 *   2. evaluate: the pure budget checks
 *   3. reconcile with what earlier runs found (new, still open, resolved)
 *   4. alerts: one per change, addressed to each team's channel on every running platform
 *   5. record findings and queue alerts in one transaction (skipped on a dry run)
 * A team with spend from a source whose last refresh failed is held out of steps 2 to 4: its
 * numbers stop short, so none of its findings opens or resolves, and it is told once a day why
 * (a stale-data notice naming the source, its age and the error to fix).
 */
export function budgetCheck(options: BudgetCheckOptions = {}): CheckDefinition<'findings', BudgetInput, BudgetRun, BudgetCheckResult> {
  return {
    table: 'findings',
    async collect(deps, now) {
      const snapshot = await loadBudgetSnapshot(
        deps,
        deps.config.teams.filter((t) => !options.teams || options.teams.includes(t.id)),
        now,
      );
      const isHeld = (id: string) => snapshot.staleTeams.has(id) || snapshot.unconvertible.has(id);
      const held = snapshot.teams.filter((t) => isHeld(t.id));
      const teams = snapshot.teams.filter((t) => !isHeld(t.id));
      const periods = [...new Set(teams.flatMap((t) => periodsOf(t.timezone, now)))];
      const teamIds = new Set(teams.map((t) => t.id));
      const tracked = (await deps.store.findings.listForPeriods(periods)).filter((f) => teamIds.has(f.team));
      // The check and its alerts' status block forecast the same teams' periods: each is fitted once.
      const policy = { lookbackDays: deps.config.forecast.lookbackDays, forecast: rememberedForecasts() };
      return { snapshot, held, teams, tracked, policy };
    },
    evaluate: ({ snapshot, teams, policy }, now) => checkBudgets({ ...snapshot, teams }, policy, now),
    reconcile: (_deps, input, current) => ({ ...reconcileFindings(current, input.tracked), input, current }),
    async alerts(deps, { input, alerts, current }, now) {
      return [
        ...(await addressAlerts(deps, input.teams, alerts, current, now, budgetStatus(input.snapshot, input.policy, now), input.snapshot)),
        ...staleNotices(deps, input.held, input.snapshot.staleTeams, now),
        ...currencyNotices(deps, input.held, input.snapshot.unconvertible, now),
      ];
    },
    report({ input, change, alerts, current }, queued) {
      const states = new Map<string, FindingState>([
        ...change.opened.map((f) => [f.id, 'new'] as const),
        ...change.stillOpen.map((f) => [f.id, 'open'] as const),
      ]);
      const findings: CheckedFinding[] = [
        ...current.map((f) => ({ ...f, state: states.get(f.id) ?? 'open' })),
        ...input.tracked
          .filter((t) => change.resolved.includes(t.id))
          .map(({ state: _s, firstSeen: _f, lastSeen: _l, resolvedAt: _r, ...f }) => ({ ...f, state: 'resolved' as const })),
      ];
      const { held, snapshot } = input;
      const heldSources = [...new Map(held.flatMap((t) => snapshot.staleTeams.get(t.id) ?? []).map((s) => [s.source, s])).values()];
      const base = snapshot.baseCurrency;
      const holds = held.map((t) => ({
        team: t.id,
        reasons: [
          ...(snapshot.staleTeams.get(t.id) ?? []).map(staleHold),
          ...(snapshot.unconvertible.has(t.id) ? [rateHold(snapshot.unconvertible.get(t.id)!, t.budget?.currency ?? base, base)] : []),
        ],
      }));
      return { findings, alerts, queued, held: heldSources, heldTeams: held.map((t) => t.id), holds };
    },
  };
}

/** One notice per team, platform and day while data is stale: a retried or repeated check says it once. */
function staleNotices(deps: Deps, teams: readonly TeamConfig[], staleTeams: ReadonlyMap<string, StaleSource[]>, now: Date): OutboxDraft[] {
  const day = now.toISOString().slice(0, 10);
  return teams.flatMap((team) =>
    !staleTeams.has(team.id)
      ? []
      : fanOut(
          deps.chat,
          team,
          `stale:${team.id}:${day}`,
          staleDataNotice({ teamName: team.name ?? team.id, stale: staleTeams.get(team.id) ?? [] }),
        ),
  );
}

/** One notice per team, platform, day and set of currencies while a rate is missing. */
function currencyNotices(deps: Deps, teams: readonly TeamConfig[], unconvertible: ReadonlyMap<string, string[]>, now: Date): OutboxDraft[] {
  const day = now.toISOString().slice(0, 10);
  return teams.flatMap((team) => {
    const currencies = unconvertible.get(team.id);
    if (!currencies) return [];
    const notice = currencyHoldNotice({
      teamName: team.name ?? team.id,
      budgetCurrency: team.budget?.currency ?? deps.config.fx.base,
      currencies,
      base: deps.config.fx.base,
    });
    return fanOut(deps.chat, team, `fx:${team.id}:${currencies.join(',')}:${day}`, notice);
  });
}

/** Who an escalation pings on a platform: the team's approvers (its owners where it names none). */
function approversOn(port: ChatPort, team: TeamConfig): Mention[] {
  const refs = team.approvers.length > 0 ? team.approvers : team.owners;
  return refs.map((ref) => mentionOf(port.people, ref));
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
async function addressAlerts(
  deps: Deps,
  teams: readonly TeamConfig[],
  alerts: Alert[],
  current: readonly Finding[],
  now: Date,
  standing: readonly BudgetStatus[],
  snapshot: Pick<BudgetSnapshot, 'calendar' | 'daily'>,
): Promise<OutboxDraft[]> {
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
    // Where it stands now, for a resolution to say: the figure that fell under the threshold, and why.
    const stands = standing.find((s) => s.team === finding.team && s.cadence === finding.cadence && s.period.start === finding.range.start);
    const event = change?.event ?? 'new';
    const data = {
      finding,
      event,
      previousThreshold: change?.previousThreshold ?? null,
      teamName: team.name ?? team.id,
      now: stands,
      cause: event === 'resolved' && stands ? resolutionCause(finding, stands, snapshot.calendar?.get(team.id)) : null,
    };
    const channels = channelsOf(deps.chat, team);
    const roots = await Promise.all(channels.map((channel) => deps.store.outbox.threadRoot(group, channel.platform)));
    // A new alert and an escalation carry the chart; an edit, a re-run or a resolution does not.
    const charted = event !== 'resolved' && roots.some((root) => !root || change);
    const pngs = charted ? await budgetAlertChart(deps, team, finding, snapshot.daily.get(team.id)) : null;
    for (const [i, channel] of channels.entries()) {
      const root = roots[i];
      const chart = budgetChartOn(deps, channel, team, finding, pngs);
      if (!root) {
        // Nothing to resolve where nothing was said; otherwise the group's first message, once.
        if (data.event === 'resolved') continue;
        const first = postOn(channel, `${group}:root`, budgetAlert(data), group);
        drafts.push(first);
        if (chart) drafts.push(...inThreadOn(channel, first.dedupeKey, `${group}:chart`, [{ op: 'reply', message: chart }]));
        continue;
      }
      if (!change) continue;
      // One change per finding, event, day and platform: a retried run enqueues nothing twice.
      const parts = [
        { op: 'update' as const, message: budgetAlert(data), suffix: 'update' },
        { op: 'reply' as const, message: budgetAlertChange(data, approversOn(channel.port, team)), suffix: 'reply' },
        ...(chart ? [{ op: 'reply' as const, message: chart, suffix: 'chart' }] : []),
      ];
      drafts.push(...inThreadOn(channel, root, `${finding.id}:${change.event}:${now.toISOString().slice(0, 10)}`, parts));
    }
  }
  return drafts;
}

/** Budget findings as the generic finding buttons (Acknowledge, Snooze) see them, and their alert as it stands now. */
export const budgetFindings: FindingFace = {
  async get(deps, id) {
    const finding = await deps.store.findings.get(id);
    if (!finding) return null;
    const label = `${finding.kind === 'budget.forecast' ? 'the forecast' : 'spend'} in ${finding.period}`;
    return { id, kind: 'findings', team: finding.team, group: alertGroup(finding), periodEnd: finding.range.end, label, finding };
  },
  alertNow: (deps, handle) => currentAlertMessage(deps, handle.finding as TrackedFinding),
  details: (deps, handle) => {
    const finding = handle.finding as TrackedFinding;
    const team = deps.config.teams.find((t) => t.id === finding.team);
    return budgetAlertDetails({ finding, teamName: team?.name ?? finding.team });
  },
};
