import type { PermissionNeed } from '../../ports/permission-need.js';

/** IAM actions the AWS spend and budget sources use; docs/permissions.md is generated from these. */
export const COST_EXPLORER_PERMISSION = 'ce:GetCostAndUsage';
export const BUDGETS_PERMISSION = 'budgets:ViewBudget';

export const AWS_SOURCE_PERMISSIONS: readonly PermissionNeed[] = [
  { cloud: 'aws', permission: COST_EXPLORER_PERMISSION, resource: '*', usedBy: 'AWS spend (Cost Explorer)', when: 'with an aws source' },
  {
    cloud: 'aws',
    permission: BUDGETS_PERMISSION,
    resource: '*',
    usedBy: 'AWS budgets (DescribeBudgets, DescribeNotificationsForBudget)',
    when: 'with budgets on an aws source',
  },
  // burnrate's own identity assumes each role; the role itself then needs the two above.
  {
    cloud: 'aws',
    permission: 'sts:AssumeRole',
    resource: 'arn:aws:iam::<account-id>:role/<role-name>',
    usedBy: 'several AWS accounts (roleArns)',
    when: 'with roleArns on an aws source',
  },
];
