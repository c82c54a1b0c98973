import type { AnomalyFinding } from '../../src/domain/anomaly-finding.js';

/** A runaway sweep's anomaly as the check records it: two days, its drivers, on a short history. */
export const SAMPLE_ANOMALY: AnomalyFinding = {
  id: 'anomaly:ml:2026-11-08',
  kind: 'anomaly.spend',
  team: 'ml',
  currency: 'USD',
  started: '2026-11-08',
  day: '2026-11-09',
  actual: 5210,
  expected: 1000,
  excess: 4210,
  deviations: 42.1,
  provisional: true,
  historyDays: 12,
  shortHistory: true,
  newCharges: 0,
  days: [
    { day: '2026-11-08', actual: 4600, expected: 1000 },
    { day: '2026-11-09', actual: 5210, expected: 1000 },
  ],
  drivers: [
    { dimension: 'service', key: 'Amazon SageMaker', amount: 4000, usual: 0, delta: 4000, share: 0.95 },
    { dimension: 'resource', key: 'llm-sweep-17 (i-0abc)', amount: 3300, usual: 0, delta: 3300, share: 0.78 },
  ],
};
