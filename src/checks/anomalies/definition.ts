import { acceptancesOf } from './acceptances.js';
import type { AnomalyPolicy } from './anomaly-policy.js';
import { rankDrivers } from './drivers.js';
import { judgeDays, type JudgedDay } from './judge-days.js';
import { readProviderAnomalies } from './definition/read-provider-anomalies.js';
import { withProviderAnomalies, type ImportedAnomaly } from './provider-anomalies.js';
import { matchingFindings, type IdleOnResource, type SweepOnResources } from './matching-findings.js';
import { teamAnomaly } from './team-anomaly.js';
import { hourlyAnomaly } from './hourly-anomaly.js';
import { withHourlyAnomalies } from './with-hourly-anomalies.js';
import { readHourlySpend, type ReadHourlySpend } from './definition/read-hourly-spend.js';
import { teamDays } from './team-days.js';
import { reconcileById } from '../reconcile-by-id.js';
import type { CheckDefinition, FindingFace } from '../definition.js';
import { channelsOf, fanOutInThread, postOn } from '../../outbox/fan-out.js';
import type { Deps } from '../../deps.js';
import type { TeamConfig } from '../../config/schema.js';
import type { AnomalyDriver, AnomalyFinding, TrackedAnomalyFinding } from '../../domain/anomaly-finding.js';
import type { FindingChange } from '../../domain/finding-change.js';
import { lastDataDay } from '../../domain/data-through.js';
import { addDays } from '../../domain/period.js';
import type { OutboxDraft } from '../../store/outbox-records.js';
import { loadBudgetSnapshot } from '../../snapshots/budget-snapshot.js';
import { loadDriverTotals } from '../../snapshots/anomaly-drivers.js';
import { loadFxRates } from '../../snapshots/fx-rates.js';
import { mentionOf } from '../../ports/people-directory.js';
import type { ChatPort } from '../../ports/chat-port.js';
import { anomalyAlert, anomalyDetails } from '../../../templates/anomaly-alert.js';

export interface AnomalyCheckResult {
  findings: (AnomalyFinding & { state: 'new' | 'open' })[];
  resolved: string[];
  queued: OutboxDraft[];
  /** Teams not judged: a source of their spend failed, or a currency has no rate. */
  held: string[];
}

/** One team as the rules judge it. */
interface TeamInput {
  team: TeamConfig;
  currency: string;
  provisional: string;
  judged: JudgedDay[];
  drivers: Map<string, AnomalyDriver[]>;
}

interface AnomalyInput {
  teams: TeamInput[];
  held: string[];
  /** The clouds' own anomalies for the judged teams, and the sources that did not answer. */
  provider: { anomalies: ImportedAnomaly[]; failed: string[]; provisional: string };
  tracked: TrackedAnomalyFinding[];
  /** Anomalies of the last ACCEPTANCE_DAYS, answered or not: what the team said was expected. */
  answered: TrackedAnomalyFinding[];
  /** Open idle-GPU and sweep findings, to name those on the resources that moved. */
  idle: IdleOnResource[];
  sweeps: SweepOnResources[];
  /** The GPU machines' cost per hour of the judged teams. */
  hourly: ReadHourlySpend;
}

interface AnomalyRun {
  change: FindingChange<AnomalyFinding>;
  current: AnomalyFinding[];
  tracked: TrackedAnomalyFinding[];
  held: string[];
}

/** How long an Expected answer keeps its level accepted: by then the expected value has taken it in. */
const ACCEPTANCE_DAYS = 90;
/** A driver's usual day is its average over this many days before the anomaly began. */
const USUAL_DAYS = 14;
/** A still-open anomaly's message is updated when its excess grew by this share, or a day was added. */
const RISE_TO_UPDATE = 0.1;

/**
 * The spend-anomaly check (run by runCheck, in the budget check's job after the sources' refresh):
 *   1. collect: each team's days (the budget snapshot's, in its currency), judged against their
 *      expected values; what moved on the days beyond the bars; earlier findings and answers
 *   2. evaluate: the run of anomalous days going on now per team, after Expected answers (pure)
 *   3. reconcile by id: a new run alerts once; a rising run updates its message; an ended run resolves
 *   4. alerts: one message per anomaly and platform, updated in place
 * A team whose spend source failed, or whose currency has no rate, is held: its open anomaly stays.
 * Hour by hour (`hourly`, in the GPU check's job) only the GPU machines' hours are judged; the
 * anomalies the day's bill found stay as they are until the next daily run.
 */
export function anomalyCheck(
  only?: readonly string[],
  mode: 'daily' | 'hourly' = 'daily',
): CheckDefinition<'anomalyFindings', AnomalyInput, AnomalyRun, AnomalyCheckResult> {
  return {
    table: 'anomalyFindings',
    async collect(deps, now) {
      const teams = deps.config.teams.filter((t) => t.anomalies.enabled && (!only || only.includes(t.id)));
      const [snapshot, fx, tracked, answered, idle, sweeps] = await Promise.all([
        loadBudgetSnapshot(deps, teams, now),
        loadFxRates(deps),
        // A run for some teams (a time zone's, at their hour) neither judges nor resolves the others' anomalies.
        deps.store.anomalyFindings.listOpen().then((open) => open.filter((f) => !only || only.includes(f.team))),
        deps.store.anomalyFindings.seenSince(new Date(now.getTime() - ACCEPTANCE_DAYS * 86_400_000)),
        deps.store.gpuFindings.listOpen(),
        deps.store.sweepFindings.listOpen(),
      ]);
      const held = teams.filter((t) => snapshot.staleTeams.has(t.id) || snapshot.unconvertible.has(t.id)).map((t) => t.id);
      const currencyOf = (team: TeamConfig) => snapshot.teams.find((t) => t.id === team.id)?.budget?.currency ?? snapshot.baseCurrency;
      const hourly = await readHourlySpend(
        deps,
        teams.filter((t) => !held.includes(t.id)),
        currencyOf,
        fx,
        now,
      );
      const none = { anomalies: [], failed: [], provisional: '' };
      if (!snapshot.dataThrough || mode === 'hourly') return { teams: [], held, provider: none, tracked, answered, idle, sweeps, hourly };
      const provisional = lastDataDay(snapshot.dataThrough);
      const judgedTeams = new Map(teams.filter((t) => !held.includes(t.id)).map((t) => [t.id, currencyOf(t)]));
      const provider = { ...(await readProviderAnomalies(deps, judgedTeams, provisional, fx)), provisional };
      const inputs: TeamInput[] = [];
      for (const team of teams) {
        if (held.includes(team.id)) continue;
        const currency = currencyOf(team);
        const days = teamDays(snapshot.daily.get(team.id) ?? new Map(), snapshot.calendar?.get(team.id), provisional);
        const judged = judgeDays(days, team.anomalies, provisional);
        const drivers = new Map<string, AnomalyDriver[]>();
        for (const day of judged.filter((j) => j.beyond)) {
          // What a driver usually spends is read before the run of days beyond the bars began.
          const start = runStart(judged, day.day);
          const totals = await loadDriverTotals(deps, team.id, day.day, start, USUAL_DAYS, currency, fx);
          drivers.set(day.day, rankDrivers(totals, day.excess));
        }
        inputs.push({ team, currency, provisional, judged, drivers });
      }
      return { teams: inputs, held, provider, tracked, answered, idle, sweeps, hourly };
    },
    evaluate({ teams, held, provider, tracked, answered, idle, sweeps, hourly }) {
      const withMatches = (anomaly: AnomalyFinding): AnomalyFinding => {
        const matches = matchingFindings(anomaly.team, anomaly.drivers, idle, sweeps);
        return matches.length > 0 ? { ...anomaly, matches } : anomaly;
      };
      const acceptancesOfTeam = (team: string) => acceptancesOf(answered.filter((f) => f.team === team));
      const byHour = hourly.teams.flatMap(({ team, currency, rate, spend }) => {
        const anomaly = hourlyAnomaly({
          team: team.id,
          currency,
          rate,
          policy: team.anomalies,
          spend,
          acceptances: acceptancesOfTeam(team.id),
          through: hourly.through,
        });
        return anomaly ? [withMatches(anomaly)] : [];
      });
      if (mode === 'hourly') {
        // The day's anomalies stay as the daily run left them; a team with one shows no second.
        const daily = tracked.filter((f) => !f.hourly).map(untracked);
        return [...daily, ...byHour.filter((h) => !daily.some((d) => d.team === h.team))];
      }
      const found = teams.flatMap(({ team, currency, provisional, judged, drivers }) => {
        const anomaly = teamAnomaly({
          team: team.id,
          currency,
          policy: team.anomalies satisfies AnomalyPolicy,
          judged,
          drivers,
          acceptances: acceptancesOfTeam(team.id),
          provisional,
        });
        return anomaly ? [withMatches(anomaly)] : [];
      });
      const floorOf = (id: string) => teams.find((t) => t.team.id === id)?.team.anomalies.floor ?? Infinity;
      const shown = withProviderAnomalies(withHourlyAnomalies(found, byHour, tracked), provider.anomalies, provider.provisional, floorOf);
      // A held team's open anomaly stays as it was: its numbers stop short of the truth. So does a
      // provider's anomaly shown alone whose source did not answer.
      const kept = tracked
        .filter((f) => held.includes(f.team) || (f.provider?.alone && provider.failed.includes(f.provider.source)))
        .map(untracked);
      return [...shown, ...kept];
    },
    reconcile: (_deps, { tracked, held }, current) => ({ change: reconcileById(current, tracked), current, tracked, held }),
    alerts: (deps, run, now) => addressAnomalyAlerts(deps, run, now),
    report({ change, current, held }, queued) {
      const opened = new Set(change.opened.map((f) => f.id));
      return {
        findings: current.map((f) => ({ ...f, state: opened.has(f.id) ? ('new' as const) : ('open' as const) })),
        resolved: change.resolved,
        queued,
        held,
      };
    },
  };
}

/** The alerts a snooze of an anomaly silences: that anomaly. */
export function anomalyGroup(finding: Pick<AnomalyFinding, 'id'>): string {
  return finding.id;
}

/** The anomaly's message as it stands, for the team's channel on `port`'s platform. */
export function anomalyMessage(deps: Pick<Deps, 'config'>, port: ChatPort | undefined, finding: AnomalyFinding, resolved: boolean) {
  const team = deps.config.teams.find((t) => t.id === finding.team);
  return anomalyAlert({
    teamName: team?.name ?? finding.team,
    finding,
    resolved,
    answeredBy: finding.answer ? mentionOf(port?.people, finding.answer.by) : null,
  });
}

/**
 * A new anomaly: one message per platform (it starts its group's thread, so later changes find it).
 * A rising one: that message updated. A resolved one: updated to say so. Snoozed anomalies are
 * recorded as usual and say nothing. Keys hold the run time, so a retried run queues nothing twice.
 */
async function addressAnomalyAlerts(deps: Deps, { change, tracked }: AnomalyRun, now: Date): Promise<OutboxDraft[]> {
  const snoozed = new Set((await deps.store.snoozes.active(now)).map((s) => s.groupKey));
  const before = new Map(tracked.map((f) => [f.id, f]));
  const drafts: OutboxDraft[] = [];
  const teamOf = (id: string) => deps.config.teams.find((t) => t.id === id);
  for (const finding of change.opened) {
    const team = teamOf(finding.team);
    if (!team || snoozed.has(anomalyGroup(finding))) continue;
    for (const channel of channelsOf(deps.chat, team))
      drafts.push(postOn(channel, `anomaly:${finding.id}`, anomalyMessage(deps, channel.port, finding, false), anomalyGroup(finding)));
  }
  const updates: [AnomalyFinding, boolean][] = [
    ...change.stillOpen.filter((f) => rose(before.get(f.id), f)).map((f): [AnomalyFinding, boolean] => [f, false]),
    ...change.resolved.flatMap((id): [AnomalyFinding, boolean][] => (before.has(id) ? [[untracked(before.get(id)!), true]] : [])),
  ];
  for (const [finding, resolved] of updates) {
    const team = teamOf(finding.team);
    if (!team || snoozed.has(anomalyGroup(finding))) continue;
    // The answer recorded by a click between runs stays on the message.
    const shown = { ...finding, ...(before.get(finding.id)?.answer ? { answer: before.get(finding.id)!.answer } : {}) };
    const port = deps.chat[0];
    drafts.push(
      ...(await fanOutInThread(deps, team, anomalyGroup(finding), `anomaly:${finding.id}:${now.toISOString()}`, [
        { op: 'update', message: anomalyMessage(deps, port, shown, resolved) },
      ])),
    );
  }
  return drafts;
}

/** The first of the consecutive days beyond the bars that end on `day`. */
function runStart(judged: readonly JudgedDay[], day: string): string {
  const beyond = new Set(judged.filter((j) => j.beyond).map((j) => j.day));
  let start = day;
  while (beyond.has(addDays(start, -1))) start = addDays(start, -1);
  return start;
}

function rose(before: AnomalyFinding | undefined, now: AnomalyFinding): boolean {
  if (!before) return false;
  return now.day !== before.day || now.excess > before.excess * (1 + RISE_TO_UPDATE);
}

/** A tracked finding as a run's finding: its state and times left to the store. */
function untracked({ state: _s, firstSeen: _f, lastSeen: _l, resolvedAt: _r, ...finding }: TrackedAnomalyFinding): AnomalyFinding {
  return finding;
}

/** Spend anomalies as the generic finding buttons (Acknowledge, Snooze, Details) see them, and their alert as it stands now. */
export const anomalyFindings: FindingFace = {
  async get(deps, id) {
    const finding = await deps.store.anomalyFindings.get(id);
    if (!finding) return null;
    return {
      id,
      kind: 'anomalyFindings',
      team: finding.team,
      group: anomalyGroup(finding),
      periodEnd: null,
      label: `the spend anomaly of ${finding.started}`,
      finding,
    };
  },
  alertNow: async (deps, handle, platform) => {
    const finding = (await deps.store.anomalyFindings.get(handle.id)) ?? (handle.finding as TrackedAnomalyFinding);
    return anomalyMessage(
      deps,
      deps.chat.find((p) => p.platform === platform),
      untracked(finding),
      finding.state === 'resolved',
    );
  },
  details: (deps, handle) => {
    const finding = handle.finding as AnomalyFinding;
    const team = deps.config.teams.find((t) => t.id === finding.team);
    return anomalyDetails(finding, team?.name ?? finding.team);
  },
};
