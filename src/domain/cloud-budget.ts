/** Where a budget is defined: a cloud's budget service, or burnrate.yml (and chat overrides). */
export type BudgetOrigin = 'aws' | 'gcp' | 'config';

/**
 * A budget someone defined in a cloud console, as read from its API. Amounts are in `currency`;
 * `actual` and `forecast` are the cloud's own figures when it gives them (AWS does, Google does not).
 */
export interface CloudBudget {
  /** The source that read it (its id in burnrate.yml). */
  source: string;
  origin: Exclude<BudgetOrigin, 'config'>;
  /** Stable id within the source: account/name (AWS) or the resource name (Google). */
  id: string;
  name: string;
  /** Team id it is mapped to, or null when neither its name nor its filter names a team. */
  team: string | null;
  /** How the team was found: `name` (teamPattern), `filter` (the tag in its filter), or null. */
  mappedBy: 'name' | 'filter' | null;
  /** monthly, quarterly, annually or custom: only monthly budgets can drive burnrate's alerts. */
  period: 'monthly' | 'quarterly' | 'annually' | 'custom';
  amount: number;
  currency: string;
  actual: number | null;
  forecast: number | null;
  /** Percent thresholds of its notifications or threshold rules, ascending. */
  thresholds: number[];
  /** The same thresholds, with whether each is on actual or forecast spend. */
  notifications: { threshold: number; on: 'actual' | 'forecast' }[];
  /** The source's `budgets.alerts`: a mapped monthly budget stands in for a team without one in burnrate.yml. */
  drivesAlerts: boolean;
}
