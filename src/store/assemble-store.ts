import { SqlAcknowledgementStore } from './acknowledgements.js';
import { SqlActionProposalStore } from './action-proposals.js';
import { SqlMcpTokenStore } from './mcp-tokens.js';
import { SqlAnomalyFindingStore } from './anomaly-findings.js';
import { SqlAuditLog } from './audit-log.js';
import { SqlBudgetOverrideStore } from './budget-overrides.js';
import { SqlChatConversationStore } from './chat-conversations.js';
import { SqlClaimStore } from './claims.js';
import { SqlCloudBudgetStore } from './cloud-budgets.js';
import { SqlConsoleMessageStore } from './console-messages.js';
import { SqlFindingStore } from './findings.js';
import { importBatches } from './import-batches.js';
import { SqlInstanceActionStore } from './instance-actions.js';
import { SqlInstanceOwnerStore } from './instance-owners.js';
import { SqlKeepExceptionStore } from './keep-exceptions.js';
import { SqlKubeUsageStore } from './kube-usage.js';
import { SqlOutboxStore, type LeaseClock } from './outbox-table.js';
import { recordRun } from './record-run.js';
import { SqlReviewStore } from './reviews.js';
import { SqlSavingsLedgerStore } from './savings-ledger.js';
import type { Session } from './session.js';
import { SqlSnoozeStore } from './snoozes.js';
import { SqlFreshnessStore } from './source-freshness.js';
import { SqlSpendBreakdownStore } from './spend-breakdowns.js';
import { SqlSpendStore } from './spend-daily.js';
import { SqlSpotMigrationStore } from './spot-migrations.js';
import { FINDING_FAMILIES, type Store } from './store.js';
import { SqlTrackedFindings } from './tracked-findings.js';

/** What a database adds to the tables: where it is, whether replicas share it, when it is ready, who leads, closing. */
export type StoreConnection = Pick<Store, 'location' | 'shared' | 'ready' | 'competeForLeadership' | 'close'>;

/** The store over one session: every table's module, the same on both databases (open-*-store.ts open the session). */
export function assembleStore(session: Session, leaseClock: LeaseClock, connection: StoreConnection): Store {
  return {
    spend: new SqlSpendStore(session),
    breakdowns: new SqlSpendBreakdownStore(session),
    reviews: new SqlReviewStore(session),
    freshness: new SqlFreshnessStore(session),
    cloudBudgets: new SqlCloudBudgetStore(session),
    findings: new SqlFindingStore(session),
    outbox: new SqlOutboxStore(session, leaseClock),
    audit: new SqlAuditLog(session),
    snoozes: new SqlSnoozeStore(session),
    acknowledgements: new SqlAcknowledgementStore(session),
    budgets: new SqlBudgetOverrideStore(session),
    console: new SqlConsoleMessageStore(session),
    gpuFindings: new SqlTrackedFindings(session, FINDING_FAMILIES.gpuFindings),
    keeps: new SqlKeepExceptionStore(session),
    instanceActions: new SqlInstanceActionStore(session),
    savings: new SqlSavingsLedgerStore(session),
    kubeUsage: new SqlKubeUsageStore(session),
    instanceOwners: new SqlInstanceOwnerStore(session),
    conversations: new SqlChatConversationStore(session),
    spotMigrations: new SqlSpotMigrationStore(session),
    sweepFindings: new SqlTrackedFindings(session, FINDING_FAMILIES.sweepFindings),
    anomalyFindings: new SqlAnomalyFindingStore(session),
    claims: new SqlClaimStore(session),
    proposals: new SqlActionProposalStore(session),
    mcpTokens: new SqlMcpTokenStore(session),
    importBatches: (batches, now, options) => importBatches(session, batches, now, options),
    recordRun: (table, change, alerts, now) => recordRun(session, table, change, alerts, now),
    isEmpty: async () => (await session.one<{ n: number }>('SELECT count(*) AS n FROM spend_daily'))!.n === 0,
    ...connection,
  };
}
