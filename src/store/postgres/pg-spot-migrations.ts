import type { SpotApprovalDraft, SpotApprovalResult, SpotMigration, SpotMigrationState } from '../../domain/spot-migration.js';
import { migrationFromRow, type MigrationRow, type SpotMigrationStore } from '../spot-migrations.js';
import { lockFor, type PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';

const ACTIVE = "SELECT * FROM spot_migrations WHERE instance_id = $1 AND state <> 'reverted'";

/**
 * Spot migrations and their approvals, for several replicas on one database. Every state change
 * is one conditional UPDATE (from the state it expects), so of concurrent clicks on any replicas
 * exactly one moves a migration on; an approval holds the instance's lock and its migration's row.
 */
export class PgSpotMigrationStore implements SpotMigrationStore {
  constructor(private readonly db: PgDb) {}

  async approve(draft: SpotApprovalDraft): Promise<SpotApprovalResult> {
    return this.db.transaction(async (tx) => {
      // Only approvals start migrations: under the instance's lock no other replica starts a second one.
      await lockFor(tx, `spot migration of ${draft.instanceId}`);
      // The row lock keeps it approving (a transition waits) until the approval is recorded.
      const row =
        (await tx.one<MigrationRow>(`${ACTIVE} FOR UPDATE`, [draft.instanceId])) ??
        (await tx.one<MigrationRow>(
          `INSERT INTO spot_migrations (instance_id, team, launch_template, place, monthly_saving, approvals_needed, state, created_at, changed_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'approving', $7, $7) RETURNING *`,
          [
            draft.instanceId,
            draft.team,
            draft.launchTemplate,
            draft.place,
            draft.monthlySaving,
            draft.approvalsNeeded,
            draft.at.toISOString(),
          ],
        ))!;
      if (row.state !== 'approving') return { outcome: 'not-approving', migration: await withApprovals(tx, row) };
      const added =
        (await tx.run('INSERT INTO spot_approvals (migration_id, approver, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
          row.id,
          draft.approver,
          draft.at.toISOString(),
        ])) === 1;
      return { outcome: added ? 'recorded' : 'same-approver', migration: await withApprovals(tx, row) };
    });
  }

  async get(id: number): Promise<SpotMigration | null> {
    const row = await this.db.one<MigrationRow>('SELECT * FROM spot_migrations WHERE id = $1', [id]);
    return row ? withApprovals(this.db, row) : null;
  }

  async active(instanceId: string): Promise<SpotMigration | null> {
    const row = await this.db.one<MigrationRow>(ACTIVE, [instanceId]);
    return row ? withApprovals(this.db, row) : null;
  }

  async transition(id: number, from: SpotMigrationState, to: SpotMigrationState, at: Date): Promise<boolean> {
    return (
      (await this.db.run('UPDATE spot_migrations SET state = $1, changed_at = $2 WHERE id = $3 AND state = $4', [
        to,
        at.toISOString(),
        id,
        from,
      ])) === 1
    );
  }

  async reclaimStale(id: number, state: 'migrating' | 'reverting', changedBefore: Date, at: Date): Promise<boolean> {
    const changed = await this.db.run('UPDATE spot_migrations SET changed_at = $1 WHERE id = $2 AND state = $3 AND changed_at < $4', [
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
      "UPDATE spot_migrations SET state = 'migrated', previous_version = $1, spot_version = $2, migrated_at = $3, detail = $4 WHERE id = $5 AND state = 'migrating'",
      [change.previousVersion, change.spotVersion, change.at.toISOString(), change.detail, id],
    );
  }

  async completeRevert(id: number, change: { byUser: string; at: Date; detail: string }): Promise<void> {
    await this.db.run(
      "UPDATE spot_migrations SET state = 'reverted', reverted_by = $1, reverted_at = $2, detail = $3 WHERE id = $4 AND state = 'reverting'",
      [change.byUser, change.at.toISOString(), change.detail, id],
    );
  }
}

async function withApprovals(session: PgSession, row: MigrationRow): Promise<SpotMigration> {
  const approvals = await session.rows<{ approver: string; at: string }>(
    'SELECT approver, at FROM spot_approvals WHERE migration_id = $1 ORDER BY seq',
    [row.id],
  );
  return migrationFromRow(row, approvals);
}
