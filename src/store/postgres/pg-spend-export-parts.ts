// Export parts, as in spend-export-parts.ts: an import of file parts replaces only the earlier rows
// of the parts it imports again, never the others.

import type { SpendScope } from '../../domain/spend.js';
import type { DeletedParts } from '../spend-export-parts.js';
import type { PgSession } from './pg-session.js';

/**
 * Deletes, in the scope's source and billing periods, the earlier rows its parts replace: the same
 * content, the same file of the same export, the exports imported whole, and rows of file imports
 * from before parts were tracked (no export id) in the scope's accounts. Runs inside the caller's transaction.
 */
export async function deleteExportParts(tx: PgSession, scope: SpendScope): Promise<DeletedParts> {
  const parts = scope.parts ?? [];
  const deleted = await tx.rows<{ part: string | null }>(
    `DELETE FROM spend_daily
     WHERE source = $1 AND billing_period = ANY($2::text[])
       AND (content_hash = ANY($3::text[])
         OR (export_id, part) IN (SELECT * FROM unnest($4::text[], $5::text[]))
         OR export_id = ANY($6::text[])
         OR (export_id IS NULL ${scope.billingAccounts ? 'AND billing_account = ANY($7::text[])' : ''}))
     RETURNING part`,
    [
      scope.source,
      scope.billingPeriods,
      parts.map((p) => p.contentHash),
      parts.map((p) => p.exportId),
      parts.map((p) => p.name),
      scope.wholeExports ?? [],
      ...(scope.billingAccounts ? [scope.billingAccounts] : []),
    ],
  );
  const names = new Set<string>();
  for (const row of deleted) if (row.part !== null) names.add(row.part);
  return { rows: deleted.length, parts: [...names].sort() };
}
