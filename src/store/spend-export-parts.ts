import type { SpendScope } from '../domain/spend.js';
import type { Session } from './session.js';

// File exports arrive in parts: a billing period is the sum of several files, often imported one at
// a time. An import therefore replaces only what it imports again (the same file content, the same
// file name in the same export, or a whole export imported complete), never the other parts.

export interface DeletedParts {
  rows: number;
  /** File names of the earlier parts replaced, sorted; rows of imports from before parts were tracked have none. */
  parts: string[];
}

/** An export's file, as one text both databases compare: the export id's length keeps any two pairs apart. */
export const partKey = (exportId: string, name: string): string => `${[...exportId].length}:${exportId}/${name}`;

/**
 * Deletes, in the scope's source and billing periods, the earlier rows its parts replace: the same
 * content, the same file of the same export, the exports imported whole, and rows of file imports
 * from before parts were tracked (no export id) in the scope's accounts. Runs inside the caller's transaction.
 */
export async function deleteExportParts(tx: Session, scope: SpendScope): Promise<DeletedParts> {
  const d = tx.dialect;
  const parts = scope.parts ?? [];
  const deleted = await tx.rows<{ part: string | null }>(
    `DELETE FROM spend_daily
     WHERE source = ? AND ${d.inList('billing_period')}
       AND (${d.inList('content_hash')}
         OR ${d.inList(`(length(export_id) || ':' || export_id || '/' || part)`)}
         OR ${d.inList('export_id')}
         OR (export_id IS NULL ${scope.billingAccounts ? `AND ${d.inList('billing_account')}` : ''}))
     RETURNING part`,
    [
      scope.source,
      d.list(scope.billingPeriods),
      d.list(parts.map((p) => p.contentHash)),
      d.list(parts.map((p) => partKey(p.exportId, p.name))),
      d.list(scope.wholeExports ?? []),
      ...(scope.billingAccounts ? [d.list(scope.billingAccounts)] : []),
    ],
  );
  const names = new Set<string>();
  for (const row of deleted) if (row.part !== null) names.add(row.part);
  return { rows: deleted.length, parts: [...names].sort() };
}
