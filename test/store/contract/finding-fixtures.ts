import type { Finding } from '../../../src/domain/finding.js';
import type { GpuFinding } from '../../../src/domain/gpu-finding.js';
import type { SweepFinding } from '../../../src/domain/sweep-finding.js';

/** The findings the contract tests record: one of each table, varied by id where a test needs several. */

export const budget: Finding = {
  id: 'budget.actual:ml:2026-11:80',
  kind: 'budget.actual',
  team: 'ml',
  cadence: 'monthly',
  period: '2026-11',
  range: { start: '2026-11-01', end: '2026-12-01' },
  threshold: 80,
  amount: 850,
  budget: 1000,
  currency: 'USD',
  actual: 850,
  forecast: null,
  dataThrough: '2026-11-20',
};

export const gpu = {
  id: 'gpu.idle:i-0abc',
  kind: 'gpu.idle',
  team: 'ml',
  instanceId: 'i-0abc',
  idleMinutes: 120,
} as unknown as GpuFinding;

export const sweep: SweepFinding = {
  id: 'sweep.spend:ml:lr-search',
  kind: 'sweep.spend',
  team: 'ml',
  sweep: 'lr-search',
  cap: 500,
  value: 620,
  spend: 620,
  gpuHours: 40,
  windowHours: 24,
  perHour: 30,
  instances: [],
};

/** A budget finding of `team`'s `period`, with the id its key gives. */
export function budgetOf(team: string, period: string, threshold = 80): Finding {
  return { ...budget, id: `budget.actual:${team}:${period}:${threshold}`, team, period, threshold };
}

export const alert = (dedupeKey: string) => ({ dedupeKey, target: 'fake:#ml', message: { summary: 'over budget', blocks: [] } });

export const now = new Date('2026-11-21T09:00:00Z');

export function later(minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

/** Teams named so that byte order (SQLite's) differs from a linguistic one: upper case and punctuation first. */
export const TEAMS_IN_BYTE_ORDER = ['Vision', 'ml-ops', 'ml.x', 'ml_ops', 'mlops'];
