import type { Finding, TrackedFinding } from '../domain/finding.js';
import type { FindingChange } from '../domain/finding-change.js';

export type AlertEvent = 'new' | 'escalated' | 'resolved';

export interface Alert {
  event: AlertEvent;
  finding: Finding;
  /** For an escalation: the highest threshold that was already open. */
  previousThreshold: number | null;
}

export interface Reconciliation {
  change: FindingChange<Finding>;
  alerts: Alert[];
}

/**
 * The state machine between runs. A finding seen for the first time opens; one seen again stays
 * open silently; one no longer seen resolves. Of several thresholds crossed at once only the
 * highest speaks (crossing 50 and 80 overnight is one alert, not two), and a crossing above an
 * already open threshold is an escalation.
 */
export function reconcileFindings(current: readonly Finding[], tracked: readonly TrackedFinding[]): Reconciliation {
  const known = new Map(tracked.map((t) => [t.id, t]));
  const currentIds = new Set(current.map((f) => f.id));
  const opened: Finding[] = [];
  const stillOpen: Finding[] = [];
  for (const finding of current) {
    const before = known.get(finding.id);
    if (before && before.state !== 'resolved') stillOpen.push(finding);
    else opened.push(finding);
  }
  const resolved = tracked.filter((t) => t.state !== 'resolved' && !currentIds.has(t.id));

  const alerts: Alert[] = [];
  for (const group of groupBy(opened, alertGroup).values()) {
    const top = highest(group);
    const previouslyOpen = tracked.filter((t) => t.state !== 'resolved' && alertGroup(t) === alertGroup(top) && currentIds.has(t.id));
    const previous = previouslyOpen.length > 0 ? highest(previouslyOpen).threshold : null;
    alerts.push({ event: previous === null ? 'new' : 'escalated', finding: top, previousThreshold: previous });
  }
  for (const group of groupBy(resolved, alertGroup).values()) {
    // Only when nothing in the group is still true: dropping from 100% back to 80% is not "resolved".
    const stillTrue = current.some((f) => alertGroup(f) === alertGroup(group[0]!));
    if (!stillTrue) alerts.push({ event: 'resolved', finding: highest(group), previousThreshold: null });
  }
  return { change: { opened, stillOpen, resolved: resolved.map((r) => r.id) }, alerts };
}

/** Findings that speak with one voice: same team, kind and period. */
export function alertGroup(f: Finding): string {
  return `${f.kind}:${f.team}:${f.period}`;
}

function highest<T extends Finding>(findings: readonly T[]): T {
  return findings.reduce((a, b) => (b.threshold > a.threshold ? b : a));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}
