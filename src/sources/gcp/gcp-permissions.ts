/** IAM permissions and the predefined roles that grant them, for the generated docs/permissions.md. */
export const BIGQUERY_PERMISSIONS = [
  { permission: 'bigquery.jobs.create', role: 'roles/bigquery.jobUser', on: 'the project in `project`' },
  { permission: 'bigquery.tables.getData', role: 'roles/bigquery.dataViewer', on: 'the dataset of `table`' },
] as const;

export const BUDGETS_PERMISSIONS = [{ permission: 'billing.budgets.list', role: 'roles/billing.viewer', on: 'the billing account in `billingAccount`' }] as const;

/** The Cloud Catalog (public SKU prices) needs no role: any authenticated caller may read it. */
export const CATALOG_PERMISSIONS = [] as const;
