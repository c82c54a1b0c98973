import { describe, expect, it } from 'vitest';
import { idleFindings, type IdleInstance } from '../../../src/checks/idle/idle-findings.js';
import { idlePolicy } from '../../../src/checks/idle/idle-policy.js';
import { DEFAULT_WORKING_HOURS, type TeamSchedule } from '../../../src/checks/idle/team-schedule.js';

// A machine without GPU metrics whose platform records user activity (a SageMaker Studio app) is
// judged by that record, never by the missing-data policy: idle from its last activity once that
// is at least the policy's minimum ago, with nothing counted as missing and nothing capped.

const NOW = new Date('2026-11-20T09:00:00Z');
const range = { start: Date.UTC(2026, 10, 19, 9) / 1000, end: NOW.getTime() / 1000, stepSeconds: 60 };
const schedules = new Map<string, TeamSchedule>([['ml-research', { timezone: 'UTC', workingHours: DEFAULT_WORKING_HOURS }]]);
const app = (lastActiveAt: string, more: Partial<IdleInstance> = {}): IdleInstance => ({
  id: 'arn:aws:sagemaker:eu-west-1:123456789012:app/d-1/lab/jupyterlab/default',
  team: 'ml-research',
  hourlyPrice: 1.5,
  gpuCount: 1,
  protected: false,
  activity: { lastActiveAt, signal: "SageMaker Studio's record of user activity" },
  ...more,
});
const find = (instance: IdleInstance, policy = idlePolicy()) =>
  idleFindings({ gpus: [], unmetered: [instance], policy, now: NOW, schedules, range });

describe("idle by a platform's record of activity", () => {
  it('is idle from the last activity once the minimum has passed, priced over that time', () => {
    const [finding] = find(app('2026-11-20T06:30:00.000Z'));
    expect(finding).toMatchObject({
      kind: 'gpu.idle',
      since: '2026-11-20T06:30:00.000Z',
      idleMinutes: 150,
      missingMinutes: 0,
      gpus: 1,
      burned: 3.75, // 2.5 h × 1.5 by hand
      perDay: 36,
    });
    expect(finding!.description).toContain("by SageMaker Studio's record of user activity");
    expect(finding!.description).not.toContain('gpu.idle.missing');
  });

  it('is not idle before the minimum, however the missing-data policy counts a machine without metrics', () => {
    expect(find(app('2026-11-20T08:01:00.000Z'), idlePolicy({ missing: 'idle' }))).toEqual([]);
    expect(find(app('2026-11-20T08:00:00.000Z'))).toHaveLength(1); // exactly the hour
  });

  it('says "since" as the platform recorded it, even before the metrics window: no "at least"', () => {
    const [finding] = find(app('2026-11-17T09:00:00.000Z'));
    expect(finding!.since).toBe('2026-11-17T09:00:00.000Z');
    expect(finding!.description).not.toContain('at least');
  });

  it('reads an unreadable time as not idle rather than guessing', () => {
    expect(find(app('not a time'))).toEqual([]);
  });
});
