import { describe, expect, it } from 'vitest';
import { DEFAULT_IDLE_POLICY, idlePolicy, idlePolicySchema } from '../../../src/checks/idle/idle-policy.js';
import { DEFAULT_WORKING_HOURS } from '../../../src/checks/idle/team-schedule.js';
import { workingHoursSchema } from '../../../src/checks/idle/working-hours-schema.js';

describe('idle policy', () => {
  it('has defaults that never count missing data as idle', () => {
    expect(DEFAULT_IDLE_POLICY).toEqual({
      util: { operator: 'lt', value: 5 },
      power: null,
      minIdleMinutes: 60,
      stalled: { util: { operator: 'lte', value: 1 }, memoryMiB: { operator: 'gt', value: 1024 }, minMinutes: 30 },
      missing: 'unknown',
      maxLagMinutes: 5,
    });
  });

  it('fills a partly given setting from the defaults', () => {
    expect(idlePolicy({ power: {}, stalled: { minMinutes: 45 } })).toMatchObject({
      power: { operator: 'lt', value: 60 },
      stalled: { util: { operator: 'lte', value: 1 }, minMinutes: 45 },
    });
  });

  it('rejects unknown operators, missing policies and misspelt keys', () => {
    expect(idlePolicySchema.safeParse({ util: { operator: 'below' } }).success).toBe(false);
    expect(idlePolicySchema.safeParse({ missing: 'ignore' }).success).toBe(false);
    expect(idlePolicySchema.safeParse({ minIdleMinute: 30 }).success).toBe(false);
  });

  it('defaults working hours to 09:00–19:00, Monday to Friday, and checks the clock format', () => {
    expect(DEFAULT_WORKING_HOURS).toEqual({ start: '09:00', end: '19:00', days: [1, 2, 3, 4, 5] });
    expect(workingHoursSchema.safeParse({ end: '7pm' }).success).toBe(false);
  });
});
