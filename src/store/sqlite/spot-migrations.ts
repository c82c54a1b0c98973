import type Database from 'better-sqlite3';
import type { SpotApprovalDraft, SpotApprovalResult, SpotMigration, SpotMigrationState } from '../../domain/spot-migration.js';
import { migrationFromRow, type SpotMigrationStore, type MigrationRow } from '../spot-migrations.js';

/**
 * Spot migrations and their approvals. Every state change is one conditional UPDATE (from the
 * state it expects), so of two concurrent clicks exactly one moves a migration on.
 */
export class SqliteSpotMigrationStore implements SpotMigrationStore {
  private readonly approveTx: (draft: SpotApprovalDraft) => SpotApprovalResult;

  constructor(private readonly db: Database.Database) {
    const active = db.prepare<[string], MigrationRow>("SELECT * FROM spot_migrations WHERE instance_id = ? AND state <> 'reverted'");
    const create = db.prepare(
      `INSERT INTO spot_migrations (instance_id, team, launch_template, place, monthly_saving, approvals_needed, state, created_at, changed_at)
       VALUES (@instanceId, @team, @launchTemplate, @place, @monthlySaving, @approvalsNeeded, 'approving', @at, @at)`,
    );
    const insertApproval = db.prepare('INSERT INTO spot_approvals (migration_id, approver, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
    this.approveTx = db.transaction((draft: SpotApprovalDraft): SpotApprovalResult => {
      let row = active.get(draft.instanceId);
      if (!row) {
        create.run({ ...draft, at: draft.at.toISOString() });
        row = active.get(draft.instanceId)!;
      }
      if (row.state !== 'approving') return { outcome: 'not-approving', migration: this.toMigration(row) };
      const added = insertApproval.run(row.id, draft.approver, draft.at.toISOString()).changes === 1;
      return { outcome: added ? 'recorded' : 'same-approver', migration: this.toMigration(row) };
    });
  }

  async approve(draft: SpotApprovalDraft): Promise<SpotApprovalResult> {
    return this.approveTx(draft);
  }

  async get(id: number): Promise<SpotMigration | null> {
    const row = this.db.prepare<[number], MigrationRow>('SELECT * FROM spot_migrations WHERE id = ?').get(id);
    return row ? this.toMigration(row) : null;
  }

  async active(instanceId: string): Promise<SpotMigration | null> {
    const row = this.db
      .prepare<[string], MigrationRow>("SELECT * FROM spot_migrations WHERE instance_id = ? AND state <> 'reverted'")
      .get(instanceId);
    return row ? this.toMigration(row) : null;
  }

  async transition(id: number, from: SpotMigrationState, to: SpotMigrationState, at: Date): Promise<boolean> {
    return (
      this.db.prepare('UPDATE spot_migrations SET state = ?, changed_at = ? WHERE id = ? AND state = ?').run(to, at.toISOString(), id, from)
        .changes === 1
    );
  }

  async reclaimStale(id: number, state: 'migrating' | 'reverting', changedBefore: Date, at: Date): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE spot_migrations SET changed_at = ? WHERE id = ? AND state = ? AND changed_at < ?')
        .run(at.toISOString(), id, state, changedBefore.toISOString()).changes === 1
    );
  }

  async completeMigration(
    id: number,
    change: { previousVersion: string | null; spotVersion: string | null; at: Date; detail: string },
  ): Promise<void> {
    this.db
      .prepare(
        "UPDATE spot_migrations SET state = 'migrated', previous_version = ?, spot_version = ?, migrated_at = ?, detail = ? WHERE id = ? AND state = 'migrating'",
      )
      .run(change.previousVersion, change.spotVersion, change.at.toISOString(), change.detail, id);
  }

  async completeRevert(id: number, change: { byUser: string; at: Date; detail: string }): Promise<void> {
    this.db
      .prepare(
        "UPDATE spot_migrations SET state = 'reverted', reverted_by = ?, reverted_at = ?, detail = ? WHERE id = ? AND state = 'reverting'",
      )
      .run(change.byUser, change.at.toISOString(), change.detail, id);
  }

  private toMigration(row: MigrationRow): SpotMigration {
    const approvals = this.db
      .prepare<[number], { approver: string; at: string }>('SELECT approver, at FROM spot_approvals WHERE migration_id = ? ORDER BY rowid')
      .all(row.id);
    return migrationFromRow(row, approvals);
  }
}
