/**
 * A provider port a chat button acts through: `instances` (stop) or `spot` (launch template changes).
 * The cloud permissions are the port's, declared by each provider that implements it.
 */
export type ActionPortName = 'instances' | 'spot';

/** One cloud permission burnrate uses, declared by the source or action that uses it. */
export interface PermissionNeed {
  cloud: 'aws' | 'gcp' | 'azure';
  /** `ce:GetCostAndUsage`, `bigquery.jobs.create`, `Microsoft.Compute/virtualMachines/read`. */
  permission: string;
  /** GCP: the predefined role that grants it, for the grant commands. */
  role?: string;
  /** On what: an ARN pattern for AWS (`*`); for GCP, what `scope` names in words. */
  resource: string;
  /** GCP: where the role is granted, for the grant command. */
  scope?: 'project' | 'dataset' | 'billing-account';
  /** What in burnrate uses it, for the table ("AWS spend (Cost Explorer)"). */
  usedBy: string;
  /** When it is needed: "with an aws source", "to stop instances from chat". */
  when: string;
}
