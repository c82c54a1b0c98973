import { POSTGRES_LEASE_CLOCK, postgresSession } from './pg-dialect.js';
import { BurnrateError } from '../../domain/errors.js';
import type { Store } from '../store.js';
import { SqlAcknowledgementStore } from '../acknowledgements.js';
import { SqlAuditLog } from '../audit-log.js';
import { SqlBudgetOverrideStore } from '../budget-overrides.js';
import { SqlFindingStore } from '../findings.js';
import { SqlGpuFindingStore } from '../gpu-findings.js';
import { SqlKeepExceptionStore } from '../keep-exceptions.js';
import { recordRun } from '../record-run.js';
import { SqlReviewStore } from '../reviews.js';
import { SqlSnoozeStore } from '../snoozes.js';
import { SqlSweepFindingStore } from '../sweep-findings.js';
import { SqlAnomalyFindingStore } from '../anomaly-findings.js';
import { SqlChatConversationStore } from '../chat-conversations.js';
import { SqlConsoleMessageStore } from '../console-messages.js';
import { SqlInstanceActionStore } from '../instance-actions.js';
import { SqlInstanceOwnerStore } from '../instance-owners.js';
import { SqlKubeUsageStore } from '../kube-usage.js';
import { SqlSavingsLedgerStore } from '../savings-ledger.js';
import { SqlSpotMigrationStore } from '../spot-migrations.js';
import { SqlClaimStore } from '../claims.js';
import { SqlCloudBudgetStore } from '../cloud-budgets.js';
import { PgDb, redactUrl } from './pg-db.js';
import { importBatches } from '../import-batches.js';
import { competeForLeadership } from './pg-leadership.js';
import { SqlOutboxStore } from '../outbox-table.js';
import { UnknownMigrationError } from '../migrations.js';
import { migratePostgres } from './pg-migrations.js';
import { SqlFreshnessStore } from '../source-freshness.js';
import { SqlSpendBreakdownStore } from '../spend-breakdowns.js';
import { SqlSpendStore } from '../spend-daily.js';

/**
 * Opens the shared Postgres store at `url`. It is handed out at once; its migrations run in the
 * background and every query waits for them, so `ready()` (or the first query) reports a database
 * that cannot be reached, with the URL's password left out.
 */
export function openPostgresStore(url: string, options: { poolSize?: number } = {}): Store {
  const location = redactUrl(url);
  const db = PgDb.connect(url, { max: options.poolSize });
  const ready = db.openWith((ungated) => migratePostgres(ungated).catch((error: unknown) => Promise.reject(unavailable(location, error))));
  const session = postgresSession(db);
  return {
    spend: new SqlSpendStore(session),
    breakdowns: new SqlSpendBreakdownStore(session),
    reviews: new SqlReviewStore(session),
    freshness: new SqlFreshnessStore(session),
    cloudBudgets: new SqlCloudBudgetStore(session),
    findings: new SqlFindingStore(session),
    outbox: new SqlOutboxStore(session, POSTGRES_LEASE_CLOCK),
    audit: new SqlAuditLog(session),
    snoozes: new SqlSnoozeStore(session),
    budgets: new SqlBudgetOverrideStore(session),
    console: new SqlConsoleMessageStore(session),
    gpuFindings: new SqlGpuFindingStore(session),
    keeps: new SqlKeepExceptionStore(session),
    instanceActions: new SqlInstanceActionStore(session),
    savings: new SqlSavingsLedgerStore(session),
    kubeUsage: new SqlKubeUsageStore(session),
    instanceOwners: new SqlInstanceOwnerStore(session),
    conversations: new SqlChatConversationStore(session),
    spotMigrations: new SqlSpotMigrationStore(session),
    sweepFindings: new SqlSweepFindingStore(session),
    anomalyFindings: new SqlAnomalyFindingStore(session),
    importBatches: (batches, now, options) => importBatches(session, batches, now, options),
    recordRun: (table, change, alerts, now) => recordRun(session, table, change, alerts, now),
    acknowledgements: new SqlAcknowledgementStore(session),
    claims: new SqlClaimStore(session),
    location,
    shared: true,
    ready: () => ready,
    competeForLeadership: (leadership) => competeForLeadership(url, leadership),
    isEmpty: async () => (await db.one<{ n: number }>('SELECT count(*) AS n FROM spend_daily'))!.n === 0,
    close: () => db.close(),
  };
}

function unavailable(location: string, error: unknown): BurnrateError {
  if (error instanceof UnknownMigrationError) {
    return new BurnrateError(
      'burnrate_db_too_new',
      `database ${location} was migrated by a newer burnrate (${error.keys.join(', ')})`,
      'Upgrade burnrate, or point DATABASE_URL at another database.',
      1,
    );
  }
  return new BurnrateError(
    'burnrate_db_unavailable',
    `cannot open database ${location}: ${(error as Error).message}`,
    'Check DATABASE_URL (postgres://user:password@host:5432/database), that the server is up and that the user may create tables.',
    1,
  );
}
