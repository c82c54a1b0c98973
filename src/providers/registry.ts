import type { Config, SourceConfig } from '../config/schema.js';
import type { AthenaSourceConfig } from '../config/athena-config.js';
import type { AwsSourceConfig } from '../config/aws-config.js';
import { DemoSource } from './demo/demo-source.js';
import { FocusSource } from './focus/focus-source.js';
import type { GcpSourceConfig } from '../config/gcp-config.js';
import { googleEndpoint, type GoogleEndpoint } from './gcp/google-endpoint.js';
import { lazyBudgetSource, lazySpendSource } from './lazy-source.js';
import type { BudgetSource } from '../ports/budget-source.js';
import type { SpendSource } from '../ports/spend-source.js';
import { DEFAULT_RETRY } from './retry.js';

export interface BuiltSources {
  spend: SpendSource[];
  budgets: BudgetSource[];
}

interface FactoryContext {
  config: Config;
  env: NodeJS.ProcessEnv;
  google?: GoogleEndpoint['authClient'];
}

/** Ready clients' settings instead of the environment's (tests, embedding). */
export interface SourceOverrides {
  /** An auth client for the Google APIs instead of Application Default Credentials. */
  googleAuth?: GoogleEndpoint['authClient'];
}

type Factory<T extends SourceConfig['type']> = (config: Extract<SourceConfig, { type: T }>, ctx: FactoryContext) => BuiltSources;

/** Source type -> constructor. A new source is one entry here and one folder beside this file. */
const FACTORIES: { [T in SourceConfig['type']]: Factory<T> } = {
  focus: (c) => ({
    spend: [new FocusSource({ id: c.id ?? 'focus', paths: c.paths, lineCostCeiling: c.lineCostCeiling, dimensions: c.dimensions })],
    budgets: [],
  }),
  demo: (c) => ({ spend: [new DemoSource({ seed: c.seed, days: c.days, ...(c.id ? { id: c.id } : {}) })], budgets: [] }),
  aws: (c, ctx) => buildAws(c, ctx),
  gcp: (c, ctx) => buildGcp(c, ctx),
  athena: (c) => buildAthena(c),
};

/** Spend and budget sources from burnrate.yml; `env` only says where Google's endpoints are (never secrets). */
export function buildSources(config: Config, env: NodeJS.ProcessEnv = process.env, overrides: SourceOverrides = {}): BuiltSources {
  const built: BuiltSources = { spend: [], budgets: [] };
  for (const source of config.sources) {
    const one = (FACTORIES[source.type] as Factory<typeof source.type>)(source as never, { config, env, google: overrides.googleAuth });
    built.spend.push(...one.spend);
    built.budgets.push(...one.budgets);
  }
  return built;
}

function buildAws(c: AwsSourceConfig, { config }: FactoryContext): BuiltSources {
  const id = c.id ?? 'aws';
  // Cost Explorer names cost allocation tags without the "user:" prefix CUR and FOCUS give them.
  const tagKey = c.tagKey ?? config.ownership.tagKeys[0]!.replace(/^user:/i, '');
  const spend = lazySpendSource(
    id,
    'aws',
    async () =>
      new (await import('./aws/cost-explorer-source.js')).CostExplorerSource({
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
            new (await import('./aws/aws-budgets-source.js')).AwsBudgetsSource({
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

function buildGcp(c: GcpSourceConfig, { env, google }: FactoryContext): BuiltSources {
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
  const spend = lazySpendSource(id, 'gcp', async () => new (await import('./gcp/bigquery-source.js')).BigQueryBillingSource(options));
  const { budgets: settings, billingAccount } = c;
  const budgets =
    settings && billingAccount
      ? [
          lazyBudgetSource(
            `${id}:budgets`,
            'gcp',
            async () =>
              new (await import('./gcp/gcp-budgets-source.js')).GcpBudgetsSource({
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

function buildAthena(c: AthenaSourceConfig): BuiltSources {
  const id = c.id ?? 'athena';
  const options = { ...c, id };
  const spend = lazySpendSource(id, 'athena', async () => new (await import('./aws/athena/athena-source.js')).AthenaSpendSource(options));
  return { spend: [spend], budgets: [] };
}
