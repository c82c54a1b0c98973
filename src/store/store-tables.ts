import type { FxRates } from '../domain/fx.js';
import type { TrackedGpuFinding } from '../domain/gpu-finding.js';
import type { TrackedSweepFinding } from '../domain/sweep-finding.js';
import type { PublicOf, Session } from './session.js';
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
import { SqlInstanceActionStore } from './instance-actions.js';
import { SqlInstanceOwnerStore } from './instance-owners.js';
import { SqlKeepExceptionStore } from './keep-exceptions.js';
import { SqlKubeUsageStore } from './kube-usage.js';
import { SqlOutboxStore, type LeaseClock } from './outbox-table.js';
import { SqlReviewStore } from './reviews.js';
import { SqlSavingsLedgerStore } from './savings-ledger.js';
import { SqlSnoozeStore } from './snoozes.js';
import { SqlFreshnessStore } from './source-freshness.js';
import { SqlSpendBreakdownStore } from './spend-breakdowns.js';
import { SqlSpendStore } from './spend-daily.js';
import { SqlSpotMigrationStore } from './spot-migrations.js';
import { SqlTrackedFindings } from './tracked-findings.js';
import { FINDING_FAMILIES } from './finding-families.js';

/** Every table's module over one session, the same on both databases; `fx` is burnrate.yml's exchange rates (rederiveSpend). */
export function storeTables(session: Session, leaseClock: LeaseClock, fx?: FxRates) {
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
    gpuFindings: new SqlTrackedFindings<TrackedGpuFinding>(session, FINDING_FAMILIES.gpuFindings),
    keeps: new SqlKeepExceptionStore(session),
    instanceActions: new SqlInstanceActionStore(session),
    savings: new SqlSavingsLedgerStore(session),
    kubeUsage: new SqlKubeUsageStore(session, fx),
    instanceOwners: new SqlInstanceOwnerStore(session),
    conversations: new SqlChatConversationStore(session),
    spotMigrations: new SqlSpotMigrationStore(session),
    sweepFindings: new SqlTrackedFindings<TrackedSweepFinding>(session, FINDING_FAMILIES.sweepFindings),
    anomalyFindings: new SqlAnomalyFindingStore(session),
    claims: new SqlClaimStore(session),
    /** What assistants proposed through the MCP server. */
    proposals: new SqlActionProposalStore(session),
    /** The MCP tokens issued by `burnrate mcp token create`, kept hashed. */
    mcpTokens: new SqlMcpTokenStore(session),
  };
}

/** The store's tables as callers see them: each class's public methods (its contract). */
export type StoreTables = { [K in keyof ReturnType<typeof storeTables>]: PublicOf<ReturnType<typeof storeTables>[K]> };
