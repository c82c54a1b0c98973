import type { Config, SourceConfig } from '../config/schema.js';
import { AwsBudgetsSource } from './aws/aws-budgets-source.js';
import type { AwsSourceConfig } from './aws/aws-config.js';
import { CostExplorerSource } from './aws/cost-explorer-source.js';
import { DemoSource } from './demo/demo-source.js';
import { FocusSource } from './focus/focus-source.js';
import { BigQueryBillingSource } from './gcp/bigquery-source.js';
import type { GcpSourceConfig } from './gcp/gcp-config.js';
import { GcpBudgetsSource } from './gcp/gcp-budgets-source.js';
import { googleEndpoint, type GoogleEndpoint } from './gcp/google-endpoint.js';
import type { BudgetSource, SpendSource } from './port.js';
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
  focus: (c) => ({ spend: [new FocusSource({ id: c.id ?? 'focus', paths: c.paths })], budgets: [] }),
  demo: (c) => ({ spend: [new DemoSource({ seed: c.seed, days: c.days, ...(c.id ? { id: c.id } : {}) })], budgets: [] }),
  aws: (c, ctx) => buildAws(c, ctx),
  gcp: (c, ctx) => buildGcp(c, ctx),
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
  const spend = new CostExplorerSource({ id, tagKey, backfillDays: c.backfillDays, roleArns: c.roleArns, maxAttempts: c.maxAttempts });
  const budgets = c.budgets ? [new AwsBudgetsSource({ ...c.budgets, sourceId: id, tagKey, roleArns: c.roleArns, maxAttempts: c.maxAttempts })] : [];
  return { spend: [spend], budgets };
}

function buildGcp(c: GcpSourceConfig, { env, google }: FactoryContext): BuiltSources {
  const id = c.id ?? 'gcp';
  const endpoint = googleEndpoint(env, google);
  const retry = { ...DEFAULT_RETRY, attempts: c.maxAttempts };
  const spend = new BigQueryBillingSource({ id, project: c.project, table: c.table, detailed: c.export === 'detailed', location: c.location, backfillDays: c.backfillDays, maxGigabytesBilled: c.maxGigabytesBilled, retry, endpoint });
  const budgets = c.budgets && c.billingAccount ? [new GcpBudgetsSource({ ...c.budgets, sourceId: id, billingAccount: c.billingAccount, retry, endpoint })] : [];
  return { spend: [spend], budgets };
}
