import type { GcpSourceConfig } from '../../config/gcp-config.js';
import { lazyBudgetSource, lazySpendSource } from '../lazy-source.js';
import type { BuiltSources, SourceContext } from '../provider.js';
import { DEFAULT_RETRY } from '../retry.js';
import type { AnomalySource } from '../../ports/anomaly-source.js';
import type { GoogleCostAnomalies } from './cost-anomalies.js';
import { googleEndpoint, type GoogleEndpoint } from './google-endpoint.js';

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
  const anomalies = (c.anomalies?.scopes ?? []).map(({ parent, team }) => googleAnomalySource(parent, team, endpoint));
  return { spend: [spend], budgets, anomalies };
}

/** How messages name Google's anomalies. */
const GOOGLE_ANOMALY_LABEL = "Google Cloud's cost anomaly detection";

/** One project's or billing account's anomalies as its team's source; the client loads when first used. It sends no feedback: Google's API takes none. */
function googleAnomalySource(parent: string, team: string, endpoint: GoogleEndpoint): AnomalySource {
  let client: Promise<GoogleCostAnomalies> | undefined;
  const load = () => (client ??= import('./cost-anomalies.js').then((m) => new m.GoogleCostAnomalies(parent, endpoint)));
  return {
    id: `gcp:anomalies:${parent}`,
    label: GOOGLE_ANOMALY_LABEL,
    team,
    list: async (start, end) => (await load()).list(start, end),
  };
}
