import type { PermissionNeed } from '../../ports/permission-need.js';

/** IAM permissions the Google Cloud sources use and the predefined roles that grant them; docs/permissions.md is generated from these. */
export const BIGQUERY_JOBS = {
  cloud: 'gcp',
  permission: 'bigquery.jobs.create',
  role: 'roles/bigquery.jobUser',
  resource: 'the project in `project`',
  scope: 'project',
  usedBy: 'Google Cloud spend (BigQuery billing export)',
  when: 'with a gcp source',
} as const satisfies PermissionNeed;
export const BIGQUERY_READ = {
  cloud: 'gcp',
  permission: 'bigquery.tables.getData',
  role: 'roles/bigquery.dataViewer',
  resource: 'the dataset of `table`',
  scope: 'dataset',
  usedBy: 'Google Cloud spend (BigQuery billing export)',
  when: 'with a gcp source',
} as const satisfies PermissionNeed;
export const BUDGETS_LIST = {
  cloud: 'gcp',
  permission: 'billing.budgets.list',
  role: 'roles/billing.viewer',
  resource: 'the billing account in `billingAccount`',
  scope: 'billing-account',
  usedBy: 'Google Cloud budgets',
  when: 'with budgets on a gcp source',
} as const satisfies PermissionNeed;
export const PROJECT_BILLING_INFO = {
  cloud: 'gcp',
  permission: 'resourcemanager.projects.get',
  role: 'roles/browser',
  resource: 'the project in `project`',
  scope: 'project',
  usedBy: 'price refresh (billing account of the project)',
  when: 'for `burnrate prices refresh --provider gcp`',
} as const satisfies PermissionNeed;

export const ANOMALIES_LIST = {
  cloud: 'gcp',
  permission: 'billing.anomalies.list',
  role: 'roles/billing.viewer',
  resource: 'the billing account (or project) of each `anomalies.scopes` parent',
  scope: 'billing-account',
  usedBy: "Google Cloud's cost anomalies",
  when: 'with anomalies on a gcp source',
} as const satisfies PermissionNeed;

export const GCP_SOURCE_PERMISSIONS: readonly PermissionNeed[] = [
  BIGQUERY_JOBS,
  BIGQUERY_READ,
  BUDGETS_LIST,
  PROJECT_BILLING_INFO,
  ANOMALIES_LIST,
];
