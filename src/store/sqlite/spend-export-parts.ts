import type Database from 'better-sqlite3';
import type { SpendScope } from '../../domain/spend.js';
import type { DeletedParts } from '../spend-export-parts.js';

/**
 * Deletes, in the scope's source and billing periods, the earlier rows its parts replace. Rows of
 * file imports from before parts were tracked (no export id) are replaced in the scope's accounts,
 * as those imports did. Runs inside the caller's transaction.
 */
export function deleteExportParts(db: Database.Database, scope: SpendScope): DeletedParts {
  const parts = scope.parts ?? [];
  const deleted = db
    .prepare<unknown[], { part: string | null }>(
      `DELETE FROM spend_daily
       WHERE source = ? AND billing_period IN (SELECT value FROM json_each(?))
         AND (content_hash IN (SELECT value FROM json_each(?))
           OR EXISTS (SELECT 1 FROM json_each(?) AS p WHERE json_extract(p.value, '$[0]') = export_id AND json_extract(p.value, '$[1]') = part)
           OR export_id IN (SELECT value FROM json_each(?))
           OR (export_id IS NULL ${scope.billingAccounts ? 'AND billing_account IN (SELECT value FROM json_each(?))' : ''}))
       RETURNING part`,
    )
    .all(
      scope.source,
      JSON.stringify(scope.billingPeriods),
      JSON.stringify(parts.map((p) => p.contentHash)),
      JSON.stringify(parts.map((p) => [p.exportId, p.name])),
      JSON.stringify(scope.wholeExports ?? []),
      ...(scope.billingAccounts ? [JSON.stringify(scope.billingAccounts)] : []),
    );
  const names = new Set<string>();
  for (const row of deleted) if (row.part !== null) names.add(row.part);
  return { rows: deleted.length, parts: [...names].sort() };
}
