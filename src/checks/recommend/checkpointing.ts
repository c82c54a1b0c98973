import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { normaliseTag } from '../../domain/ownership.js';

/** Tags a workload declares its checkpointing with: `checkpoint=true`, `checkpoint-interval=15m`. */
export const CHECKPOINT_TAG = 'checkpoint';
export const CHECKPOINT_INTERVAL_TAG = 'checkpoint-interval';

export interface Checkpointing {
  declared: boolean;
  /** The declared interval in minutes; null when absent or unreadable. */
  intervalMinutes: number | null;
  /** The interval tag's value as written, for messages; null when absent. */
  intervalText: string | null;
}

const UNIT_MINUTES: Readonly<Record<string, number>> = { s: 1 / 60, m: 1, min: 1, h: 60, hr: 60, d: 1440 };

/** "15m", "1h", "90s", "1h30m", "45" (minutes) → minutes; null when it is none of these. */
export function parseInterval(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)\s*(min|hr|s|m|h|d)/g)];
  if (
    parts.length === 0 ||
    parts
      .map((p) => p[0])
      .join('')
      .replace(/\s/g, '') !== value.replace(/\s/g, '')
  )
    return null;
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MINUTES[p[2]!]!, 0);
}

function tag(tags: Readonly<Record<string, string>>, key: string): string | null {
  const wanted = normaliseTag(key);
  for (const [k, v] of Object.entries(tags)) if (normaliseTag(k) === wanted && v.trim() !== '') return v;
  return null;
}

export function checkpointingOf(tags: Readonly<Record<string, string>>): Checkpointing {
  const declared = normaliseTag(tag(tags, CHECKPOINT_TAG) ?? '') === 'true';
  const intervalText = tag(tags, CHECKPOINT_INTERVAL_TAG);
  return { declared, intervalText, intervalMinutes: intervalText === null ? null : parseInterval(intervalText) };
}

export type SpotRefusal =
  | 'inference'
  | 'protected'
  | 'not-checkpointed'
  | 'no-interval'
  | 'interval-too-long'
  | 'already-spot'
  | 'not-batch';

export type SpotReadiness =
  | { ready: true; checkpointing: Checkpointing }
  | { ready: false; reason: SpotRefusal; message: string; hint: string };

/**
 * May this instance move to spot? A reclaimed spot instance loses the work since its last
 * checkpoint, so only batch work (training, sweeps) that checkpoints often enough qualifies; an
 * inference endpoint never does (a reclaim is an outage).
 */
export function spotReadiness(
  instance: Pick<GpuInstance, 'workload' | 'lifecycle' | 'tags'> & { protected?: boolean },
  maxCheckpointMinutes: number,
  label: string,
): SpotReadiness {
  if (instance.workload === 'inference')
    return {
      ready: false,
      reason: 'inference',
      message: `${label} is an inference endpoint: a spot reclaim would take it down.`,
      hint: 'Serve from on-demand capacity; move training and sweeps to spot instead.',
    };
  if (instance.protected)
    return {
      ready: false,
      reason: 'protected',
      message: `${label} is tagged burnrate:protect=true, so burnrate never changes it.`,
      hint: 'Remove the tag to allow burnrate to act on it.',
    };
  if (instance.lifecycle === 'spot')
    return { ready: false, reason: 'already-spot', message: `${label} already runs on spot capacity.`, hint: 'Nothing to migrate.' };
  if (instance.workload !== 'training' && instance.workload !== 'sweep')
    return {
      ready: false,
      reason: 'not-batch',
      message: `${label} is not a training or sweep workload (workload: ${instance.workload}).`,
      hint: 'Tag batch jobs workload=training or workload=sweep; interactive work does not survive a reclaim.',
    };
  const checkpointing = checkpointingOf(instance.tags);
  if (!checkpointing.declared)
    return {
      ready: false,
      reason: 'not-checkpointed',
      message: `${label} does not declare checkpointing, so a spot reclaim could lose the whole run.`,
      hint: `Save checkpoints and tag the instance ${CHECKPOINT_TAG}=true and ${CHECKPOINT_INTERVAL_TAG}=15m.`,
    };
  if (checkpointing.intervalMinutes === null)
    return {
      ready: false,
      reason: 'no-interval',
      message: `${label} declares checkpointing but no readable interval${checkpointing.intervalText ? ` ("${checkpointing.intervalText}")` : ''}.`,
      hint: `Tag it ${CHECKPOINT_INTERVAL_TAG}=15m (s, m, h or d).`,
    };
  if (checkpointing.intervalMinutes > maxCheckpointMinutes)
    return {
      ready: false,
      reason: 'interval-too-long',
      message: `${label} checkpoints every ${checkpointing.intervalText}, longer than the ${formatMinutes(maxCheckpointMinutes)} burnrate allows on spot: a reclaim could lose that much work.`,
      hint: `Checkpoint at least every ${formatMinutes(maxCheckpointMinutes)} and update the ${CHECKPOINT_INTERVAL_TAG} tag, or raise spot.maxCheckpointMinutes in burnrate.yml.`,
    };
  return { ready: true, checkpointing };
}

export function formatMinutes(minutes: number): string {
  if (minutes >= 60 && minutes % 60 === 0) return `${minutes / 60} h`;
  return `${Math.round(minutes * 10) / 10} min`;
}
