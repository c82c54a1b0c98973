import { z } from 'zod';
import { backfillDays, cloudBudgetsSchema } from './cloud-budget-config.js';

const billingAccount = z
  .string({ error: 'expected a billing account id such as 012345-6789AB-CDEF01' })
  .regex(/^[0-9A-F]{6}-[0-9A-F]{6}-[0-9A-F]{6}$/, { error: 'expected a billing account id such as 012345-6789AB-CDEF01' });

const projectId = z.string({ error: 'expected a project id such as ml-training-prod' }).regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, {
  error: 'expected a project id such as ml-training-prod (6-30 lower-case letters, digits and -)',
});

/**
 * The Compute Engine VMs with GPUs of these projects (every zone): burnrate lists them and may stop
 * them. Credentials: Application Default Credentials.
 */
export const gceInventorySchema = z.strictObject({
  type: z.literal('gce'),
  projects: z
    .array(projectId, { error: 'expected a list of project ids, e.g. [ml-training-prod]' })
    .min(1, { error: 'expected at least one project id, e.g. [ml-training-prod]' })
    .transform((projects) => [...new Set(projects)]),
  /** A stop discards a VM's local SSD data: false, such a VM is never stopped by burnrate. */
  discardLocalSsd: z.boolean({ error: 'expected true or false' }).default(false),
});

/** GPU metrics the Ops Agent publishes to Cloud Monitoring from these projects' VMs. */
export const cloudMonitoringMetricsSchema = z.strictObject({
  type: z.literal('cloud-monitoring'),
  id: z.string().trim().min(1, { error: 'expected a source id' }).optional(),
  projects: z
    .array(projectId, { error: 'expected a list of project ids, e.g. [ml-training-prod]' })
    .min(1, { error: 'expected at least one project id, e.g. [ml-training-prod]' })
    .transform((projects) => [...new Set(projects)]),
});

/** A billing account's or a project's cost anomalies, and the team they are shown to. */
const anomalyScope = z.strictObject({
  parent: z
    .string({ error: 'expected projects/<project id> or billingAccounts/<billing account id>' })
    .regex(/^(projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]|billingAccounts\/[0-9A-F]{6}-[0-9A-F]{6}-[0-9A-F]{6})$/, {
      error: 'expected projects/<project id> or billingAccounts/<billing account id>, e.g. projects/ml-training-prod',
    }),
  team: z.string({ error: 'expected a team id' }).trim().min(1, { error: 'expected a team id' }),
});

/** Live Google Cloud spend (BigQuery billing export) and budgets. Credentials: Application Default Credentials. */
export const gcpSourceSchema = z.strictObject({
  type: z.literal('gcp'),
  id: z.string().trim().min(1, { error: 'expected a source id' }).optional(),
  /** The project the queries run (and are billed) in. */
  project: z
    .string({ error: 'expected a project id' })
    .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, { error: 'expected a project id such as my-billing-project' }),
  /** The export table, project.dataset.table. */
  table: z.string({ error: 'expected project.dataset.table' }).regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]\.\w+\.\w+$/, {
    error: 'expected the export table as project.dataset.table, e.g. my-project.billing.gcp_billing_export_v1_012345_6789AB_CDEF01',
  }),
  /** standard: gcp_billing_export_v1_*; detailed: gcp_billing_export_resource_v1_* (adds resource names). */
  export: z.enum(['standard', 'detailed'], { error: 'expected standard or detailed' }).default('standard'),
  /** The dataset's location (US, EU, europe-west4, ...). */
  location: z.string().trim().min(1).default('US'),
  backfillDays,
  /** A query that would bill more than this many GB is refused by BigQuery instead of run. */
  maxGigabytesBilled: z.number({ error: 'expected a number of GB' }).positive({ error: 'expected a number of GB above 0' }).default(200),
  maxAttempts: z.number().int().min(1).max(10).default(4),
  /** For budgets and billing information. */
  billingAccount: billingAccount.optional(),
  budgets: cloudBudgetsSchema.optional(),
  /** Google Cloud's cost anomalies (Cloud Billing API): each project's or billing account's shown to its team. */
  anomalies: z
    .strictObject({
      scopes: z
        .array(anomalyScope, { error: 'expected a list of scopes, e.g. [{ parent: projects/ml-training-prod, team: llm-training }]' })
        .min(1, { error: 'expected at least one scope, e.g. [{ parent: projects/ml-training-prod, team: llm-training }]' }),
    })
    .optional(),
});

export type GcpSourceConfig = z.output<typeof gcpSourceSchema>;
