import type { SpendBatch } from '../domain/spend.js';
import type { PullContext } from './pull-context.js';

/**
 * A spend source returns normalised daily rows; nothing else. Each batch replaces its scope in the
 * store, so pulling the same period twice is harmless.
 */
export interface SpendSource {
  readonly id: string;
  readonly type: string;
  pull(ctx: PullContext): Promise<SpendBatch[]>;
}
