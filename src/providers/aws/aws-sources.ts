import type { AthenaSourceConfig } from '../../config/athena-config.js';
import type { AwsSourceConfig } from '../../config/aws-config.js';
import type { Config } from '../../config/schema.js';
import { lazyBudgetSource, lazySpendSource } from '../lazy-source.js';
import type { BuiltSources } from '../provider.js';

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
  return { spend: [spend], budgets };
}

/** The CUR or FOCUS export queried in Athena. */
export function athenaSources(c: AthenaSourceConfig): BuiltSources {
  const id = c.id ?? 'athena';
  const options = { ...c, id };
  const spend = lazySpendSource(id, 'athena', async () => new (await import('./athena/athena-source.js')).AthenaSpendSource(options));
  return { spend: [spend], budgets: [] };
}
