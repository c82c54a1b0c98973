import type { SpendBatch } from '../../domain/spend.js';
import type { ImportOptions, ImportSummary } from '../../domain/spend-import.js';
import { refuseShrinking } from '../import-guard.js';
import { ImportTally } from '../import-tally.js';
import type { PgDb } from './pg-db.js';
import { periodSpend } from './pg-import-guard.js';
import { attributeKubeCost } from './pg-kube-attribution.js';
import { writeFreshness } from './pg-source-freshness.js';
import { deleteSpendScope, insertSpendRows } from './pg-spend-daily.js';
import { deleteExportParts } from './pg-spend-export-parts.js';
import { lockSpendWrites } from './pg-spend-lock.js';
import { rebuildTeamDays, spanOfScope } from './pg-spend-team-days.js';

/**
 * Store.importBatches on Postgres: every batch of an import in one transaction, as on SQLite
 * (sqlite/open-sqlite-store.ts). It holds the spend lock from its first statement, so a second replica importing
 * at once waits, then reads (and replaces) what this one wrote.
 */
export async function importBatches(db: PgDb, batches: readonly SpendBatch[], now?: Date, options?: ImportOptions): Promise<ImportSummary> {
  return db.transaction(async (tx) => {
    await lockSpendWrites(tx);
    const tally = new ImportTally();
    for (const batch of batches) {
      const { scope } = batch;
      // File exports replace only their own parts, unless the whole period is to be replaced.
      const partsOnly = scope.parts !== undefined && !options?.replacePeriod;
      const before = partsOnly ? await periodSpend(tx, scope.source, scope.billingPeriods) : null;
      if (partsOnly) {
        const span = await spanOfScope(tx, { source: scope.source, billingPeriods: scope.billingPeriods });
        tally.deletedParts(span, await deleteExportParts(tx, scope));
      } else {
        const span = await spanOfScope(tx, scope);
        tally.deletedScope(span, await deleteSpendScope(tx, scope));
      }
      tally.inserted(batch, await insertSpendRows(tx, batch));
      if (before) refuseShrinking(scope.source, before, await periodSpend(tx, scope.source, scope.billingPeriods));
      await writeFreshness(tx, scope.source, batch.dataThrough, now ?? new Date());
    }
    if (tally.touched) {
      await attributeKubeCost(tx, tally.touched);
      await rebuildTeamDays(tx, tally.touched);
    }
    return tally.summary();
  });
}
