// A team and its budget as the rules read them. burnrate.yml's schema (src/config/schema.ts) validates
// them and stays the source of truth; its output has these fields, so a configured team is a Team.

/** A team's spend budget: amounts per cadence, their currency, alert thresholds (%, ascending), forecast alerts. */
export interface TeamBudget {
  monthly?: number | undefined;
  weekly?: number | undefined;
  currency: string;
  thresholds: number[];
  forecast: boolean;
}

/** Who a team is: its id and name, the tag values that also name it, its time zone, who owns and approves. */
export interface Team {
  id: string;
  name?: string | undefined;
  match: string[];
  /** IANA time zone its days and weeks are counted in. */
  timezone: string;
  owners: string[];
  approvers: string[];
  budget?: TeamBudget | undefined;
}
