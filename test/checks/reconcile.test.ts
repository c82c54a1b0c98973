import { describe, expect, it } from 'vitest';
import { reconcileFindings } from '../../src/checks/reconcile.js';
import { findingId, type Finding, type TrackedFinding } from '../../src/domain/finding.js';

const finding = (threshold: number, kind: Finding['kind'] = 'budget.actual'): Finding => ({
  id: findingId(kind, 'a', '2026-11', threshold),
  kind,
  team: 'a',
  cadence: 'monthly',
  period: '2026-11',
  range: { start: '2026-11-01', end: '2026-12-01' },
  threshold,
  amount: threshold * 10,
  budget: 1000,
  currency: 'USD',
  actual: threshold * 10,
  forecast: null,
  dataThrough: '2026-11-21T00:00:00Z',
});

const tracked = (f: Finding, state: TrackedFinding['state'] = 'open'): TrackedFinding => ({
  ...f,
  state,
  firstSeen: '2026-11-20T08:00:00Z',
  lastSeen: '2026-11-20T08:00:00Z',
  resolvedAt: state === 'resolved' ? '2026-11-20T08:00:00Z' : null,
});

describe('reconcileFindings', () => {
  it('alerts once for the highest of several thresholds crossed at once', () => {
    const { change, alerts } = reconcileFindings([finding(50), finding(80)], []);
    expect(change.opened.map((f) => f.threshold)).toEqual([50, 80]);
    expect(alerts).toEqual([{ event: 'new', finding: finding(80), previousThreshold: null }]);
  });

  it('stays silent while nothing changes', () => {
    const { change, alerts } = reconcileFindings([finding(50)], [tracked(finding(50))]);
    expect(alerts).toEqual([]);
    expect(change.stillOpen.map((f) => f.id)).toEqual([finding(50).id]);
  });

  it('escalates when a higher threshold is crossed', () => {
    const { alerts } = reconcileFindings([finding(50), finding(80), finding(100)], [tracked(finding(50))]);
    expect(alerts).toEqual([{ event: 'escalated', finding: finding(100), previousThreshold: 50 }]);
  });

  it('resolves a group when none of its thresholds is true any more', () => {
    const { change, alerts } = reconcileFindings([], [tracked(finding(50)), tracked(finding(80))]);
    expect(change.resolved).toEqual([finding(50).id, finding(80).id]);
    expect(alerts).toEqual([{ event: 'resolved', finding: tracked(finding(80)), previousThreshold: null }]);
  });

  it('resolves a dropped threshold quietly while a lower one is still true', () => {
    const { change, alerts } = reconcileFindings([finding(50)], [tracked(finding(50)), tracked(finding(80))]);
    expect(change.resolved).toEqual([finding(80).id]);
    expect(alerts).toEqual([]);
  });

  it('opens a resolved finding again when it becomes true again', () => {
    const { change, alerts } = reconcileFindings([finding(100, 'budget.forecast')], [tracked(finding(100, 'budget.forecast'), 'resolved')]);
    expect(change.opened).toHaveLength(1);
    expect(alerts[0]?.event).toBe('new');
  });
});
