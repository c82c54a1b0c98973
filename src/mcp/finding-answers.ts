import type { Deps } from '../deps.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import type { AnomalyAnswer } from '../domain/anomaly-finding.js';
import type { KeepException } from '../domain/keep-exception.js';
import type { Snooze } from '../domain/snooze.js';
import { findingById } from '../actions/finding-payload.js';
import type { OpenFinding } from '../snapshots/open-alerts.js';

/** Who answered an alert, how and when: a click on it, or an assistant's proposal on it. */
export interface FindingAnswer {
  answer: 'acknowledged' | 'snoozed' | 'kept running' | 'stopped' | 'expected' | 'not expected' | 'proposed';
  by: string;
  at: string;
  /** Snoozed or kept: until when. */
  until?: string;
  /** A proposal: its id and action, for proposal_status. */
  proposal?: { id: string; action: string };
}

/** An open alert as the findings tool lists it. */
export interface AnsweredFinding {
  family: string;
  kind: string;
  id: string;
  team: string | null;
  /** How its check names it: "spend in 2026-11", "trainer-3". */
  label: string;
  since: string;
  lastSeen: string;
  answers: FindingAnswer[];
}

/**
 * An open alert with every answer it has had, from where each is recorded: Acknowledge, a snooze
 * of its group in force, a keep or a stop of its instance, the team's verdict on an anomaly, and
 * assistants' proposals on it; oldest first.
 */
export async function answeredFindings(deps: Deps, open: readonly OpenFinding[], now: Date): Promise<AnsweredFinding[]> {
  // What holds for a group or an instance now is read once for every alert.
  const [snoozes, keeps] = await Promise.all([deps.store.snoozes.active(now), deps.store.keeps.active(now)]);
  return Promise.all(open.map((f) => answeredFinding(deps, f, { snoozes, keeps })));
}

async function answeredFinding(
  deps: Deps,
  open: OpenFinding,
  now: { snoozes: readonly Snooze[]; keeps: readonly KeepException[] },
): Promise<AnsweredFinding> {
  const { finding } = open;
  const [ack, handle, proposals] = await Promise.all([
    deps.store.acknowledgements.get(finding.id),
    findingById(deps, finding.id),
    deps.store.proposals.forSubject(finding.id),
  ]);
  const answers: FindingAnswer[] = [];
  if (ack) answers.push({ answer: 'acknowledged', by: ack.byUser, at: ack.at.toISOString() });
  const snooze = handle && now.snoozes.find((s) => s.groupKey === handle.group);
  if (snooze) answers.push({ answer: 'snoozed', by: snooze.byUser, at: snooze.at.toISOString(), until: snooze.until.toISOString() });
  if (open.family === 'gpu') {
    const instanceId = (finding as { instanceId?: string }).instanceId;
    const keep = now.keeps.find((k) => k.instanceId === instanceId);
    const stop = await deps.store.instanceActions.get(finding.id, ACTION_IDS.instanceStop);
    if (keep) answers.push({ answer: 'kept running', by: keep.byUser, at: keep.at.toISOString(), until: keep.until.toISOString() });
    if (stop) answers.push({ answer: 'stopped', by: stop.byUser, at: stop.at.toISOString() });
  }
  const verdict = (finding as { answer?: AnomalyAnswer }).answer;
  if (verdict) answers.push({ answer: verdict.verdict === 'expected' ? 'expected' : 'not expected', by: verdict.by, at: verdict.at });
  for (const p of proposals)
    answers.push({ answer: 'proposed', by: p.byUser, at: p.at.toISOString(), proposal: { id: p.id, action: p.action } });
  return {
    family: open.family,
    kind: finding.kind,
    id: finding.id,
    team: finding.team,
    label: handle?.label ?? finding.id,
    since: new Date(finding.firstSeen).toISOString(),
    lastSeen: new Date(finding.lastSeen).toISOString(),
    answers: answers.sort((a, b) => a.at.localeCompare(b.at)),
  };
}
