import type { AnomalyFinding } from '../domain/anomaly-finding.js';
import type { Finding } from '../domain/finding.js';
import type { FindingChange } from '../domain/finding-change.js';
import type { GpuFinding, TrackedGpuFinding } from '../domain/gpu-finding.js';
import type { SpendBatch } from '../domain/spend.js';
import type { ImportOptions, ImportSummary } from '../domain/spend-import.js';
import type { SweepFinding, TrackedSweepFinding } from '../domain/sweep-finding.js';
import type { SqlAcknowledgementStore } from './acknowledgements.js';
import type { SqlAnomalyFindingStore } from './anomaly-findings.js';
import type { SqlAuditLog } from './audit-log.js';
import type { SqlActionProposalStore } from './action-proposals.js';
import type { SqlMcpTokenStore } from './mcp-tokens.js';
import type { SqlBudgetOverrideStore } from './budget-overrides.js';
import type { ChatConversationStore } from './chat-conversations.js';
import type { SqlClaimStore } from './claims.js';
import type { SqlCloudBudgetStore } from './cloud-budgets.js';
import type { ConsoleMessageStore } from './console-messages.js';
import type { SqlFindingStore } from './findings.js';
import type { SqlInstanceActionStore } from './instance-actions.js';
import type { SqlSavingsLedgerStore } from './savings-ledger.js';
import type { SqlKubeUsageStore } from './kube-usage.js';
import type { SqlInstanceOwnerStore } from './instance-owners.js';
import type { SqlKeepExceptionStore } from './keep-exceptions.js';
import type { Leadership, LeadershipOptions } from './leadership.js';
import type { OutboxStore } from './outbox-table.js';
import type { OutboxDraft } from './outbox-records.js';
import type { SqlReviewStore } from './reviews.js';
import type { SqlSnoozeStore } from './snoozes.js';
import type { SqlFreshnessStore } from './source-freshness.js';
import type { SqlSpendBreakdownStore } from './spend-breakdowns.js';
import type { SqlSpendStore } from './spend-daily.js';
import type { SqlSpotMigrationStore } from './spot-migrations.js';
import type { SqlTrackedFindings } from './tracked-findings.js';
import type { PublicOf } from './session.js';

// The store: each table's contract and its one implementation (store/<table>.ts), over the embedded
// SQLite file or a Postgres database several replicas share (assemble-store.ts); records in domain/.

/** Each table of findings a check run records into, and the findings it holds. */
export interface FindingTables {
  findings: Finding;
  gpuFindings: GpuFinding;
  sweepFindings: SweepFinding;
  anomalyFindings: AnomalyFinding;
}

export type FindingTable = keyof FindingTables;

/** Each check's family of rows in the one findings table (check_findings). */
export const FINDING_FAMILIES: Record<FindingTable, FindingFamily> = {
  findings: 'budget',
  gpuFindings: 'gpu',
  sweepFindings: 'sweep',
  anomalyFindings: 'anomaly',
};

export type FindingFamily = 'budget' | 'gpu' | 'sweep' | 'anomaly';

export interface Store {
  spend: PublicOf<SqlSpendStore>;
  breakdowns: PublicOf<SqlSpendBreakdownStore>;
  reviews: PublicOf<SqlReviewStore>;
  freshness: PublicOf<SqlFreshnessStore>;
  cloudBudgets: PublicOf<SqlCloudBudgetStore>;
  findings: PublicOf<SqlFindingStore>;
  outbox: OutboxStore;
  audit: PublicOf<SqlAuditLog>;
  snoozes: PublicOf<SqlSnoozeStore>;
  acknowledgements: PublicOf<SqlAcknowledgementStore>;
  budgets: PublicOf<SqlBudgetOverrideStore>;
  console: ConsoleMessageStore;
  gpuFindings: PublicOf<SqlTrackedFindings<TrackedGpuFinding>>;
  keeps: PublicOf<SqlKeepExceptionStore>;
  instanceActions: PublicOf<SqlInstanceActionStore>;
  savings: PublicOf<SqlSavingsLedgerStore>;
  kubeUsage: PublicOf<SqlKubeUsageStore>;
  instanceOwners: PublicOf<SqlInstanceOwnerStore>;
  conversations: ChatConversationStore;
  spotMigrations: PublicOf<SqlSpotMigrationStore>;
  sweepFindings: PublicOf<SqlTrackedFindings<TrackedSweepFinding>>;
  anomalyFindings: PublicOf<SqlAnomalyFindingStore>;
  claims: PublicOf<SqlClaimStore>;
  /** What assistants proposed through the MCP server. */
  proposals: PublicOf<SqlActionProposalStore>;
  /** The MCP tokens issued by `burnrate mcp token create`, kept hashed. */
  mcpTokens: PublicOf<SqlMcpTokenStore>;
  /** Which store this is, for logs: a file path, or a Postgres URL without its password. */
  readonly location: string;
  /** Whether replicas share it (Postgres): then what one process remembers, the others must see. */
  readonly shared: boolean;
  /** Resolves once the database is reachable and migrated; rejects with what is wrong. */
  ready(): Promise<void>;
  /** Starts competing for the scheduler's lead (always won by the one process of a SQLite file). */
  competeForLeadership(options?: LeadershipOptions): Leadership;
  /**
   * Writes batches of spend and their sources' freshness in one transaction: all or nothing.
   * Batches of file exports (scope.parts) replace only their own parts, and are refused when they
   * would shrink a billing period's spend by more than half, unless options.replacePeriod.
   */
  importBatches(batches: SpendBatch[], now?: Date, options?: ImportOptions): Promise<ImportSummary>;
  /**
   * Records a check run in one transaction: the findings' new states in the check's table and the
   * alerts to send. A crash can therefore never leave a finding marked as alerted without its alert queued.
   */
  recordRun<T extends FindingTable>(table: T, change: FindingChange<FindingTables[T]>, alerts: OutboxDraft[], now: Date): Promise<void>;
  isEmpty(): Promise<boolean>;
  close(): Promise<void>;
}
