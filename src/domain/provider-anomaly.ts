/** What a cloud's own anomaly detection says moved: one root cause and its share of the impact. */
export interface ProviderRootCause {
  service: string | null;
  region: string | null;
  account: string | null;
  usageType: string | null;
  /** What this cause contributed to the anomaly's total impact, in the provider's currency. */
  contribution: number | null;
}

/** The answer a provider's anomaly detection learns from (AWS: ProvideAnomalyFeedback). */
export type ProviderFeedback = 'YES' | 'NO' | 'PLANNED_ACTIVITY';

/** A spend anomaly as a cloud's own detection found it (AWS Cost Anomaly Detection, Google Cloud's cost anomalies), shown as the provider's. */
export interface ProviderAnomaly {
  provider: 'aws' | 'gcp';
  id: string;
  monitor: string;
  /** First day (YYYY-MM-DD), and the last while it lasted; null while it goes on. */
  start: string | null;
  end: string | null;
  /** Spend above the provider's expected value over the anomaly, what was spent and what was expected. */
  impact: number;
  actual: number | null;
  expected: number | null;
  currency: string;
  /** The provider's score of it now and at most (0–100 on AWS). */
  score: number | null;
  rootCauses: ProviderRootCause[];
  feedback: ProviderFeedback | null;
}

/**
 * The provider's feedback for a team's answer: Not expected confirms a real anomaly (YES); Expected
 * says it was planned (PLANNED_ACTIVITY), so both detections learn from one answer.
 */
export function providerFeedbackOf(verdict: 'expected' | 'not-expected'): ProviderFeedback {
  return verdict === 'expected' ? 'PLANNED_ACTIVITY' : 'YES';
}
