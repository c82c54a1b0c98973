import type Database from 'better-sqlite3';
import type { SpotApprovalDraft, SpotApprovalResult, SpotMigration, SpotMigrationState } from '../../domain/spot-migration.js';

export interface SpotMigrationStore {
  /** Records an approval on the instance's active migration, starting one if there is none: one transaction. */
  approve(draft: SpotApprovalDraft): Promise<SpotApprovalResult>;
  get(id: number): Promise<SpotMigration | null>;
  /** The instance's migration that is not reverted, if any. */
  active(instanceId: string): Promise<SpotMigration | null>;
  /** Moves a migration from one state to another; false when it was not in `from` (someone else moved it). */
  transition(id: number, from: SpotMigrationState, to: SpotMigrationState, at: Date): Promise<boolean>;
  /** Takes over a migrating or reverting claim unchanged since before `changedBefore` (its process died); false when it is fresh or moved on. */
  reclaimStale(id: number, state: 'migrating' | 'reverting', changedBefore: Date, at: Date): Promise<boolean>;
  completeMigration(
    id: number,
    change: { previousVersion: string | null; spotVersion: string | null; at: Date; detail: string },
  ): Promise<void>;
  completeRevert(id: number, change: { byUser: string; at: Date; detail: string }): Promise<void>;
}

/** A spot_migrations row, as both stores read it (`SELECT *`). */
export interface MigrationRow {
  id: number;
  instance_id: string;
  team: string;
  launch_template: string;
  place: string | null;
  monthly_saving: number;
  approvals_needed: number;
  state: SpotMigrationState;
  previous_version: string | null;
  spot_version: string | null;
  created_at: string;
  migrated_at: string | null;
  reverted_by: string | null;
  reverted_at: string | null;
  detail: string | null;
  changed_at: string;
}

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

/** A migration and its approvals, first first, as read from the database. */
export function migrationFromRow(row: MigrationRow, approvals: readonly { approver: string; at: string }[]): SpotMigration {
  return {
    id: row.id,
    instanceId: row.instance_id,
    team: row.team,
    launchTemplate: row.launch_template,
    place: row.place,
    monthlySaving: row.monthly_saving,
    approvalsNeeded: row.approvals_needed,
    state: row.state,
    previousVersion: row.previous_version,
    spotVersion: row.spot_version,
    createdAt: new Date(row.created_at),
    migratedAt: row.migrated_at ? new Date(row.migrated_at) : null,
    revertedBy: row.reverted_by,
    revertedAt: row.reverted_at ? new Date(row.reverted_at) : null,
    detail: row.detail,
    changedAt: new Date(row.changed_at),
    approvals: approvals.map((a) => ({ approver: a.approver, at: new Date(a.at) })),
  };
}
