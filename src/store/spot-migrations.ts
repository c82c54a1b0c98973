import type { SpotApprovalDraft, SpotApprovalResult, SpotMigration, SpotMigrationState } from '../domain/spot-migration.js';
import { dateOrNull, type Session } from './session.js';

/** A spot_migrations row under its record's names, its times still ISO text. */
const COLUMNS = `id, instance_id AS "instanceId", team, launch_template AS "launchTemplate", place, monthly_saving AS "monthlySaving",
  approvals_needed AS "approvalsNeeded", state, previous_version AS "previousVersion", spot_version AS "spotVersion",
  created_at AS "createdAt", migrated_at AS "migratedAt", reverted_by AS "revertedBy", reverted_at AS "revertedAt", detail,
  changed_at AS "changedAt"`;
type MigrationRow = Omit<SpotMigration, 'createdAt' | 'migratedAt' | 'revertedAt' | 'changedAt' | 'approvals'> & {
  createdAt: string;
  migratedAt: string | null;
  revertedAt: string | null;
  changedAt: string;
};

const ACTIVE = `SELECT ${COLUMNS} FROM spot_migrations WHERE instance_id = ? AND state <> 'reverted'`;

/**
 * Spot migrations and their approvals, for several replicas on one database. Every state change
 * is one conditional UPDATE (from the state it expects), so of concurrent clicks on any replicas
 * exactly one moves a migration on; an approval holds the instance's lock and its migration's row.
 */
export class SqlSpotMigrationStore {
  constructor(private readonly db: Session) {}

  /** Records an approval on the instance's active migration, starting one if there is none: one transaction. */
  async approve(draft: SpotApprovalDraft): Promise<SpotApprovalResult> {
    return this.db.transaction(async (tx) => {
      // Only approvals start migrations: under the instance's lock no other replica starts a second one.
      await tx.lock(`spot migration of ${draft.instanceId}`);
      // The row lock keeps it approving (a transition waits) until the approval is recorded.
      const row =
        (await tx.one<MigrationRow>(`${ACTIVE} ${tx.dialect.forUpdate}`, [draft.instanceId])) ??
        (await tx.one<MigrationRow>(
          `INSERT INTO spot_migrations (instance_id, team, launch_template, place, monthly_saving, approvals_needed, state, created_at, changed_at)
           VALUES (?, ?, ?, ?, ?, ?, 'approving', ?, ?) RETURNING ${COLUMNS}`,
          [
            draft.instanceId,
            draft.team,
            draft.launchTemplate,
            draft.place,
            draft.monthlySaving,
            draft.approvalsNeeded,
            draft.at.toISOString(),
            draft.at.toISOString(),
          ],
        ))!;
      if (row.state !== 'approving') return { outcome: 'not-approving', migration: await withApprovals(tx, row) };
      const added =
        (await tx.run('INSERT INTO spot_approvals (migration_id, approver, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
          row.id,
          draft.approver,
          draft.at.toISOString(),
        ])) === 1;
      return { outcome: added ? 'recorded' : 'same-approver', migration: await withApprovals(tx, row) };
    });
  }

  async get(id: number): Promise<SpotMigration | null> {
    const row = await this.db.one<MigrationRow>(`SELECT ${COLUMNS} FROM spot_migrations WHERE id = ?`, [id]);
    return row ? withApprovals(this.db, row) : null;
  }

  /** The instance's migration that is not reverted, if any. */
  async active(instanceId: string): Promise<SpotMigration | null> {
    const row = await this.db.one<MigrationRow>(ACTIVE, [instanceId]);
    return row ? withApprovals(this.db, row) : null;
  }

  /** Moves a migration from one state to another; false when it was not in `from` (someone else moved it). */
  async transition(id: number, from: SpotMigrationState, to: SpotMigrationState, at: Date): Promise<boolean> {
    return (
      (await this.db.run('UPDATE spot_migrations SET state = ?, changed_at = ? WHERE id = ? AND state = ?', [
        to,
        at.toISOString(),
        id,
        from,
      ])) === 1
    );
  }

  /** Takes over a migrating or reverting claim unchanged since before `changedBefore` (its process died); false when it is fresh or moved on. */
  async reclaimStale(id: number, state: 'migrating' | 'reverting', changedBefore: Date, at: Date): Promise<boolean> {
    const changed = await this.db.run('UPDATE spot_migrations SET changed_at = ? WHERE id = ? AND state = ? AND changed_at < ?', [
      at.toISOString(),
      id,
      state,
      changedBefore.toISOString(),
    ]);
    return changed === 1;
  }

  async completeMigration(
    id: number,
    change: { previousVersion: string | null; spotVersion: string | null; at: Date; detail: string },
  ): Promise<void> {
    await this.db.run(
      "UPDATE spot_migrations SET state = 'migrated', previous_version = ?, spot_version = ?, migrated_at = ?, detail = ? WHERE id = ? AND state = 'migrating'",
      [change.previousVersion, change.spotVersion, change.at.toISOString(), change.detail, id],
    );
  }

  async completeRevert(id: number, change: { byUser: string; at: Date; detail: string }): Promise<void> {
    await this.db.run(
      "UPDATE spot_migrations SET state = 'reverted', reverted_by = ?, reverted_at = ?, detail = ? WHERE id = ? AND state = 'reverting'",
      [change.byUser, change.at.toISOString(), change.detail, id],
    );
  }
}

/** A migration and its approvals, first first, as read from the database. */
async function withApprovals(session: Session, row: MigrationRow): Promise<SpotMigration> {
  const approvals = await session.rows<{ approver: string; at: string }>(
    `SELECT approver, at FROM spot_approvals WHERE migration_id = ? ORDER BY ${session.dialect.insertionOrder}`,
    [row.id],
  );
  return {
    ...row,
    createdAt: new Date(row.createdAt),
    migratedAt: dateOrNull(row.migratedAt),
    revertedAt: dateOrNull(row.revertedAt),
    changedAt: new Date(row.changedAt),
    approvals: approvals.map((a) => ({ approver: a.approver, at: new Date(a.at) })),
  };
}
