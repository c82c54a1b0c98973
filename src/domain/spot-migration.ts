/**
 * approving: collecting approvals; migrating: the launch template is being changed; migrated: it
 * requests spot; reverting: being put back; reverted: on demand again (a new migration may start).
 */
export type SpotMigrationState = 'approving' | 'migrating' | 'migrated' | 'reverting' | 'reverted';

export interface SpotMigration {
  id: number;
  instanceId: string;
  team: string;
  launchTemplate: string;
  /** The spot port's place (`demo`, `aws:<region>`) the migration goes through; null for migrations recorded before places were. */
  place: string | null;
  /** USD a month, as recommended when the first approval came. */
  monthlySaving: number;
  approvalsNeeded: number;
  state: SpotMigrationState;
  /** The launch template's default version before the migration: what a revert restores. */
  previousVersion: string | null;
  spotVersion: string | null;
  createdAt: Date;
  migratedAt: Date | null;
  revertedBy: string | null;
  revertedAt: Date | null;
  detail: string | null;
  /** When the state last changed. */
  changedAt: Date;
  /** Who approved, first first. */
  approvals: { approver: string; at: Date }[];
}

export interface SpotApprovalDraft {
  instanceId: string;
  team: string;
  launchTemplate: string;
  place: string;
  monthlySaving: number;
  approvalsNeeded: 1 | 2;
  approver: string;
  at: Date;
}

export interface SpotApprovalResult {
  /** recorded: a new approval; same-approver: this approver had approved already; not-approving: past approval (migrating, migrated). */
  outcome: 'recorded' | 'same-approver' | 'not-approving';
  /** The migration with its approvals after this call. */
  migration: SpotMigration;
}
