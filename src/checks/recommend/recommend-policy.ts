import type { TeamRole } from '../../domain/roles.js';
import { z } from 'zod';

// Recommendation and spot-migration settings are data, validated with the rest of burnrate.yml.

const share = (value: number) =>
  z
    .number({ error: 'expected a share between 0 and 1, e.g. 0.5' })
    .gt(0, { error: 'expected a share above 0' })
    .max(1, { error: 'expected a share of at most 1' })
    .default(value);

export const rightSizePolicySchema = z.strictObject({
  /** Mean GPU utilisation (0–100) over the running samples must stay at or below this. */
  maxMeanUtil: z.number({ error: 'expected a percentage' }).min(0).max(100, { error: 'expected a percentage of at most 100' }).default(30),
  /** The GPU-memory high-water mark must stay at or below this share of the instance's GPU memory. */
  maxMemoryShare: share(0.5),
  /** The smaller type must hold the high-water mark times this factor (room for a bigger batch). */
  headroom: z.number({ error: 'expected a factor such as 1.2' }).min(1, { error: 'expected a factor of at least 1' }).max(4).default(1.2),
  /** The target's utilisation the same work may reach at its 95th percentile (utilisation × throughput ratio). */
  maxTargetUtil: z.number({ error: 'expected a percentage' }).gt(0).max(100, { error: 'expected a percentage of at most 100' }).default(70),
  /** Fewer running hours than this in the lookback say too little to recommend anything. */
  minRunningHours: z
    .number({ error: 'expected hours' })
    .nonnegative({ error: 'expected 0 or more hours' })
    .max(31 * 24, { error: 'expected at most 744 hours (the longest lookback, 31 days)' })
    .default(8),
});

export const recommendationsSchema = z.strictObject({
  /** Days of GPU metrics the recommendations read (high-water mark, utilisation, hours running). */
  lookbackDays: z
    .number({ error: 'expected days' })
    .int({ error: 'expected whole days' })
    .min(1, { error: 'expected at least 1 day' })
    .max(31, { error: 'expected at most 31 days' })
    .default(7),
  /** Hours in a month when an instance runs all the time; savings scale by the share of time it ran. */
  hoursPerMonth: z.number().positive().max(744).default(730),
  rightSize: rightSizePolicySchema.prefault({}),
});

export const spotPolicySchema = z.strictObject({
  /** The longest checkpoint interval a workload may declare and still be moved to spot (a reclaim loses at most this much work). */
  maxCheckpointMinutes: z
    .number({ error: 'expected minutes' })
    .positive({ error: 'expected minutes above 0' })
    .max(24 * 60)
    .default(30),
  /**
   * Reclaims to plan for per month of running on spot (a planning figure: GPU spot capacity is
   * reclaimed more often than CPU capacity). Each one redoes half a checkpoint interval and a
   * restart, which spot savings are shown net of.
   */
  interruptionsPerMonth: z
    .number({ error: 'expected reclaims a month, e.g. 2' })
    .nonnegative({ error: 'expected 0 or more' })
    .max(100)
    .default(2),
  /** Minutes a restart from the last checkpoint takes (new instance, image, loading the checkpoint). */
  restartMinutes: z
    .number({ error: 'expected minutes' })
    .nonnegative({ error: 'expected 0 or more' })
    .max(24 * 60)
    .default(10),
  /** A migration saving more than this per month (USD) needs two different approvers. */
  secondApproverAbove: z
    .number({ error: 'expected an amount per month' })
    .nonnegative({ error: 'expected an amount of 0 or more' })
    .default(5000),
  /**
   * Whether a team's owners may approve a spot migration as its approvers do (and so count toward
   * the two different approvers above the limit): for teams with one approver and a few owners.
   */
  ownersApprove: z.boolean({ error: 'expected true or false' }).default(false),
});

/** Who of a team may approve a spot migration: its approvers, and its owners with spot.ownersApprove. */
export function spotApproverRoles(spot: Pick<SpotPolicy, 'ownersApprove'>): TeamRole[] {
  return spot.ownersApprove ? ['approver', 'owner'] : ['approver'];
}

export type RecommendationsPolicy = z.output<typeof recommendationsSchema>;
export type RightSizePolicy = z.output<typeof rightSizePolicySchema>;
export type SpotPolicy = z.output<typeof spotPolicySchema>;

export const DEFAULT_RECOMMENDATIONS_POLICY: RecommendationsPolicy = recommendationsSchema.parse({});
export const DEFAULT_SPOT_POLICY: SpotPolicy = spotPolicySchema.parse({});
