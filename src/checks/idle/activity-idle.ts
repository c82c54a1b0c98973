import type { PlatformActivity } from '../../domain/gpu-inventory.js';
import type { IdlePolicy } from './idle-policy.js';
import type { InstanceIdle } from './instance-idle.js';

/**
 * A machine the platform publishes no GPU metrics for (a SageMaker Studio app), judged by the
 * platform's own record of activity: idle since its last recorded activity once that is at least
 * the policy's minimum ago. The time is the platform's own, so nothing of it is missing data and
 * nothing is capped by the metrics window. Null while it was used too recently, or the time is unreadable.
 */
export function activityIdle(activity: PlatformActivity, policy: IdlePolicy, now: Date): InstanceIdle | null {
  const since = Date.parse(activity.lastActiveAt) / 1000;
  if (!Number.isFinite(since)) return null;
  if (now.getTime() / 1000 - since < policy.minIdleMinutes * 60) return null;
  return { kind: 'idle', since, missingSeconds: 0 };
}

/** What the finding's description adds: whose signal "idle" is, since it is not GPU utilisation. */
export function activityNote(activity: PlatformActivity): string {
  return ` (by ${activity.signal}: nobody has used it since; not GPU utilisation, which it does not publish)`;
}
