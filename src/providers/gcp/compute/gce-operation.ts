import type { protos } from '@google-cloud/compute';
import { BurnrateError } from '../../../domain/errors.js';

export type Operation = protos.google.cloud.compute.v1.IOperation;

export interface FollowOptions {
  /** Waits between reads: the first read is at once, the last wait repeats. */
  delaysMs: readonly number[];
  /** How long to follow before answering that it is still under way. */
  followMs: number;
  /** What the operation does, for its error: "stop cv-notebook". */
  what: string;
}

/** A change to a VM or a template takes from seconds to a couple of minutes. */
export const FOLLOW_DEFAULTS = { delaysMs: [1000, 2000, 5000, 10_000], followMs: 3 * 60_000 } as const;

/**
 * Reads a Compute Engine operation (zonal or global, through `read`) until it is DONE: true when
 * done, false when still running after `followMs`. An operation that ends with errors is thrown
 * in Compute Engine's own words.
 */
export async function followOperation(
  first: Operation,
  read: (name: string) => Promise<Operation>,
  options: FollowOptions,
): Promise<boolean> {
  const deadline = Date.now() + options.followMs;
  let operation = first;
  for (let poll = 0; ; poll++) {
    if (String(operation.status) === 'DONE') {
      const errors = operation.error?.errors ?? [];
      if (errors.length > 0)
        throw new BurnrateError(
          'burnrate_gce_operation_failed',
          `Compute Engine could not ${options.what}: ${errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`,
          undefined,
          1,
        );
      return true;
    }
    if (poll > 0 && Date.now() >= deadline) return false;
    if (poll > 0) await new Promise((resolve) => setTimeout(resolve, options.delaysMs[Math.min(poll - 1, options.delaysMs.length - 1)]));
    operation = await read(String(operation.name));
  }
}
