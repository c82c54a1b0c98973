import { describe, expect, it } from 'vitest';
import { withHourlyAnomalies } from '../../../src/checks/anomalies/with-hourly-anomalies.js';
import type { AnomalyFinding, TrackedAnomalyFinding } from '../../../src/domain/anomaly-finding.js';

// One anomaly, one message: a run found hour by hour and then on the day's bill stays the same
// anomaly; a team with an anomaly on the bill shows no second one from its hours.

function finding(team: string, started: string, day: string, hourly = false): AnomalyFinding {
  return {
    id: `anomaly:${team}:${started}`,
    kind: 'anomaly.spend',
    team,
    currency: 'USD',
    started,
    day,
    actual: 5000,
    expected: 1000,
    excess: 4000,
    deviations: 9,
    provisional: true,
    historyDays: 28,
    shortHistory: false,
    newCharges: 0,
    days: [],
    drivers: [],
    ...(hourly ? { hourly: { startedAt: `${started}T14:00:00.000Z`, through: `${started}T18:00:00.000Z`, hours: 4, perDay: 1320 } } : {}),
  };
}

const tracked = (f: AnomalyFinding): TrackedAnomalyFinding => ({
  ...f,
  state: 'open',
  firstSeen: new Date('2026-11-20T18:30:00Z'),
  lastSeen: new Date('2026-11-20T18:30:00Z'),
  resolvedAt: null,
});

describe('the day’s anomalies with the hours’ laid over them', () => {
  it("keeps an open hourly anomaly's id and first day when the bill finds the run a day later", () => {
    const hourly = finding('ml', '2026-11-20', '2026-11-20', true);
    const daily = finding('ml', '2026-11-21', '2026-11-21');
    expect(withHourlyAnomalies([daily], [], [tracked(hourly)]).map((f) => [f.id, f.started, f.day, f.hourly])).toEqual([
      ['anomaly:ml:2026-11-20', '2026-11-20', '2026-11-21', undefined],
    ]);
  });

  it("shows a team's hourly anomaly only where the bill has none for it, and leaves other teams' alone", () => {
    const onBill = finding('ml', '2026-11-18', '2026-11-20');
    const hours = [finding('ml', '2026-11-20', '2026-11-20', true), finding('vision', '2026-11-20', '2026-11-20', true)];
    // ml's hourly run, already posted, lies within the bill's run: that message carries the bill's figures from its first day.
    expect(withHourlyAnomalies([onBill], hours, [tracked(hours[0]!)]).map((f) => [f.id, f.started])).toEqual([
      ['anomaly:ml:2026-11-20', '2026-11-18'],
      ['anomaly:vision:2026-11-20', '2026-11-20'],
    ]);
    // An hourly run that began more than a day before the bill's is another anomaly.
    const later = finding('ml', '2026-11-10', '2026-11-12', true);
    expect(withHourlyAnomalies([onBill], [], [tracked(later)]).map((f) => f.id)).toEqual(['anomaly:ml:2026-11-18']);
  });
});
