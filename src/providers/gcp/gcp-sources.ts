import type { GcpSourceConfig } from '../../config/gcp-config.js';
import { lazyBudgetSource, lazySpendSource } from '../lazy-source.js';
import type { BuiltSources, SourceContext } from '../provider.js';
import { DEFAULT_RETRY } from '../retry.js';
import { googleEndpoint } from './google-endpoint.js';

/** The BigQuery billing export's spend and, with `budgets` and `billingAccount`, Cloud Billing budgets. */
export function gcpSources(c: GcpSourceConfig, { env, google }: SourceContext): BuiltSources {
  const id = c.id ?? 'gcp';
  const endpoint = googleEndpoint(env, google);
  const retry = { ...DEFAULT_RETRY, attempts: c.maxAttempts };
  const options = {
    id,
    project: c.project,
    table: c.table,
    detailed: c.export === 'detailed',
    location: c.location,
    backfillDays: c.backfillDays,
    maxGigabytesBilled: c.maxGigabytesBilled,
    retry,
    endpoint,
  };
  const spend = lazySpendSource(id, 'gcp', async () => new (await import('./bigquery-source.js')).BigQueryBillingSource(options));
  const { budgets: settings, billingAccount } = c;
  const budgets =
    settings && billingAccount
      ? [
          lazyBudgetSource(
            `${id}:budgets`,
            'gcp',
            async () =>
              new (await import('./gcp-budgets-source.js')).GcpBudgetsSource({
                ...settings,
                sourceId: id,
                billingAccount,
                retry,
                endpoint,
              }),
          ),
        ]
      : [];
  return { spend: [spend], budgets };
}
