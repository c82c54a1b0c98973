import { lockFor } from './pg-db.js';
import type { PgSession } from './pg-session.js';

/**
 * One writer at a time of spend_daily and the rows derived from it (team days, Kubernetes moves):
 * an import reads the spend it replaces, deletes, inserts and rebuilds over the days it touched,
 * and a second replica's import (or a Kubernetes sample) doing the same at once would interleave
 * with it. Held until the transaction ends; taking it again in the same transaction is free.
 */
export async function lockSpendWrites(tx: PgSession): Promise<void> {
  await lockFor(tx, 'burnrate import');
}
