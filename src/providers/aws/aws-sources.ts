import type { AthenaSourceConfig } from '../../config/athena-config.js';
import type { AwsSourceConfig } from '../../config/aws-config.js';
import type { Config } from '../../config/schema.js';
import { lazyBudgetSource, lazySpendSource } from '../lazy-source.js';
import type { BuiltSources } from '../provider.js';
import type { AnomalySource } from '../../ports/anomaly-source.js';
import type { CostAnomalies } from './cost-anomalies.js';

/** How messages name AWS's anomalies. */
const COST_ANOMALY_LABEL = 'AWS Cost Anomaly Detection';

/** Cost Explorer's spend and, with `budgets`, AWS Budgets; the SDK clients load when first read. */
export function awsSources(c: AwsSourceConfig, config: Config): BuiltSources {
  const id = c.id ?? 'aws';
  // Cost Explorer names cost allocation tags without the "user:" prefix CUR and FOCUS give them.
  const tagKey = c.tagKey ?? config.ownership.tagKeys[0]!.replace(/^user:/i, '');
  const spend = lazySpendSource(
    id,
    'aws',
    async () =>
      new (await import('./cost-explorer-source.js')).CostExplorerSource({
        id,
        tagKey,
        backfillDays: c.backfillDays,
        roleArns: c.roleArns,
        maxAttempts: c.maxAttempts,
      }),
  );
  const settings = c.budgets;
  const budgets = settings
    ? [
        lazyBudgetSource(
          `${id}:budgets`,
          'aws',
          async () =>
            new (await import('./aws-budgets-source.js')).AwsBudgetsSource({
              ...settings,
              sourceId: id,
              tagKey,
              roleArns: c.roleArns,
              maxAttempts: c.maxAttempts,
            }),
        ),
      ]
    : [];
  const anomalies = (c.anomalies?.monitors ?? []).map(({ arn, team }) => costAnomalySource(arn, team, c.maxAttempts));
  return { spend: [spend], budgets, anomalies };
}

/** One Cost Anomaly Detection monitor as its team's anomaly source; the SDK client loads when first used. */
function costAnomalySource(monitorArn: string, team: string, maxAttempts: number): AnomalySource {
  let client: Promise<CostAnomalies> | undefined;
  const load = () => (client ??= import('./cost-anomalies.js').then((m) => new m.CostAnomalies({ maxAttempts, monitorArn })));
  return {
    id: `aws:anomalies:${monitorArn.split('/').pop()}`,
    label: COST_ANOMALY_LABEL,
    team,
    list: async (start, end) => (await load()).list(start, end),
    feedback: async (id, feedback) => (await load()).feedback(id, feedback),
  };
}

/** The CUR or FOCUS export queried in Athena. */
export function athenaSources(c: AthenaSourceConfig): BuiltSources {
  const id = c.id ?? 'athena';
  const options = { ...c, id };
  const spend = lazySpendSource(id, 'athena', async () => new (await import('./athena/athena-source.js')).AthenaSpendSource(options));
  return { spend: [spend], budgets: [] };
}
