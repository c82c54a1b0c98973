/** IAM actions the AWS spend and budget sources use, for the generated policy (docs/permissions.md). */
export const COST_EXPLORER_PERMISSION = 'ce:GetCostAndUsage';
export const BUDGETS_PERMISSION = 'budgets:ViewBudget';
/** Needed by burnrate's own identity on each role of `roleArns` (and by the role's trust policy). */
export const ASSUME_ROLE_PERMISSION = 'sts:AssumeRole';
