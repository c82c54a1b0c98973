export interface BudgetOverride {
  team: string;
  cadence: 'monthly' | 'weekly';
  amount: number;
  thresholds: number[] | null;
  byUser: string;
  at: Date;
}
