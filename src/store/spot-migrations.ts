import type { SpotApprovalDraft, SpotApprovalResult, SpotMigration, SpotMigrationState } from '../domain/spot-migration.js';

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
