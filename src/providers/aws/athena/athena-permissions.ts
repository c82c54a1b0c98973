import type { PermissionNeed } from '../../../ports/permission-need.js';

/** The Athena calls the athena source makes; docs/permissions.md is generated from these declarations. */
export const ATHENA_QUERY_PERMISSIONS = [
  'athena:StartQueryExecution',
  'athena:GetQueryExecution',
  'athena:GetQueryResults',
  'athena:StopQueryExecution',
] as const;

const USED_BY = 'AWS spend (Athena over AWS Data Exports)';

// Each `when` is one statement of the generated IAM policy, so each statement names only its own resources.
export const ATHENA_SOURCE_PERMISSIONS: readonly PermissionNeed[] = [
  ...ATHENA_QUERY_PERMISSIONS.map(
    (permission): PermissionNeed => ({
      cloud: 'aws',
      permission,
      resource: 'arn:aws:athena:<region>:<account-id>:workgroup/<workgroup>',
      usedBy: USED_BY,
      when: 'with an athena source',
    }),
  ),
  ...(['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'] as const).map(
    (permission): PermissionNeed => ({
      cloud: 'aws',
      permission,
      // The catalog, the database and the table: Glue checks all three.
      resource: 'arn:aws:glue:<region>:<account-id>:*',
      usedBy: `${USED_BY}: the table in the Glue Data Catalog`,
      when: 'with an athena source, to read the Glue table',
    }),
  ),
  {
    cloud: 'aws',
    permission: 's3:ListBucket',
    resource: 'arn:aws:s3:::<export-bucket>',
    usedBy: `${USED_BY}: the export's files`,
    when: 'with an athena source, to read the export',
  },
  {
    cloud: 'aws',
    permission: 's3:GetObject',
    resource: 'arn:aws:s3:::<export-bucket>/<export-prefix>/*',
    usedBy: `${USED_BY}: the export's files`,
    when: 'with an athena source, to read the export',
  },
  {
    cloud: 'aws',
    permission: 's3:GetBucketLocation',
    resource: 'arn:aws:s3:::<results-bucket>',
    usedBy: `${USED_BY}: query results (outputLocation)`,
    when: 'with an athena source, to write query results',
  },
  ...(['s3:PutObject', 's3:GetObject'] as const).map(
    (permission): PermissionNeed => ({
      cloud: 'aws',
      permission,
      resource: 'arn:aws:s3:::<results-bucket>/<results-prefix>/*',
      usedBy: `${USED_BY}: query results (outputLocation)`,
      when: 'with an athena source, to write query results',
    }),
  ),
];
